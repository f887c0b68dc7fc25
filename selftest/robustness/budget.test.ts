/**
 * A test's time budget is for the target's answers and the test's own work: time held at the pacer
 * (its own requests' waits for a slot, or those of shared work it awaits) does not count, so a test
 * whose requests queue behind others at a staging's documented limits does not run out of time, while
 * a target that is slow to answer still ends it as TARGET_TIMEOUT.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gate } from '../../harness/business/runtime/send.ts';
import { PromiseMemo } from '../../harness/test/memo.ts';
import { holdingFor } from '../../harness/request/pace-hold.ts';
import { LocalPacer } from '../../harness/request/pacer.ts';
import { TestBudget } from '../../harness/test/test-budget.ts';
import { withTestScope } from '../../harness/runner/test-scope.ts';
import { clientFor, failureOf, get } from './_client.ts';
import { recordingServer, silentServer, type FaultServer } from './_servers.ts';

let fast: FaultServer;
let silent: FaultServer;
beforeAll(async () => {
  [fast, silent] = await Promise.all([recordingServer(), silentServer()]);
});
afterAll(() => Promise.all([fast.close(), silent.close()]));

/** As requirementTest runs a test body: held for its budget, in its scope, raced against its running out. */
function underBudget<T>(budget: TestBudget, body: () => Promise<T>): Promise<T> {
  const run = holdingFor(budget, () => withTestScope({ signal: budget.signal, requirement: 'T-BUDGET' }, body));
  return Promise.race([run, budget.outOfTime]).finally(() => budget.stop());
}

// One request a second at the default pace share of a limit of 2 a second: each waits about 1.1 s for its slot.
const SLOW_PACE = { requests: 2, perSeconds: 1 };

describe("a test's time budget", () => {
  it('does not count the waits for pacing slots: three requests 1.1 s apart fit in a budget of 0.8 s', async () => {
    const client = clientFor(fast.base, {}, { limit: SLOW_PACE });
    const budget = new TestBudget(800);
    const started = Date.now();
    await underBudget(budget, async () => {
      for (let i = 0; i < 3; i++) await client.send(get(fast.base, `/paced-${i}`));
    });
    const { usedMs, heldMs } = budget.figures();
    expect(Date.now() - started).toBeGreaterThan(2000);
    expect(heldMs).toBeGreaterThan(1500);
    expect(usedMs).toBeLessThan(800);
  });

  it('counts the wait for an answer: a target that never answers ends the test at its budget as TARGET_TIMEOUT', async () => {
    const client = clientFor(silent.base, { timeoutMs: 60_000 });
    const budget = new TestBudget(300);
    const { error } = await failureOf(underBudget(budget, () => client.send(get(silent.base, '/never'))));
    expect(error.code).toBe('TARGET_TIMEOUT');
    expect(error.message).toContain('time budget of 300 ms');
    expect(budget.signal.aborted).toBe(true);
  });

  it('holds every test that awaits shared work while that work waits for its slots, from when each began to wait', async () => {
    const client = clientFor(fast.base, {}, { limit: SLOW_PACE });
    const memo = new PromiseMemo<string, number>('keep');
    const shared = () =>
      memo.get('three paced requests', async () => {
        for (let i = 0; i < 3; i++) await client.send(get(fast.base, `/shared-${i}`));
        return 3;
      });
    const first = new TestBudget(800);
    const second = new TestBudget(800);
    const late = new Promise((resolve) => setTimeout(resolve, 600)).then(() => underBudget(second, shared));
    await Promise.all([underBudget(first, shared), late]);
    expect(first.figures().usedMs).toBeLessThan(800);
    expect(second.figures().usedMs).toBeLessThan(800);
    expect(second.figures().heldMs).toBeGreaterThan(1000);
  });

  it("holds a request queued behind its business group's gate (two in flight per worker): it waits for its group's pace", async () => {
    const client = clientFor(fast.base, {}, { limit: SLOW_PACE });
    const gate = new Gate(2);
    const budget = new TestBudget(800);
    await underBudget(budget, () => Promise.all([0, 1, 2, 3].map((i) => gate.run(() => client.send(get(fast.base, `/gated-${i}`))))));
    const { usedMs, heldMs } = budget.figures();
    expect(heldMs).toBeGreaterThan(2500);
    expect(usedMs).toBeLessThan(800);
  });

  it('pacing waits outside any test hold nobody', async () => {
    const pacer = new LocalPacer();
    const keys = [{ key: 'k', intervalMs: 300 }];
    const budget = new TestBudget(10_000);
    await pacer.wait(keys);
    await pacer.wait(keys);
    expect(budget.figures().heldMs).toBe(0);
    budget.stop();
  });
});
