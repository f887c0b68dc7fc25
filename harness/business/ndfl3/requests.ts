/**
 * Where the 3-NDFL tests get their tax requests, and how they bring one to the state they need.
 *
 * The spec has no call that creates a tax request. A target file lists a pool of request ids
 * (services.business.ndfl3.requestPool); the sandbox also offers a provisioning call, used only when
 * the target is of kind sandbox. Every test starts from the request's current state as read with GET,
 * and walks to the state it needs along the shortest path of the configured table, using only calls
 * the safety gate lets through; so a reused pool, or a long-lived sandbox, still works.
 *
 * The pool is shared out among the workflow test files, which run in parallel workers: file k of
 * POOL_USERS.length gets the ids at positions k, k + n, k + 2n, ... A request a test is done with goes
 * back to its file's idle list, so the next test of the same file may continue from it.
 */
import { landedIn } from './checks.ts';
import { ToolError } from '../../errors.ts';
import { refusal } from '../../request/safety.ts';
import type { Ndfl3Api } from './api.ts';
import type { Machine } from './machine.ts';
import { SetupError } from './state.ts';
import type { State, WorkflowOperation } from './workflow.ts';
import { workflow } from './workflow.ts';

export const POOL_USERS = ['transitions', 'refusals', 'model', 'data', 'access', 'runtime'] as const;
export type PoolUser = (typeof POOL_USERS)[number];

export interface Handle {
  id: string;
  state: State;
  version?: string;
}

/** The requirement whose subject a walk's step is: each operation accepted and landing in its target state (3.1). */
const WALK_REQUIREMENT = 'NDF-WF-001';

interface Idle {
  id: string;
  hint?: State;
  version?: string;
  /** The state and version were read by the test that last used it, and nothing has run on it since. */
  known?: boolean;
}

export interface Goal {
  /** For messages: "state Ready", "a state ready allows". */
  describe: string;
  accepts(state: State): boolean;
}

export const inState = (...states: State[]): Goal => ({ describe: `state ${states.join(' or ')}`, accepts: (s) => states.includes(s) });
export const anyState: Goal = { describe: 'any state', accepts: () => true };

export class RequestSource {
  private readonly idle: Idle[];
  private initialHint?: State;
  /** Requests this source provisioned (figures for the report). */
  provisioned = 0;

  constructor(
    readonly api: Ndfl3Api,
    readonly user: PoolUser,
  ) {
    const k = POOL_USERS.indexOf(user);
    this.idle = api.config.pool.filter((_id, i) => i % POOL_USERS.length === k).map((id) => ({ id }));
  }

  /** The id of some request, in whatever state, without reading it (for calls that do not depend on the state). */
  async someId(): Promise<string> {
    const idle = this.idle[0];
    if (idle) return idle.id;
    if (this.api.config.provisioningPath) {
      const made = await this.api.provision();
      this.provisioned++;
      this.idle.push({ id: made.id, hint: made.state, version: made.version, known: false });
      return made.id;
    }
    throw this.noRequest(anyState);
  }

  /** Workflow calls the safety gate lets through for this target; none (a production target) skips the test. */
  usable(): WorkflowOperation[] {
    const ops = workflow().operations;
    const usable = ops.filter((op) => refusal(this.api.target, op.sideEffect, op.operation) === undefined);
    if (!usable.length)
      throw new ToolError(
        'SAFETY_REFUSED',
        refusal(this.api.target, ops[0].sideEffect, ops[0].operation) ?? 'the safety gate allows no workflow call on this target',
      );
    return usable;
  }

  get machine(): Machine | undefined {
    return this.api.config.machine;
  }

  private steps(from: State | undefined, goal: Goal): number | undefined {
    if (from === undefined) return undefined;
    if (goal.accepts(from)) return 0;
    return this.machine?.path(from, (s) => goal.accepts(s), this.usable())?.length;
  }

  /** A request in a state `goal` accepts; `fresh` asks for a newly provisioned one where possible. */
  async acquire(goal: Goal, options: { fresh?: boolean } = {}): Promise<Handle> {
    if (options.fresh && this.api.config.provisioningPath) return this.walk(await this.provisionAndRead(), goal);
    for (;;) {
      const ranked = this.idle.map((entry) => ({ entry, steps: this.steps(entry.hint, goal) })).filter((c) => c.steps !== undefined);
      ranked.sort((a, b) => a.steps! - b.steps!);
      const best = ranked[0];
      const provisionSteps = this.api.config.provisioningPath ? 1 + (this.steps(this.initialHint, goal) ?? 1) : Infinity;
      if (best && best.steps! <= provisionSteps) {
        this.idle.splice(this.idle.indexOf(best.entry), 1);
        if (best.entry.known) return this.walk({ id: best.entry.id, state: best.entry.hint!, version: best.entry.version }, goal);
        const snap = await this.api.read(best.entry.id, `bringing a request to ${goal.describe}`);
        if (this.steps(snap.state, goal) !== undefined)
          return this.walk({ id: best.entry.id, state: snap.state, version: snap.version }, goal);
        this.idle.push({ id: best.entry.id, hint: snap.state });
        continue;
      }
      if (provisionSteps !== Infinity) return this.walk(await this.provisionAndRead(), goal);
      const unknown = this.idle.find((entry) => entry.hint === undefined);
      if (unknown) {
        const snap = await this.api.read(unknown.id, 'learning the state of a pool request');
        Object.assign(unknown, { hint: snap.state, version: snap.version, known: snap.version !== undefined });
        continue;
      }
      throw this.noRequest(goal);
    }
  }

  /** Why no request can serve: a skip, marked as the safety gate's when only the gate stands in the way. */
  private noRequest(goal: Goal): ToolError {
    const share = `services.business.ndfl3.requestPool (its share for the ${this.user} tests: every ${POOL_USERS.length}th id)`;
    if (!this.idle.length)
      return new ToolError('CREDENTIAL_MISSING', `no request to use: ${share} is empty and the target offers no provisioning`);
    const states = this.idle.map((e) => e.hint).join(', ');
    const all = workflow().operations;
    const gated = this.machine && this.idle.some((e) => e.hint !== undefined && this.machine!.path(e.hint, (s) => goal.accepts(s), all));
    if (gated)
      return new ToolError(
        'SAFETY_REFUSED',
        `reaching ${goal.describe} from the pool's states (${states}) needs a call the safety gate refuses on target kind ${this.api.target.kind}`,
      );
    if (!this.machine)
      return new ToolError(
        'CREDENTIAL_MISSING',
        `no request of ${share} is in ${goal.describe} (states: ${states}), and without services.business.ndfl3.sourceStates the suite cannot plan a way there`,
      );
    return new ToolError(
      'CREDENTIAL_MISSING',
      `no request of ${share} can reach ${goal.describe} with the configured source states (states: ${states})`,
    );
  }

  private async provisionAndRead(): Promise<Handle> {
    const made = await this.api.provision();
    this.provisioned++;
    const known =
      made.state !== undefined && made.version !== undefined
        ? { state: made.state, version: made.version }
        : await this.api.read(made.id, 'reading a freshly provisioned request');
    this.initialHint = known.state;
    return { id: made.id, state: known.state!, version: known.version };
  }

  /**
   * Walks the request to `goal` along the table's shortest path, reading it back after every call: each
   * step must be accepted and land in its target state. A step that does not is NDF-WF-001's failure,
   * worded as NDF-WF-001's own test words it (the call, not the path that met it), so that one wrong
   * transition is one root cause whichever walk found it.
   */
  async walk(handle: Handle, goal: Goal): Promise<Handle> {
    if (goal.accepts(handle.state)) return handle;
    const path = this.machine?.path(handle.state, (s) => goal.accepts(s), this.usable());
    if (!path) {
      this.release(handle, handle.version !== undefined);
      throw this.noRequest(goal);
    }
    const along = path.map((op) => op.name).join(' → ');
    for (const op of path) {
      const from = handle.state;
      const res = await this.api.transition(handle.id, op, handle.version ?? null);
      const after = await this.api.read(handle.id, `reading request ${handle.id} back after ${op.name} from ${from}`);
      Object.assign(handle, { state: after.state, version: after.version });
      const failures = landedIn(WALK_REQUIREMENT, op, from, res, after);
      if (failures.length) {
        this.release(handle);
        throw new SetupError(failures, {
          title: `bringing request ${handle.id} to ${goal.describe} along ${along}: ${op.name} from ${from} (allowed by the configured table) should be accepted and land in ${op.target}`,
          response: res,
          redactor: this.api.target.redactor,
        });
      }
    }
    return handle;
  }

  /**
   * Gives a request back. `known`: its state and version in the handle are what a GET read last, so
   * the next test may start from them without reading again (the walk or the test's own calls read
   * it soon enough); a test that failed half-way gives it back unknown, to be read first.
   */
  release(handle: Handle, known = false): void {
    const sure = known && handle.version !== undefined;
    const existing = this.idle.find((e) => e.id === handle.id);
    if (existing) Object.assign(existing, { hint: handle.state, version: handle.version, known: sure && existing.known });
    else this.idle.push({ id: handle.id, hint: handle.state, version: handle.version, known: sure });
  }

  /**
   * Runs `body` with a request in a state `goal` accepts, and gives the request back afterwards. The
   * body keeps `handle.state` and `handle.version` to what it read last, or sets the version to
   * undefined when it changed the request without reading it back.
   */
  async with<T>(goal: Goal, body: (handle: Handle) => Promise<T>, options: { fresh?: boolean } = {}): Promise<T> {
    const handle = await this.acquire(goal, options);
    let done = false;
    try {
      const result = await body(handle);
      done = true;
      return result;
    } finally {
      this.release(handle, done);
    }
  }
}
