/**
 * A target file's token pool is registered whole with the redactor, and every text a run prints or
 * writes is redacted: a pool of 3,000 tokens once made a 13-test file take twelve times as long (a
 * search per secret in every text, and a joint regex of every secret too short to screen). Costs are
 * compared as ratios measured in one process of their own (token-pool-cost.ts): redacting a run's texts
 * costs the same with a pool of 10,000 as with 1,000 (with one token it is printed beside them), and
 * loading the target file costs four times as much with 10,000 tokens as with 2,500 (it grows with the
 * pool, never with its square, sixteen times). The pool's tokens are still masked wherever they appear.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';

interface Costs {
  /** CPU ms per round of texts: one token, 1,000, 10,000. */
  redact: [number, number, number];
  /** CPU ms per load: 2,500 tokens, 10,000. */
  load: [number, number];
  leaked: number;
  texts: number;
}

describe('a token pool of 10,000', () => {
  let costs: Costs;
  const measured = () => {
    if (costs) return costs;
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'selftest', 'harness', 'token-pool-cost.ts')], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 240_000,
    });
    if (run.status !== 0) throw new Error(`the measurement failed (${run.status ?? run.signal}): ${run.stderr.slice(-2000)}`);
    costs = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Costs;
    const [one, thousand, pool] = costs.redact.map((ms) => ms.toFixed(0));
    console.log(
      `redacting ${costs.texts} texts: ${one} ms CPU with one token, ${thousand} ms with a pool of 1,000, ${pool} ms with 10,000`,
    );
    console.log(`loading a target file: ${costs.load[0].toFixed(0)} ms CPU with 2,500 tokens, ${costs.load[1].toFixed(0)} ms with 10,000`);
    return costs;
  };

  it('costs each redaction the same as a pool of 1,000, and its tokens are masked in every text', () => {
    const { redact, leaked } = measured();
    // A search per secret in each text made it ten times as much (and a joint regex of them a thousand times).
    expect(redact[2] / redact[1]).toBeLessThan(2.5);
    expect(leaked).toBe(0);
  }, 250_000);

  it('costs a load of the target file four times what a quarter of the pool costs, not sixteen times', () => {
    const { load } = measured();
    expect(load[1] / load[0]).toBeLessThan(8);
  }, 250_000);
});
