/**
 * No import circle between the project's files, type imports included: a circle closed by a type
 * import still ties the files' meaning together (the business engine once formed one of eight files),
 * and makes the load order of a module matter.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';
import { IMPORT, sourceFiles } from './source-files.ts';

/** The import graph of the given texts: file -> the files it imports (relative specifiers only). */
function graphOf(texts: Map<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of texts) {
    const targets = [...text.matchAll(IMPORT)].map((m) => resolve(dirname(file), m[1])).filter((t) => texts.has(t));
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected components of more than one file (Tarjan), and files importing themselves. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('import circles', () => {
  it('none among the files of harness, generators, suites, sandbox and bin', () => {
    const texts = new Map<string, string>();
    for (const top of ['harness', 'generators', 'suites', 'sandbox', 'bin'])
      for (const file of sourceFiles(join(ROOT, top))) texts.set(file, readFileSync(file, 'utf8'));
    expect(texts.size).toBeGreaterThan(100);
    expect(circles(graphOf(texts)).map((c) => c.map((f) => relative(ROOT, f)).join(' -> '))).toEqual([]);
  });

  it('finds a circle closed by a type import, and none in a chain', () => {
    const circle = new Map([
      ['/p/a.ts', "import { b } from './b.ts';"],
      ['/p/b.ts', "import type { C } from './c.ts';"],
      ['/p/c.ts', "import { a } from './a.ts';"],
      ['/p/d.ts', "import { a } from './a.ts';"],
    ]);
    expect(circles(graphOf(circle))).toEqual([['/p/a.ts', '/p/b.ts', '/p/c.ts']]);
    const chain = new Map([
      ['/p/a.ts', "import { b } from './b.ts';"],
      ['/p/b.ts', "import type { C } from './c.ts';"],
      ['/p/c.ts', 'export const c = 1;'],
    ]);
    expect(circles(graphOf(chain))).toEqual([]);
  });
});
