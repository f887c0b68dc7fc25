/**
 * The import table of ARCHITECTURE.md, enforced: each top-level folder imports only what the table allows,
 * and nothing imports the sandbox except the one bridge (the global setup). A row may name a sub-folder
 * (harness/business): its files follow that row, and a file elsewhere may import it only where its own
 * row names it. The table is read from the `import-rules` block of ARCHITECTURE.md, so the document and
 * the check cannot drift apart.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';

interface Rules {
  allowed: Map<string, Set<string> | '*'>;
  exceptions: Array<{ file: string; folder: string }>;
}

export function readRules(markdown: string): Rules {
  const block = /```import-rules\n([\s\S]*?)```/.exec(markdown)?.[1];
  if (!block) throw new Error('ARCHITECTURE.md has no import-rules block');
  const rules: Rules = { allowed: new Map(), exceptions: [] };
  for (const line of block.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))) {
    const [key, value] = [line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim()];
    if (key === 'exception') {
      const [file, folder] = value.split('->').map((s) => s.trim());
      rules.exceptions.push({ file, folder });
    } else rules.allowed.set(key, value === '*' ? '*' : new Set(value === '-' ? [] : value.split(/\s+/)));
  }
  return rules;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|mjs)$/.test(name)) yield path;
  }
}

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** The most specific row holding the path: a sub-folder row before its top-level folder. */
function rowOf(rules: Rules, rel: string): string {
  const rows = [...rules.allowed.keys()].filter((row) => rel === row || rel.startsWith(`${row}/`));
  return rows.sort((a, b) => b.length - a.length)[0] ?? rel.split('/')[0];
}

function violations(rules: Rules): string[] {
  const out: string[] = [];
  for (const [folder, allowed] of rules.allowed) {
    let files: string[] = [];
    try {
      files = [...sourceFiles(join(ROOT, folder))];
    } catch {
      continue;
    }
    for (const file of files) {
      const rel = relative(ROOT, file);
      if (rowOf(rules, rel) !== folder) continue;
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const target = rowOf(rules, relative(ROOT, resolve(dirname(file), match[1])));
        if (target === folder || allowed === '*') continue;
        if (rules.exceptions.some((e) => e.file === rel && e.folder === target)) continue;
        if (!allowed.has(target)) out.push(`${rel} imports ${match[1]} (${folder}/ may import ${[...allowed].join(', ') || 'nothing'})`);
      }
    }
  }
  return out;
}

describe('the import table of ARCHITECTURE.md', () => {
  const rules = readRules(readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8'));

  it('names every top-level folder that holds code', () => {
    for (const folder of ['specs', 'harness', 'generators', 'suites', 'sandbox', 'selftest', 'bench', 'bin']) expect(rules.allowed.has(folder), folder).toBe(true);
  });

  it('is kept by every file', () => {
    expect(violations(rules)).toEqual([]);
  });

  it('catches an import it forbids (the check can fail)', () => {
    const strict: Rules = { allowed: new Map([['harness', new Set<string>()]]), exceptions: [] };
    expect(violations(strict).length).toBeGreaterThan(0);
  });

  it('holds a sub-folder to its own row, and the rest of its folder to theirs', () => {
    const withoutHarness: Rules = { allowed: new Map([...rules.allowed, ['harness/business', new Set(['specs'])]]), exceptions: rules.exceptions };
    expect(violations(withoutHarness).some((v) => v.startsWith('harness/business/'))).toBe(true);
    const unnamed: Rules = { allowed: new Map([...rules.allowed, ['suites', new Set(['harness', 'generators', 'specs'])]]), exceptions: [] };
    expect(violations(unnamed).some((v) => v.startsWith('suites/business/') && v.includes('harness/business'))).toBe(true);
  });
});
