/**
 * Public facts: 200 unary requests per minute, beyond which 429. Runs alone, after every other suite,
 * and only with services.invest.burstToken: a token of its own (a separate user's, if the target
 * limits per user), so that its spent minute never reaches the ordinary token or the next run. A pace
 * of half the limit is the whole suite's pace already; waiting a minute to show it again is not worth it.
 * The 429s count only where the answers within the limit are portfolios: a target that answers 429 to
 * everything shows no limit.
 */
import { isServerError } from '../../harness/checks/answer.ts';
import { burstTooSlow, sendBurst } from '../../harness/request/burst.ts';
import { describe } from 'vitest';
import { failure } from '../../harness/checks/failure.ts';
import { readablePortfolio } from '../../harness/invest/checks.ts';
import { jsonWhereBody } from '../../harness/checks/json-answer.ts';
import type { CapturedResponse } from '../../harness/request/http.ts';
import { assertBurstAllowed } from '../../harness/request/safety.ts';
import { requirementTest } from '../../harness/test/suite.ts';
import { investConfig, mainAccount } from '../../harness/invest/config.ts';
import { credentialOf } from '../../harness/config/target.ts';
import { portfolioUrl, sendPortfolio } from '../../harness/invest/client.ts';

describe('invest portfolio: rate limit', () => {
  requirementTest('INV-RAT-001', { timeoutMs: 60_000 }, async (t) => {
    const token = credentialOf(t.target, 'invest', 'burstToken');
    assertBurstAllowed(t.target, portfolioUrl(t));
    const accountId = investConfig(t.target).burstAccountId ?? mainAccount(t);
    const limit = t.client.limitOf('invest');
    const size = 2 * limit.requests;
    const windowMs = limit.perSeconds * 1000;
    const burst = await sendBurst({
      size,
      limit: limit.requests,
      windowMs,
      send: () => sendPortfolio(t, { accountId }, { token, pacing: 'burst' }),
      shows: (r) => r.status === 429 || isServerError(r.status),
      signal: t.signal,
    });
    if (burst.tooSlow) throw burstTooSlow(limit.requests, burst, windowMs);
    const { responses } = burst;
    const limited = responses.filter((r) => r.status === 429).length;
    const errors = responses.filter((r) => isServerError(r.status));
    const counts = tally(responses);
    t.expectNone(
      [
        ...(limited > 0
          ? []
          : [
              failure(
                t.id,
                `some 429 among ${size} concurrent requests (limit ${limit.requests} per ${limit.perSeconds} s)`,
                `no 429; statuses ${counts}`,
              ),
            ]),
        ...(errors.length ? [failure(t.id, 'no 5xx during the burst', `statuses ${counts}`)] : []),
        ...(limited < size ? [] : [failure(t.id, 'the requests within the limit served (200), the rest 429', `all ${size} answered 429`)]),
      ],
      errors[0] ?? responses.find((r) => r.status !== 429) ?? responses[0],
    );
    // The 429s mean a limit only where the other answers are portfolios; every body is JSON.
    for (const res of responses)
      t.expectNone(
        res.status === 429 ? jsonWhereBody(res, t.id) : readablePortfolio(res, t.id),
        res,
        `an answer of the burst (statuses ${counts})`,
      );
  });
});

function tally(responses: CapturedResponse[]): string {
  const counts = new Map<number, number>();
  for (const r of responses) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  return [...counts].map(([s, n]) => `${s}×${n}`).join(', ');
}
