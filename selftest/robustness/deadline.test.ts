/**
 * Bounded time: every request ends by its total deadline (connect, headers and the whole body), and
 * the running test's budget aborts its requests, its pacing waits and its 429 waits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTestScope } from '../../harness/runner/test-scope.ts';
import { clientFor, failureOf, get } from './_client.ts';
import { dripServer, silentServer, tooManyServer, type FaultServer } from './_servers.ts';

/** Room for the event loop on a busy machine; a deadline is judged by "ended near it", not "ended at it". */
const SLACK_MS = 1500;

let drip: FaultServer;
let silent: FaultServer;
beforeAll(async () => {
  [drip, silent] = await Promise.all([dripServer(1000), silentServer()]);
});
afterAll(() => Promise.all([drip.close(), silent.close()]));

describe('the request deadline', () => {
  it('ends a body that drips 1 byte a second at the deadline, with TARGET_TIMEOUT naming operation, origin and deadline', async () => {
    const { error, ms } = await failureOf(clientFor(drip.base, { timeoutMs: 2500 }).send(get(drip.base, '/drip')));
    expect(error.code).toBe('TARGET_TIMEOUT');
    expect(error.message).toContain('GET /drip');
    expect(error.message).toContain(drip.base);
    expect(error.message).toContain('deadline of 2500 ms');
    expect(error.message).toMatch(/status 200 came, then \d+ byte\(s\) of the body/);
    expect(ms).toBeGreaterThanOrEqual(2400);
    expect(ms).toBeLessThan(2500 + SLACK_MS);
  });

  it('ends a request the target never answers at the deadline', async () => {
    const { error, ms } = await failureOf(clientFor(silent.base, { timeoutMs: 800 }).send(get(silent.base, '/silent')));
    expect(error.code).toBe('TARGET_TIMEOUT');
    expect(error.message).toContain('no answer had begun');
    expect(ms).toBeLessThan(800 + SLACK_MS);
  });

  it('a request may carry a deadline of its own', async () => {
    const { error, ms } = await failureOf(
      clientFor(silent.base, { timeoutMs: 60_000 }).send(get(silent.base, '/silent', { timeoutMs: 300 })),
    );
    expect(error.code).toBe('TARGET_TIMEOUT');
    expect(ms).toBeLessThan(300 + SLACK_MS);
  });
});

describe("the test's budget", () => {
  it('aborts a request in flight with TARGET_TIMEOUT, long before its deadline', async () => {
    const budget = new AbortController();
    setTimeout(() => budget.abort(), 300);
    const send = withTestScope({ signal: budget.signal, requirement: 'T-1' }, () =>
      clientFor(silent.base, { timeoutMs: 60_000 }).send(get(silent.base)),
    );
    const { error, ms } = await failureOf(send);
    expect(error.code).toBe('TARGET_TIMEOUT');
    expect(error.message).toContain("the test's time budget ran out");
    expect(ms).toBeLessThan(300 + SLACK_MS);
  });

  it('aborts the wait for a pacing slot', async () => {
    const client = clientFor(silent.base, {}, { limit: { requests: 1, perSeconds: 60 } });
    const budget = new AbortController();
    // The first request takes the slot (and is cut by its own short deadline); the second would wait two minutes.
    await failureOf(client.send(get(silent.base, '/first', { timeoutMs: 200 })));
    setTimeout(() => budget.abort(), 300);
    const before = silent.arrivals.length;
    const { error, ms } = await failureOf(
      withTestScope({ signal: budget.signal, requirement: 'T-2' }, () => client.send(get(silent.base, '/second'))),
    );
    expect(error.code).toBe('TARGET_TIMEOUT');
    expect(error.message).toContain('while waiting for a pacing slot');
    expect(ms).toBeLessThan(300 + SLACK_MS);
    expect(silent.arrivals.length).toBe(before);
  });

  it("aborts the wait for a 429's Retry-After", async () => {
    const limited = await tooManyServer({ 'retry-after': '5' });
    try {
      const budget = new AbortController();
      setTimeout(() => budget.abort(), 300);
      const { error, ms } = await failureOf(
        withTestScope({ signal: budget.signal, requirement: 'T-3' }, () => clientFor(limited.base).send(get(limited.base))),
      );
      expect(error.code).toBe('TARGET_TIMEOUT');
      expect(error.message).toContain('Retry-After: 5');
      expect(ms).toBeLessThan(300 + SLACK_MS);
      expect(limited.arrivals.length).toBe(1);
    } finally {
      await limited.close();
    }
  });
});
