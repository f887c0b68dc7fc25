/**
 * The model-based run: against an in-memory machine (fast, to check shrinking and the numbered
 * report), and against the real sandbox, clean and with a fault.
 */
import { describe, expect, it } from 'vitest';
import type { CapturedResponse } from '../../../harness/request/http.ts';
import { ToolError } from '../../../harness/errors.ts';
import { Machine } from '../../../harness/business/ndfl3/machine.ts';
import { runModel } from '../../../harness/business/ndfl3/model.ts';
import { RequestSource } from '../../../harness/business/ndfl3/requests.ts';
import { SetupError } from '../../../harness/business/ndfl3/state.ts';
import { failure } from '../../../harness/checks/failure.ts';
import { Redactor } from '../../../harness/secrets/redact.ts';
import { workflow, type WorkflowOperation } from '../../../harness/business/ndfl3/workflow.ts';
import { sourceStateTable } from '../../../sandbox/services/business/ndfl3/machine.ts';
import { apiOf, sandbox, targetOf } from './_sandbox.ts';

const wf = workflow();
const table = sourceStateTable() as Record<string, string[]>;
const machine = new Machine(wf, new Map(Object.entries(table).map(([k, v]) => [k, new Set(v)])));

/** A source whose requests live in memory and follow the table, except where `landing` says otherwise. */
function memorySource(landing: (op: WorkflowOperation) => string = (op) => op.target, readBack: (state: string) => void = () => undefined) {
  const requests = new Map<string, { state: string; version: number }>();
  const answer = (status: number) =>
    ({
      status,
      headers: {},
      rawBody: '',
      json: status === 200 ? {} : { errorCode: 'TRANSITION_NOT_ALLOWED' },
    }) as unknown as CapturedResponse;
  let n = 0;
  const api = {
    async transition(id: string, op: WorkflowOperation) {
      const r = requests.get(id)!;
      if (r.state === op.target) return answer(200);
      if (!table[op.name].includes(r.state)) return answer(422);
      r.state = landing(op);
      r.version++;
      return answer(200);
    },
    async read(id: string) {
      const r = requests.get(id)!;
      readBack(r.state);
      return { response: answer(200), state: r.state, version: String(r.version) };
    },
  };
  return {
    api,
    usable: () => wf.operations,
    release() {},
    async acquire() {
      const id = String(n++);
      requests.set(id, { state: 'Preprocess', version: 1 });
      return { id, state: 'Preprocess', version: '1' };
    },
  } as unknown as RequestSource;
}

const options = { machine, sequences: 5, maxCommands: 8, timeLimitMs: 20_000 };

describe('runModel against an in-memory machine', () => {
  it('passes when the machine follows the table, with figures', async () => {
    const outcome = await runModel({ ...options, source: memorySource(), seed: 1, shrink: true });
    expect(outcome.failure).toBeUndefined();
    expect(outcome.figures.sequences).toBeGreaterThan(0);
    expect(outcome.figures.calls).toBeGreaterThan(outcome.figures.sequences - 1);
  });

  it('shrinks a wrong target state to the three calls that reach it, numbered', async () => {
    const wrong = memorySource((op) => (op.name === 'ready' ? 'Acknowledge' : op.target));
    const outcome = await runModel({ ...options, source: wrong, seed: 2, sequences: 20, shrink: true });
    expect(outcome.failure?.steps).toHaveLength(3);
    const [, , last] = outcome.failure!.steps;
    expect(last).toMatch(
      /^3\. POST \.\.\.\/workflow\/ready from PartnerInProgress → expected accepted, state Ready, got HTTP 200, state Acknowledge/,
    );
    expect(outcome.figures.numShrinks).toBeGreaterThan(0);
  });

  it('without shrinking, reports the first failing sequence as it ran', async () => {
    const wrong = memorySource((op) => (op.name === 'ready' ? 'Acknowledge' : op.target));
    const outcome = await runModel({ ...options, source: wrong, seed: 2, sequences: 20, shrink: false });
    expect(outcome.failure?.steps.at(-1)).toContain('ready from PartnerInProgress');
    expect(outcome.figures.numShrinks).toBe(0);
  });

  it('words the defect by the disagreeing call, the same whichever sequence met it', async () => {
    const wrong = () => memorySource((op) => (op.name === 'ready' ? 'Acknowledge' : op.target));
    const shrunk = await runModel({ ...options, source: wrong(), seed: 2, sequences: 20, shrink: true });
    const asRun = await runModel({ ...options, source: wrong(), seed: 2, sequences: 20, shrink: false });
    expect(asRun.failure!.steps.length).toBeGreaterThan(shrunk.failure!.steps.length);
    expect(shrunk.failure?.defect).toBe('ready from PartnerInProgress disagrees with the model: expected accepted, state Ready');
    expect(asRun.failure?.defect).toBe(shrunk.failure?.defect);
  });
});

describe('runModel when a read gives no state of 3.1', () => {
  it("ends with that error, NDF-REQ-001's, not a disagreement, and sends nothing more for it", async () => {
    let acquired = 0;
    let acquiredWhenRead: number | undefined;
    const unreadable = new SetupError([failure('NDF-REQ-001', 'a state of 3.1 at "status"', '"InReview"', '/status')], {
      title: 'reading request back',
      redactor: new Redactor(),
    });
    const source = memorySource(undefined, (state) => {
      if (state !== 'Ready') return;
      acquiredWhenRead ??= acquired;
      throw unreadable;
    });
    const acquire = source.acquire.bind(source);
    source.acquire = (...args) => ((acquired += 1), acquire(...args));
    const outcome = await runModel({ ...options, source, seed: 2, sequences: 20, shrink: true });
    expect(outcome.failure).toBeUndefined();
    expect(outcome.error).toBe(unreadable);
    expect(acquiredWhenRead).toBeDefined();
    expect(acquired).toBe(acquiredWhenRead);
  });
});

describe("runModel's time limit (the test's budget clock)", () => {
  it('ends as a TARGET_TIMEOUT tool error, never a failure, when it runs out before any sequence finished', async () => {
    const outcome = await runModel({ ...options, source: memorySource(), seed: 1, shrink: true, usedMs: () => options.timeLimitMs });
    expect(outcome.failure).toBeUndefined();
    expect(outcome.error).toBeInstanceOf(ToolError);
    expect((outcome.error as ToolError).code).toBe('TARGET_TIMEOUT');
    expect(outcome.figures.sequences).toBe(0);
  });

  it('stops exploring when it runs out and passes on the sequences that finished', async () => {
    let clock = 0;
    const usedMs = () => (clock += options.timeLimitMs / 2);
    const outcome = await runModel({ ...options, source: memorySource(), seed: 1, sequences: 20, shrink: true, usedMs });
    expect(outcome.error).toBeUndefined();
    expect(outcome.failure).toBeUndefined();
    expect(outcome.figures.sequences).toBe(1);
  });
});

describe('runModel against the sandbox', () => {
  it('agrees with the clean sandbox', async () => {
    const running = await sandbox();
    try {
      const api = apiOf(targetOf(running));
      const outcome = await runModel({ ...options, source: new RequestSource(api, 'model'), seed: 7, sequences: 3, shrink: true });
      expect(outcome.error).toBeUndefined();
      expect(outcome.failure).toBeUndefined();
      expect(outcome.figures.sequences).toBeGreaterThan(0);
    } finally {
      await running.close();
    }
  });

  it('finds a refused call that still moves the state, and ends the list at that call', async () => {
    const running = await sandbox(['ndf-refused-call-moves-state']);
    try {
      const api = apiOf(targetOf(running));
      const outcome = await runModel({ ...options, source: new RequestSource(api, 'model'), seed: 7, sequences: 5, shrink: false });
      expect(outcome.error, String(outcome.error)).toBeUndefined();
      expect(outcome.failure?.steps.at(-1), JSON.stringify(outcome.figures)).toMatch(
        /expected refused .*, got HTTP 422 TRANSITION_NOT_ALLOWED, state (?!.*stays)/,
      );
    } finally {
      await running.close();
    }
  });
});
