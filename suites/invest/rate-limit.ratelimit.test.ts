/**
 * Public facts: 200 unary requests per minute, beyond which 429. Runs alone, after every other suite,
 * and only with services.invest.burstToken: a token of its own (a separate user's, if the target
 * limits per user), so that its spent minute never reaches the ordinary token or the next run. A pace
 * of half the limit is the whole suite's pace already; waiting a minute to show it again is not worth it.
 */
import { describe } from 'vitest';
import { failure } from '../../harness/checks/failure.ts';
import type { CapturedResponse } from '../../harness/http.ts';
import { assertBurstAllowed } from '../../harness/safety.ts';
import { requirementTest } from '../../harness/suite.ts';
import { investConfig } from '../../harness/config/invest.ts';
import { credentialOf } from '../../harness/target.ts';
import { portfolioUrl, sendPortfolio } from './_portfolio.ts';

describe('invest portfolio: rate limit', () => {
  requirementTest('INV-RAT-001', { timeoutMs: 60_000 }, async (t) => {
    const token = credentialOf(t.target, 'invest', 'burstToken');
    assertBurstAllowed(t.target, portfolioUrl(t));
    const accountId = investConfig(t.target).burstAccountId ?? credentialOf(t.target, 'invest', 'accountId');
    const limit = t.client.limitOf('invest');
    const size = 2 * limit.requests;
    const responses = await Promise.all(Array.from({ length: size }, () => sendPortfolio(t, { accountId }, { token, pacing: 'burst' })));
    const limited = responses.filter((r) => r.status === 429).length;
    const errors = responses.filter((r) => r.status >= 500);
    t.expectNone(
      [
        ...(limited > 0 ? [] : [failure(t.id, `some 429 among ${size} concurrent requests (limit ${limit.requests} per ${limit.perSeconds} s)`, `no 429; statuses ${tally(responses)}`)]),
        ...(errors.length ? [failure(t.id, 'no 5xx during the burst', `statuses ${tally(responses)}`)] : []),
      ],
      errors[0] ?? responses.find((r) => r.status !== 429),
    );
  });
});

function tally(responses: CapturedResponse[]): string {
  const counts = new Map<number, number>();
  for (const r of responses) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  return [...counts].map(([s, n]) => `${s}×${n}`).join(', ');
}
