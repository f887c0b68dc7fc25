/**
 * The import table of ARCHITECTURE.md, enforced, without exceptions: each top-level folder imports only
 * what the table allows. A file read through a URL built from the module's own (`new URL('../specs/…',
 * import.meta.url)`, `import.meta.resolve('…')`) counts as an import of the folder it names, so a folder
 * whose row does not allow specs cannot read them either. A row may name a sub-folder (harness/business):
 * its files follow that row, and a file elsewhere may import it only where its own row names it. The
 * table is read from the `import-rules` block of ARCHITECTURE.md, so the document and the check cannot
 * drift apart.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';
import { IMPORT, sourceFiles } from './source-files.ts';

interface Rules {
  allowed: Map<string, Set<string> | '*'>;
}

export function readRules(markdown: string): Rules {
  const block = /```import-rules\n([\s\S]*?)```/.exec(markdown)?.[1];
  if (!block) throw new Error('ARCHITECTURE.md has no import-rules block');
  const rules: Rules = { allowed: new Map() };
  for (const line of block
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))) {
    const [key, value] = [line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim()];
    // A row is a folder; one file allowed what its folder is not would be an exception the table does not have.
    if (!/^[a-z][a-z0-9-]*(\/[a-z0-9-]+)*$/.test(key) || value.includes('->'))
      throw new Error(`import-rules: "${line}" is not a folder's row`);
    rules.allowed.set(key, value === '*' ? '*' : new Set(value === '-' ? [] : value.split(/\s+/)));
  }
  return rules;
}

/** A path built from the module's own URL: a read (or import) of whatever folder it names. */
const URL_READ = /(?:\bnew\s+URL\s*\(\s*|\bimport\.meta\.resolve\s*\(\s*)['"`](\.{1,2}(?:\/[^'"`]*)?)['"`]/g;

/** Every relative path a file imports or reads by URL, with how. */
function* references(text: string): Generator<{ path: string; how: 'imports' | 'reads' }> {
  for (const match of text.matchAll(IMPORT)) yield { path: match[1], how: 'imports' };
  for (const match of text.matchAll(URL_READ)) yield { path: match[1], how: 'reads' };
}

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
      for (const { path, how } of references(readFileSync(file, 'utf8'))) {
        const into = relative(ROOT, resolve(dirname(file), path));
        // The project's root itself (a package.json, the path other files are joined to) is no folder's.
        if (into === '' || into.startsWith('..')) continue;
        const target = rowOf(rules, into);
        if (target === folder || allowed === '*') continue;
        if (!allowed.has(target)) out.push(`${rel} ${how} ${path} (${folder}/ may import ${[...allowed].join(', ') || 'nothing'})`);
      }
    }
  }
  return out;
}

describe('the import table of ARCHITECTURE.md', () => {
  const rules = readRules(readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8'));

  it('names every top-level folder that holds code', () => {
    for (const folder of ['specs', 'harness', 'generators', 'suites', 'sandbox', 'selftest', 'bench', 'bin'])
      expect(rules.allowed.has(folder), folder).toBe(true);
  });

  it('is kept by every file', () => {
    expect(violations(rules)).toEqual([]);
  });

  it('has no exception: every row is a folder, and a row naming one file is refused', () => {
    expect([...rules.allowed.keys()].filter((row) => row.includes('.'))).toEqual([]);
    expect(() => readRules('```import-rules\nharness: specs\nexception:  harness/runner/global-setup.ts -> sandbox\n```')).toThrow(
      /not a folder's row/,
    );
  });

  it('catches an import it forbids (the check can fail)', () => {
    const strict: Rules = { allowed: new Map([['harness', new Set<string>()]]) };
    expect(violations(strict).length).toBeGreaterThan(0);
  });

  it('counts a read of specs/ through the module URL as an import of specs', () => {
    const withoutSpecs: Rules = { allowed: new Map([['harness', new Set<string>()]]) };
    expect(violations(withoutSpecs)).toContain(
      'harness/request/rate-limits.ts reads ../../specs/rate-limits.yaml (harness/ may import nothing)',
    );
    expect([...references("const dir = new URL('../../specs/catalog/', import.meta.url);")]).toEqual([
      { path: '../../specs/catalog/', how: 'reads' },
    ]);
  });

  it('holds a sub-folder to its own row, and the rest of its folder to theirs', () => {
    const withoutHarness: Rules = { allowed: new Map([...rules.allowed, ['harness/business', new Set(['specs'])]]) };
    expect(violations(withoutHarness).some((v) => v.startsWith('harness/business/'))).toBe(true);
    const unnamed: Rules = { allowed: new Map([...rules.allowed, ['suites', new Set(['harness', 'generators', 'specs'])]]) };
    expect(violations(unnamed).some((v) => v.startsWith('suites/business/') && v.includes('harness/business'))).toBe(true);
  });
});
