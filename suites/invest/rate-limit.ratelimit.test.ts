/**
 * Public facts: 200 unary requests per minute, beyond which 429. Runs alone, after every other suite,
 * and only with services.invest.burstToken: a token of its own (a separate user's, if the target
 * limits per user), so that its spent minute never reaches the ordinary token or the next run. A pace
 * of half the limit is the whole suite's pace already; waiting a minute to show it again is not worth it.
 * The 429s count only where the answers within the limit are portfolios: a target that answers 429 to
 * everything shows no limit.
 */
import { isServerError } from '../../harness/checks/answer.ts';
import { inconclusive } from '../../harness/errors.ts';
import { describe } from 'vitest';
import { failure } from '../../harness/checks/failure.ts';
import { readablePortfolio } from '../../harness/invest/checks.ts';
import { jsonWhereBody } from '../../harness/checks/json-answer.ts';
import type { CapturedResponse } from '../../harness/http.ts';
import { assertBurstAllowed } from '../../harness/safety.ts';
import { requirementTest } from '../../harness/suite.ts';
import { investConfig, mainAccount } from '../../harness/invest/config.ts';
import { credentialOf } from '../../harness/target.ts';
import { portfolioUrl, sendPortfolio } from '../../harness/invest/client.ts';

/** How many more bursts a burst too slow to prove anything gets, where the limit's window is short. */
const SLOW_BURST_RETRIES = 2;

describe('invest portfolio: rate limit', () => {
  requirementTest('INV-RAT-001', { timeoutMs: 60_000 }, async (t) => {
    const token = credentialOf(t.target, 'invest', 'burstToken');
    assertBurstAllowed(t.target, portfolioUrl(t));
    const accountId = investConfig(t.target).burstAccountId ?? mainAccount(t);
    const limit = t.client.limitOf('invest');
    const size = 2 * limit.requests;
    const windowMs = limit.perSeconds * 1000;
    const burst = async () => {
      const started = performance.now();
      const answeredAt: number[] = [];
      const responses = await Promise.all(
        Array.from({ length: size }, () =>
          sendPortfolio(t, { accountId }, { token, pacing: 'burst' }).then((r) => (answeredAt.push(performance.now() - started), r)),
        ),
      );
      // limit + 1 answers within the window prove that many requests reached the target in it; later than
      // that, the burst may have been spread below the limit by a loaded machine, and no 429 proves nothing.
      const tooSlow =
        !responses.some((r) => r.status === 429 || isServerError(r.status)) &&
        (answeredAt[limit.requests] ?? Number.POSITIVE_INFINITY) > windowMs;
      return { responses, overLimitAt: answeredAt[limit.requests] ?? Number.POSITIVE_INFINITY, tooSlow };
    };
    let attempt = await burst();
    // A burst too slow to prove anything is tried again, a window later, where windows are short (the
    // embedded sandbox's second, on a machine busy with other runs); a minute's window is not waited for.
    for (let again = 0; attempt.tooSlow && again < SLOW_BURST_RETRIES && windowMs <= 5_000; again++) {
      await new Promise((r) => setTimeout(r, windowMs + 200));
      attempt = await burst();
    }
    const { responses, overLimitAt } = attempt;
    const limited = responses.filter((r) => r.status === 429).length;
    if (attempt.tooSlow)
      throw inconclusive(
        'BURST_TOO_SLOW',
        `${limit.requests + 1} answers of the burst took ${Math.round(overLimitAt)} ms, longer than the limit's window of ${windowMs} ms`,
      );
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
