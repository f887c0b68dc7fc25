/**
 * Model-based testing of the declaration workflow with fast-check `commands`: random sequences of
 * workflow calls run against the real target over HTTP and against a model (the target states of
 * 3.1 plus the configured source states). After every call the request is read back with GET and
 * compared with the model. On a mismatch fast-check shrinks towards the shortest failing sequence,
 * each attempt on a fresh request, and the failure prints that sequence as a numbered list of calls.
 */
import fc from 'fast-check';
import type { CapturedResponse } from '../../request/http.ts';
import { isSuccess } from '../../checks/answer.ts';
import { ToolError } from '../../errors.ts';
import type { Ndfl3Api, StateRead } from './api.ts';
import { isWorkflowRefusal, REFUSAL } from './checks.ts';
import type { Machine } from './machine.ts';
import { anyState, type Handle, type RequestSource } from './requests.ts';
import type { State, WorkflowOperation } from './workflow.ts';

export interface ModelState {
  state: State;
  version?: string;
}

export interface RealSystem {
  api: Ndfl3Api;
  handle: Handle;
  /** The calls of this sequence so far, numbered, with what was expected and what came back. */
  steps: string[];
}

/**
 * How a command picks its call, from the model's current state: one the table allows, one it refuses,
 * or the one whose target is the current state (a repeat). The index chooses among equally good
 * candidates. Each kind exercises one rule of the model.
 */
type Pick = { kind: 'allowed' | 'refused' | 'repeat'; index: number };

export class SequenceMismatch extends Error {
  /**
   * @param defect the disagreeing call and what the model expected of it, without what came back: the
   *   same for every sequence that meets the same wrong transition, however it got there.
   */
  constructor(
    readonly steps: string[],
    readonly defect: string,
  ) {
    super(`the workflow disagrees with the model:\n${steps.map((s) => `    ${s}`).join('\n')}`);
  }
}

const short = (op: WorkflowOperation) => `POST .../workflow/${op.name}`;

function got(res: CapturedResponse, after: StateRead, versionBefore?: string): string {
  const code =
    res.json && typeof res.json === 'object' && 'errorCode' in res.json ? ` ${String((res.json as { errorCode: unknown }).errorCode)}` : '';
  const version = versionBefore !== undefined && after.version !== undefined && after.version !== versionBefore ? ', new version' : '';
  return `HTTP ${res.status}${code}, state ${after.state}${version}`;
}

/**
 * How often each (state, call) pair has run in this test. Picks prefer the pairs run least, and most
 * "allowed" picks prefer calls that do not end in a terminal state, so that a handful of sequences goes
 * deep into the machine instead of repeating its first steps. Frozen at the first disagreement, so
 * that shrinking replays pick the same way.
 */
class Coverage {
  private readonly counts = new Map<string, number>();
  frozen = false;
  count(state: State, op: WorkflowOperation): number {
    return this.counts.get(`${state} ${op.name}`) ?? 0;
  }
  record(state: State, op: WorkflowOperation): void {
    if (!this.frozen) this.counts.set(`${state} ${op.name}`, this.count(state, op) + 1);
  }
}

class WorkflowCommand implements fc.AsyncCommand<ModelState, RealSystem> {
  private resolved?: WorkflowOperation;

  constructor(
    private readonly pick: Pick,
    private readonly machine: Machine,
    private readonly ops: readonly WorkflowOperation[],
    private readonly coverage: Coverage,
  ) {}

  check(): boolean {
    return true;
  }

  private resolve(state: State): WorkflowOperation {
    if (this.pick.kind === 'repeat') {
      const repeat = this.ops.filter((op) => op.target === state);
      return (repeat.length ? repeat : this.ops)[this.pick.index % (repeat.length || this.ops.length)];
    }
    let candidates = this.pick.kind === 'allowed' ? this.machine.allowedFrom(state, this.ops) : this.machine.refusedFrom(state, this.ops);
    if (!candidates.length) candidates = [...this.ops];
    if (this.pick.kind === 'allowed' && this.pick.index % 4 !== 0) {
      // Three allowed picks in four keep the request alive: a terminal state ends what a sequence can explore.
      const alive = candidates.filter((op) => !this.machine.isTerminal(op.target));
      if (alive.length) candidates = alive;
    }
    const least = Math.min(...candidates.map((op) => this.coverage.count(state, op)));
    candidates = candidates.filter((op) => this.coverage.count(state, op) === least);
    return candidates[this.pick.index % candidates.length];
  }

  async run(model: ModelState, real: RealSystem): Promise<void> {
    const op = (this.resolved = this.resolve(model.state));
    const from = model.state;
    const res = await real.api.transition(real.handle.id, op, model.version ?? null);
    // A read without a state of 3.1 throws NDF-REQ-001's failure, which this requirement takes as given.
    const after = await real.api.read(
      real.handle.id,
      `reading request ${real.handle.id} back after call ${real.steps.length + 1}, ${op.name} from ${from}`,
    );
    const expectation = this.machine.expectation(from, op);
    let expected: string;
    let agrees: boolean;
    const unchanged = after.state === from && (model.version === undefined || after.version === model.version);
    if (expectation === 'allowed') {
      expected = `accepted, state ${op.target}`;
      agrees = isSuccess(res.status) && after.state === op.target;
    } else if (expectation === 'refused') {
      expected = `${REFUSAL}, state stays ${from}`;
      agrees = isWorkflowRefusal(res.status) && unchanged;
    } else {
      // A repeat in the target state: 3.1 says nothing of it, so it may be answered or refused; only a
      // move would disagree with the table (the vendor's 200 that changes nothing is NDF-WF-002's).
      expected = `a repeat: state stays ${from}`;
      agrees = (isSuccess(res.status) || isWorkflowRefusal(res.status)) && after.state === from;
    }
    real.steps.push(`${real.steps.length + 1}. ${short(op)} from ${from} → expected ${expected}, got ${got(res, after, model.version)}`);
    if (!agrees) {
      this.coverage.frozen = true;
      throw new SequenceMismatch(real.steps, `${op.name} from ${from} disagrees with the model: expected ${expected}`);
    }
    this.coverage.record(from, op);
    model.state = after.state;
    model.version = after.version;
    real.handle.state = after.state;
    real.handle.version = after.version;
  }

  toString(): string {
    return this.resolved?.name ?? `${this.pick.kind}#${this.pick.index}`;
  }
}

export interface ModelRunFigures {
  sequences: number;
  calls: number;
  ms: number;
  numShrinks: number;
}

export interface ModelRunOutcome {
  figures: ModelRunFigures;
  /** The shrunk failing sequence, numbered; absent when every sequence agreed with the model. */
  failure?: { steps: string[]; defect: string; seed: number; path?: string; runs: number };
  /** A failure that is not a disagreement with the model (a timeout, an unreachable target). */
  error?: unknown;
}

export interface ModelRunOptions {
  source: RequestSource;
  machine: Machine;
  seed: number;
  sequences: number;
  maxCommands: number;
  shrink: boolean;
  /**
   * Stop exploring (and shrinking) once `usedMs` (the test's budget clock, which does not count the waits
   * for pacing slots: at a staging's documented limits they are most of a sequence's time) reaches
   * this; what was found so far is reported. Without `usedMs`, the time since the start.
   */
  timeLimitMs: number;
  usedMs?: () => number;
}

export async function runModel(options: ModelRunOptions): Promise<ModelRunOutcome> {
  const { source, machine } = options;
  const ops = source.usable();
  const coverage = new Coverage();
  const command = (pick: Pick) => new WorkflowCommand(pick, machine, ops, coverage);
  const allowed = fc.nat().map((index) => command({ kind: 'allowed', index }));
  const refused = fc.nat().map((index) => command({ kind: 'refused', index }));
  const repeat = fc.nat().map((index) => command({ kind: 'repeat', index }));
  // Three picks in five follow the table (depth), one is a call the table refuses, one a repeat.
  // Unbiased: with a handful of runs, fast-check's bias towards small sizes would make most sequences one or two calls long.
  const commands = fc.noBias(fc.commands([allowed, allowed, allowed, refused, repeat], { maxCommands: options.maxCommands, size: 'max' }));
  const figures: ModelRunFigures = { sequences: 0, calls: 0, ms: 0, numShrinks: 0 };
  let current: Handle | undefined;
  const setup = async () => {
    if (current) source.release(current);
    current = await source.acquire(anyState, { fresh: true });
    figures.sequences++;
    const real: RealSystem = { api: source.api, handle: current, steps: [] };
    return { model: { state: current.state, version: current.version } as ModelState, real };
  };
  const started = Date.now();
  const usedMs = options.usedMs ?? (() => Date.now() - started);
  let finished = 0;
  let outOfTime = false;
  // What stopped a sequence other than a disagreement (a read with no state of 3.1, a tool error): the
  // runs after it, shrinking's included, end with it at once, for sending the calls again would only meet it again.
  let halted: unknown;
  const property = fc.asyncProperty(commands, async (cmds) => {
    // An empty sequence can fail nothing: no request is spent on it. Past the time limit nothing more is
    // sent: the runs left pass as they are, and shrinking keeps the smallest failing sequence found.
    if (cmds[Symbol.iterator]().next().done) return;
    if (halted !== undefined) throw halted;
    if (usedMs() >= options.timeLimitMs) {
      outOfTime = true;
      return;
    }
    let real: RealSystem | undefined;
    try {
      await fc.asyncModelRun(async () => {
        const made = await setup();
        real = made.real;
        return made;
      }, cmds);
      finished++;
    } catch (error) {
      if (!(error instanceof SequenceMismatch)) halted = error;
      throw error;
    } finally {
      figures.calls += real?.steps.length ?? 0;
    }
  });
  const result = await fc.check(property, { seed: options.seed, numRuns: options.sequences, endOnFailure: !options.shrink });
  if (current) source.release(current);
  figures.ms = Date.now() - started;
  figures.numShrinks = result.numShrinks;
  // A run whose time ran out before any sequence finished reached no verdict: a tool error, never a pass or a failure.
  if (!result.failed && finished === 0 && outOfTime)
    return {
      figures,
      error: new ToolError(
        'TARGET_TIMEOUT',
        `the model run's time limit of ${options.timeLimitMs} ms (not counting waits for pacing slots) ran out before any command sequence finished`,
      ),
    };
  if (!result.failed) return { figures };
  const error = result.errorInstance;
  if (error instanceof SequenceMismatch)
    return {
      figures,
      failure: {
        steps: error.steps,
        defect: error.defect,
        seed: result.seed,
        path: result.counterexamplePath ?? undefined,
        runs: result.numRuns,
      },
    };
  return {
    figures,
    error: error ?? new ToolError('SUITE_ERROR', 'the model run failed without an error'),
  };
}
