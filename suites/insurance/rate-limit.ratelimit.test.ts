/**
 * Spec 7 and 8: 20 requests per second, beyond which 429. Runs alone (the rate-limits project runs
 * after every other suite, one file at a time), as DESIGN.md's pacing section says: a cool-down, a
 * concurrent burst of at least twice the limit that must draw 429s, a cool-down, then a pace of at
 * most half the limit, without catch-up, that must draw none.
 */
import { describe } from 'vitest';
import { failure } from '../../harness/checks/failure.ts';
import { assertBurstAllowed } from '../../harness/safety.ts';
import { requirementTest } from '../../harness/suite.ts';
import type { CapturedResponse } from '../../harness/http.ts';
import { sampleRequest } from '../../generators/insurance.ts';
import { sendSurrender, surrenderUrl } from './_surrender.ts';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('insurance surrender: rate limit of part 8', () => {
  requirementTest('INS-RAT-001', { timeoutMs: 30_000 }, async (t) => {
    const limit = t.client.limitOf('insurance');
    assertBurstAllowed(t.target, surrenderUrl(t));
    const windowMs = limit.perSeconds * 1000;
    await sleep(windowMs + 200);
    const size = Math.max(40, 2 * limit.requests);
    const responses = await Promise.all(Array.from({ length: size }, () => sendSurrender(t, sampleRequest(), { pacing: 'burst' })));
    await sleep(windowMs + 200);
    const limited = responses.filter((r) => r.status === 429).length;
    const errors = responses.filter((r) => r.status >= 500);
    const counts = tally(responses);
    t.expectNone(
      [
        ...(limited > 0 ? [] : [failure(t.id, `some 429 among ${size} concurrent requests (limit ${limit.requests} per ${limit.perSeconds} s)`, `no 429; statuses ${counts}`)]),
        ...(errors.length ? [failure(t.id, 'no 5xx during the burst', `statuses ${counts}`)] : []),
      ],
      errors[0] ?? responses.find((r) => r.status !== 429),
    );
  });

  requirementTest('INS-RAT-002', { timeoutMs: 30_000 }, async (t) => {
    const limit = t.client.limitOf('insurance');
    const windowMs = limit.perSeconds * 1000;
    await sleep(windowMs + 200);
    const interval = windowMs / (limit.requests / 2);
    const count = Math.max(20, limit.requests);
    const responses: CapturedResponse[] = [];
    let previous = -Infinity;
    for (let i = 0; i < count; i++) {
      // Every send is at least one interval after the previous send: a late answer never leads to a
      // quicker send to catch up.
      const wait = previous + interval - performance.now();
      if (wait > 0) await sleep(wait);
      previous = performance.now();
      responses.push(await sendSurrender(t, sampleRequest(), { pacing: 'burst' }));
    }
    const limited = responses.filter((r) => r.status === 429);
    t.expectNone(
      limited.length ? [failure(t.id, `no 429 at ${(1000 / interval).toFixed(1)} requests per second (half the limit)`, `${limited.length} of ${count} answered 429; statuses ${tally(responses)}`)] : [],
      limited[0],
    );
  });
});

function tally(responses: CapturedResponse[]): string {
  const counts = new Map<number, number>();
  for (const r of responses) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  return [...counts].map(([s, n]) => `${s}×${n}`).join(', ');
}
