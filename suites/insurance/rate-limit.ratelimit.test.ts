/**
 * Spec 7 and 8: 20 requests per second, beyond which 429. Runs alone (the rate-limits project runs
 * after every other suite, one file at a time), as DESIGN.md's pacing section says: a cool-down, a
 * concurrent burst of at least twice the limit that must draw 429s, a cool-down, then a pace of at
 * most half the limit, without catch-up, that must draw none.
 *
 * Evidence: the burst counts only where some request within the limit was served (201 with its stored
 * records), so a target that answers 429 to everything does not pass it; the pace counts only next to
 * a burst that drew 429s in this run (a server with no limit at all draws no 429 at any pace), and only
 * when every paced request was served. Served is judged as a refusal's control is (`whyNotStored`): the
 * record's types are INS-RSP-001's and its label INS-CTY-001's, and a valid request refused otherwise
 * than with 429 is INS-GEN-001's, so such answers leave these tests inconclusive, never failed. Part 7
 * lists 500 for the method: that the burst draws no 5xx is INS-RAT-003's policy, and that its 429s are
 * JSON is INS-CTY-001's (part 4), each a test of its own on the same burst.
 */
import { describe } from 'vitest';
import { noServerError, isServerError } from '../../harness/checks/answer.ts';
import { whyNotStored } from '../../harness/insurance/checks.ts';
import { failure } from '../../harness/checks/failure.ts';
import { jsonWhereBody } from '../../harness/checks/json-answer.ts';
import { burstTooSlow, sendBurst, type Burst } from '../../harness/request/burst.ts';
import { inconclusive } from '../../harness/errors.ts';
import type { CapturedResponse } from '../../harness/request/http.ts';
import { assertBurstAllowed } from '../../harness/request/safety.ts';
import type { RequirementContext } from '../../harness/test/suite.ts';
import { requirementTest } from '../../harness/test/suite.ts';
import { perScope } from '../../harness/runner/run-scope.ts';
import { sampleRequest } from '../../harness/insurance/requests.ts';
import { quietBeforeBurst, sendSurrender, surrenderUrl } from '../../harness/insurance/client.ts';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface InsuranceBurst extends Burst<CapturedResponse> {
  size: number;
  limited: number;
}

const burstOfThisRun = perScope<{ burst?: Promise<InsuranceBurst> }>(() => ({}));

/**
 * One burst per run of this file, with a cool-down before (and, where a loaded machine spread it below
 * the limit, sent again a window later: harness/request/burst.ts): INS-RAT-002, INS-RAT-003 and INS-CTY-001
 * read the same one.
 */
function burst(t: RequirementContext): Promise<InsuranceBurst> {
  const mine = burstOfThisRun();
  mine.burst ??= (async () => {
    const limit = t.client.limitOf('insurance');
    assertBurstAllowed(t.target, surrenderUrl(t));
    const windowMs = limit.perSeconds * 1000;
    // The other suites' paced requests of this budget must have left the window (the pacer knows when the last did).
    await quietBeforeBurst(t, windowMs + 200);
    const size = Math.max(40, 2 * limit.requests);
    const sent = await sendBurst({
      size,
      limit: limit.requests,
      windowMs,
      send: () => sendSurrender(t, sampleRequest(), { pacing: 'burst' }),
      shows: (r) => r.status === 429 || isServerError(r.status),
      signal: t.signal,
    });
    // No cool-down here: whatever sends to the service after the burst waits its window first (INS-RAT-002 does).
    return { ...sent, size, limited: sent.responses.filter((r) => r.status === 429).length };
  })();
  return mine.burst;
}

/** The run's burst, where it came fast enough to show the limit; else the test is inconclusive, BURST_TOO_SLOW. */
async function burstBeyondLimit(t: RequirementContext): Promise<InsuranceBurst> {
  const limit = t.client.limitOf('insurance');
  const sent = await burst(t);
  if (sent.tooSlow) throw burstTooSlow(limit.requests, sent, limit.perSeconds * 1000);
  return sent;
}

describe('insurance surrender: rate limit of part 8', () => {
  requirementTest('INS-RAT-001', { timeoutMs: 30_000 }, async (t) => {
    const limit = t.client.limitOf('insurance');
    const { size, responses, limited } = await burstBeyondLimit(t);
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
        ...(limited < size ? [] : [failure(t.id, 'the requests within the limit served (201), the rest 429', `all ${size} answered 429`)]),
      ],
      responses.find((r) => r.status !== 429) ?? responses[0],
    );
    if (!responses.some((r) => whyUnserved(r) === undefined)) {
      throw inconclusive(
        'PRECONDITION_MISSING',
        `no request of the burst was served (statuses ${counts}; ${whyUnserved(responses.find((r) => r.status !== 429)!)}), so the 429s may not be the limit's`,
      );
    }
  });

  requirementTest('INS-RAT-003', { timeoutMs: 30_000 }, async (t) => {
    const { responses } = await burstBeyondLimit(t);
    const errors = responses.filter((r) => isServerError(r.status));
    t.expectNone(errors.length ? [failure(t.id, 'no 5xx during a burst beyond the limit', `statuses ${tally(responses)}`)] : [], errors[0]);
    if (!responses.some((r) => r.status === 429))
      throw inconclusive('PRECONDITION_MISSING', `the burst drew no 429 (statuses ${tally(responses)}), so no limit was exceeded to judge`);
  });

  requirementTest(
    'INS-CTY-001',
    { row: 'every 429 of a burst beyond the limit that carries a body is JSON', timeoutMs: 30_000 },
    async (t) => {
      const { responses } = await burstBeyondLimit(t);
      const limited = responses.filter((r) => r.status === 429);
      for (const res of limited) t.expectNone(jsonWhereBody(res, t.id), res, `a 429 of the burst (statuses ${tally(responses)})`);
      if (!limited.length)
        throw inconclusive('PRECONDITION_MISSING', `the burst drew no 429 (statuses ${tally(responses)}), so there is none to judge`);
    },
  );

  requirementTest('INS-RAT-002', { timeoutMs: 40_000 }, async (t) => {
    const evidence = await burstBeyondLimit(t);
    const limit = t.client.limitOf('insurance');
    if (evidence.limited === 0) {
      throw inconclusive(
        'PRECONDITION_MISSING',
        `a burst of ${evidence.size} concurrent requests drew no 429 in this run (statuses ${tally(evidence.responses)}), so there is no sign of a limit: a pace that draws no 429 proves nothing`,
      );
    }
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
    const rate = `${(1000 / interval).toFixed(1)} requests per second (half the limit)`;
    const limited = responses.filter((r) => r.status === 429);
    t.expectNone(
      limited.length
        ? [failure(t.id, `no 429 at ${rate}`, `${limited.length} of ${count} answered 429; statuses ${tally(responses)}`)]
        : [],
      limited[0],
    );
    for (const res of responses) t.expectNone(noServerError(res, t.id), res, `a request at ${rate}; statuses ${tally(responses)}`);
    const unserved = responses.find((r) => whyUnserved(r) !== undefined);
    if (unserved)
      throw inconclusive(
        'PRECONDITION_MISSING',
        `a request at ${rate} was not served (${whyUnserved(unserved)}; statuses ${tally(responses)}), so the pace shows no limit that lets requests through`,
      );
  });
});

/** Why an answer is no served request (201 with its stored records), or undefined when it is one. */
const whyUnserved = (res: CapturedResponse): string | undefined =>
  res.status === 201 ? whyNotStored(res) : `status ${res.status}, not 201 (a valid request refused is INS-GEN-001's)`;

function tally(responses: CapturedResponse[]): string {
  const counts = new Map<number, number>();
  for (const r of responses) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  return [...counts].map(([s, n]) => `${s}×${n}`).join(', ');
}
