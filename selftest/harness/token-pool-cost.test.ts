/**
 * A target file's token pool is registered whole with the redactor, and every text a run prints or
 * writes is redacted: a pool of 3,000 tokens once made a 13-test file take twelve times as long (a
 * search per secret in every text, and a joint regex of every secret too short to screen). Costs are
 * compared as ratios measured in one process (CPU time, the least of a few rounds taken in turn): what
 * redacting a run's texts costs with a pool of 10,000 against 1,000 (the same) and against one token,
 * and what loading the target file costs with 10,000 tokens against 1,000 (it grows with the pool,
 * never with its square). The
 * pool's tokens are still masked wherever they appear.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadTarget, type Target } from '../../harness/target.ts';
import { tempDir } from '../helpers.ts';

/** Shaped as the pool: `tok-000000` … (ten characters, which the screen once left to the joint regex). */
const token = (i: number) => `tok-${String(i).padStart(6, '0')}`;

function targetFile(pool: number): string {
  const file = join(tempDir('pc-pool-'), 'target.yaml');
  const insurance = {
    url: 'http://127.0.0.1:9/insurance',
    rateLimit: { requests: 20, perSeconds: 1, per: 'token' },
    token: 'insurance-partner-token',
    ...(pool ? { tokenPool: Array.from({ length: pool }, (_, i) => token(i)) } : {}),
  };
  writeFileSync(file, stringify({ name: `pool-${pool}`, kind: 'sandbox', services: { insurance } }));
  return file;
}

/**
 * What a run redacts per exchange: its curl line, the request and answer bodies, the evidence entry, a
 * failure's snippet; each request with the token `bearerOf` gives it (each masked alike).
 */
function runTexts(count: number, bearerOf: (i: number) => string): string[] {
  return Array.from({ length: count }, (_, i) => {
    const bearer = bearerOf(i);
    const body = JSON.stringify({ contractId: `PC-${i}`, productType: 'investment', items: [{ period: '2026-01', value: '10.00' }] });
    return [
      `curl -sS -i -X POST 'http://127.0.0.1:9/insurance/contracts/surrender/create/' -H 'authorization: Bearer ${bearer}' -H 'content-type: application/json' --data-raw '${body}'`,
      body,
      JSON.stringify({ id: i, createdAt: '2026-11-21T16:40:02.113Z', contractId: `PC-${i}`, status: 'created' }),
      JSON.stringify({ request: { headers: [{ name: 'authorization', value: `Bearer ${bearer}` }], postData: { text: body } } }),
      `INS-LIM-002 §8 contractId of 129 characters is rejected with 400 or 422\n  Response: HTTP 201, body: {"createdAt":"2026-11-21T16:40:02.113Z",…}`,
    ][i % 5];
  });
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** The least CPU time of `rounds` runs of each job, taken in turn (a busy machine slows a round, never speeds one up). */
function leastOf(rounds: number, jobs: Array<() => void>): number[] {
  const least = jobs.map(() => Number.POSITIVE_INFINITY);
  for (let round = 0; round < rounds; round++)
    jobs.forEach((job, j) => {
      const from = cpuMs();
      job();
      least[j] = Math.min(least[j], cpuMs() - from);
    });
  return least;
}

describe('a token pool of 10,000', () => {
  const [one, many] = [targetFile(0), targetFile(10_000)];

  it('costs each redaction the same with 10,000 tokens as with 1,000, and about what one token costs; its tokens are masked in every text', () => {
    const targets: Target[] = [loadTarget(one), loadTarget(targetFile(1_000)), loadTarget(many)];
    // A run without a pool sends its one token; with a pool, the pool's tokens in turn.
    const texts = [
      runTexts(10_000, () => 'insurance-partner-token'),
      runTexts(10_000, (i) => token((i * 37) % 1_000)),
      runTexts(10_000, (i) => token((i * 37) % 10_000)),
    ];
    // Made before the clock runs: this compares the work per text, not the one-time indexes.
    for (const [t, target] of targets.entries()) texts[t].forEach((text) => target.redactor.redact(text));
    const [withOne, withThousand, withPool] = leastOf(
      3,
      targets.map((target, t) => () => texts[t].forEach((text) => target.redactor.redact(text))),
    );
    console.log(
      `redacting 10,000 texts: ${withOne.toFixed(0)} ms CPU with one token, ${withThousand.toFixed(0)} ms with a pool of 1,000, ${withPool.toFixed(0)} ms with 10,000`,
    );
    // A search per secret made it a thousand times as much; the scan of a text for every pool token at once costs a little more than one search for one token.
    expect(withPool / withThousand).toBeLessThan(2);
    expect(withPool / withOne).toBeLessThan(3);
    for (const text of texts[2].slice(0, 50)) expect(targets[2].redactor.redact(text)).not.toMatch(/tok-\d{6}|insurance-partner-token/);
  }, 120_000);

  it('costs a load of the target file ten times what a pool of 1,000 costs, not a hundred', () => {
    const thousand = targetFile(1_000);
    const load = (file: string) => () => loadTarget(file).redactor.redact('built');
    load(thousand)();
    const [small, large] = leastOf(3, [load(thousand), load(many)]);
    console.log(`loading a target file: ${small.toFixed(0)} ms CPU with 1,000 tokens, ${large.toFixed(0)} ms with 10,000`);
    expect(large / small).toBeLessThan(20);
  }, 120_000);
});
