/** The README's table of codes is the one of harness/errors.ts: every code once, with the same meaning and kind. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INCONCLUSIVE_CODES_TABLE, SKIP_CODES_TABLE, TOOL_ERROR_CODES } from '../../harness/errors.ts';
import { ROOT } from '../helpers.ts';

describe('codes', () => {
  it('README lists exactly the codes of harness/errors.ts with their kind and meaning', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = readme.slice(readme.indexOf('<!-- codes:start -->'), readme.indexOf('<!-- codes:end -->'));
    const rows = [...block.matchAll(/^\| `([A-Z_]+)` \| ([a-z ]+) \| (.+) \|$/gm)].map((m) => [m[1], m[2], m[3]]);
    const expected = [
      ...Object.entries(TOOL_ERROR_CODES).map(([c, m]) => [c, 'tool error', m]),
      ...Object.entries(SKIP_CODES_TABLE).map(([c, m]) => [c, 'skipped', m]),
      ...Object.entries(INCONCLUSIVE_CODES_TABLE).map(([c, m]) => [c, 'inconclusive', m]),
    ];
    expect(rows).toEqual(expected);
  });

  it('no code is both a skip and a tool error', () => {
    const tool = Object.keys(TOOL_ERROR_CODES);
    for (const code of [...Object.keys(SKIP_CODES_TABLE), ...Object.keys(INCONCLUSIVE_CODES_TABLE)]) expect(tool).not.toContain(code);
  });
});
