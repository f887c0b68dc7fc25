/** `npm run selftest` runs every phase and reports each, even after one failed, and fails at the end if any did. */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readJson } from '../certify/_cli.ts';
import { ROOT } from '../helpers.ts';
import { runPhases, SELFTEST_PHASES } from '../phases.ts';

const node = (code: string) => ['-e', code];

describe('the selftest phases', () => {
  it('run one after the other, the second after the first failed, and the run fails at the end', async () => {
    const lines: string[] = [];
    const failed = await runPhases(
      [
        { name: 'first', args: node('process.exit(3)') },
        { name: 'second', args: node('process.exit(0)') },
      ],
      (line) => lines.push(line),
    );
    expect(failed).toBe(1);
    const text = lines.join('\n');
    expect(text).toMatch(/first: FAILED \(exit 3\) in \d+ s/);
    expect(text).toMatch(/second: passed in \d+ s/);
    expect(text).toContain('selftest: 1 of 2 phases failed');
  });

  it('pass when every phase passed', async () => {
    const lines: string[] = [];
    expect(await runPhases([{ name: 'only', args: node('') }], (line) => lines.push(line))).toBe(0);
    expect(lines.join('\n')).toContain('selftest: all 1 phases passed');
  });

  it('are what npm run selftest runs: the unit and end-to-end tests, then the fault and latitude runs', () => {
    expect(readJson<{ scripts: Record<string, string> }>(join(ROOT, 'package.json')).scripts.selftest).toBe('tsx selftest/phases.ts');
    expect(SELFTEST_PHASES.map((p) => p.args.at(-1))).toEqual([
      join(ROOT, 'selftest', 'vitest.config.ts'),
      join(ROOT, 'selftest', 'variant-runs.ts'),
    ]);
  });
});
