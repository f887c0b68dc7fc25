/**
 * What is made once is made once: a parse or an asynchronous result is kept per content in memory and,
 * for the next process, in the temporary folder; and the command line's list of vitest's options, kept
 * that way per vitest version, is the list vitest's own help gives.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { vitestRunOptions } from '../../harness/cli/unknown-options.ts';
import { madeOnce, parsedOnce } from '../../harness/text/parsed-once.ts';
import { ROOT } from '../helpers.ts';

describe('made once per content', () => {
  it('parses a text once per parser, and again for another text or parser', () => {
    const text = `made-once ${randomBytes(8).toString('hex')}`;
    let calls = 0;
    const parse = (t: string) => ({ calls: ++calls, t });
    expect(parsedOnce(text, parse, 'selftest 1')).toEqual({ calls: 1, t: text });
    expect(parsedOnce(text, parse, 'selftest 1')).toEqual({ calls: 1, t: text });
    expect(parsedOnce(text, parse, 'selftest 2')).toEqual({ calls: 2, t: text });
    expect(parsedOnce(`${text}!`, parse, 'selftest 1')).toEqual({ calls: 3, t: `${text}!` });
  });

  it('keeps an asynchronous result for the next process, which does not make it again', async () => {
    const text = `made-once ${randomBytes(8).toString('hex')}`;
    let calls = 0;
    const make = async () => ({ calls: ++calls, list: ['--a', '-b'] });
    expect(await madeOnce(text, make, 'selftest')).toEqual({ calls: 1, list: ['--a', '-b'] });
    expect(await madeOnce(text, make, 'selftest')).toEqual({ calls: 1, list: ['--a', '-b'] });
    // Another process finds it on disk: its maker would throw if it were called.
    const script = `import { madeOnce } from './harness/text/parsed-once.ts';
      const value = await madeOnce(${JSON.stringify(text)}, async () => { throw new Error('made again'); }, 'selftest');
      console.log(JSON.stringify(value));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual({ calls: 1, list: ['--a', '-b'] });
  });

  it("the options of vitest run that the command line passes through are those vitest's help lists", async () => {
    const options = await vitestRunOptions();
    expect(options).toEqual(expect.arrayContaining(['-t', '--testNamePattern', '--bail', '--reporter', '--version', '-v']));
    // vitest's own command line prints its help: every option of the list is in it.
    const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    const help = spawnSync(process.execPath, [vitest, 'run', '--help'], { cwd: ROOT, encoding: 'utf8' }).stdout;
    expect(help).toContain('--testNamePattern');
    for (const option of options.filter((o) => o !== '--version' && o !== '-v')) expect(help).toContain(option);
  });
});
