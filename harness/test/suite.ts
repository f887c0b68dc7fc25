/**
 * What a suite file uses: the run's context (target, HTTP client, seed, runs) and `requirementTest`,
 * which names the test after its requirement and gives it one verdict:
 *
 *   passed        the target did what the requirement asks, on positive evidence
 *   failed        the target broke the requirement (a contract failure, with expected and received)
 *   error         a tool error (TARGET_*, SUITE_ERROR): no verdict could be reached; counted as failed
 *   skipped       the test cannot run here (SAFETY_REFUSED, CREDENTIAL_MISSING, FIXTURE_MISSING, …)
 *   inconclusive  the test ran and the target gave no evidence (NO_CONTROL, PRECONDITION_MISSING, …)
 *   warning       a `source: policy` requirement failed and the target file does not ask for strict policy
 *
 * The verdict, the code, the requirement's source and the test's evidence (the exchanges it made or
 * judged, harness/report/evidence-log.ts) travel to the reporters as the test's meta.
 * Every message is redacted where it is made. A test has a time budget for the target's answers and its
 * own work; time it is held at the pacer does not count (harness/test/test-budget.ts). When the budget runs
 * out, every request of the test is aborted and the test ends as a TARGET_TIMEOUT tool error, never as
 * vitest's own timeout.
 */
import { setMaxListeners } from 'node:events';
import fc from 'fast-check';
import { inject, it, type TestContext } from 'vitest';
import { isSuccess } from '../checks/answer.ts';
import { ConformanceError, type Failure } from '../checks/failure.ts';
import { inconclusive, isInconclusive, isSkip, isToolFailure, ToolError, type ErrorCode } from '../errors.ts';
import type { CapturedResponse } from '../request/http.ts';
import { HttpClient } from '../request/http.ts';
import { documentedRateLimits } from '../request/rate-limits.ts';
import { RemotePacer } from '../request/pacer.ts';
import type { ProbeFailure } from '../request/probe.ts';
import { cite, shipEvidence, type ShippedEvidence } from '../report/evidence-log.ts';
import { rootCauseOf, type RootCause } from '../report/root-cause.ts';
import { dependenciesOf, requirement, titleOf, type RequirementSource } from '../spec/requirements.ts';
import { loadTarget, type Target } from '../config/target.ts';
import type { Area } from '../areas.ts';
import { PromiseMemo } from './memo.ts';
import { DEPTHS } from '../runner/depth.ts';
import { effectiveTarget } from '../runner/effective-target.ts';
import { interruptedBy } from '../runner/interruption.ts';
import { currentScope, inScope, perScope, type RunScope } from '../runner/run-scope.ts';
import { runSettings } from '../runner/settings.ts';
import { TestEvidence, withTestScope } from '../runner/test-scope.ts';
import { MAX_HELD_MS, TestBudget } from './test-budget.ts';
import { holdingFor } from '../request/pace-hold.ts';

export type Verdict = 'passed' | 'failed' | 'error' | 'skipped' | 'inconclusive' | 'warning';

declare module 'vitest' {
  export interface ProvidedContext {
    targetFile: string;
    pacerUrl: string;
    seed: number;
    runs: number;
    shrink: boolean;
    /** Services that failed the reachability probe before the run. */
    unreachable: Partial<Record<Area, ProbeFailure>>;
  }
  export interface TaskMeta {
    requirement?: string;
    source?: RequirementSource;
    verdict?: Verdict;
    /** The tool-error, skip or inconclusive code. */
    code?: ErrorCode;
    /** A policy failure reported as a warning: the whole message. */
    warning?: string;
    /** The defect the test failed on, or took as given (DEPENDENCY_FAILED): tests that share the key show one defect, which `about` names. */
    rootCause?: RootCause;
    /** DEPENDENCY_FAILED: the requirement this test takes as given, which it found broken. */
    dependsOn?: string;
    /** The exchanges the test made or judged, and the records of the worker not handed over before. */
    evidence?: ShippedEvidence;
    /** The test's time budget and what it spent: counted against it, and held at the pacer (ms). */
    budget?: { allowanceMs: number; usedMs: number; heldMs: number };
  }
}

export interface RunContext {
  target: Target;
  client: HttpClient;
  seed: number;
  runs: number;
  shrink: boolean;
}

const contextOfScope = perScope((scope: RunScope): RunContext => {
  const file = loadTarget(scope.targetFile);
  const target = effectiveTarget(file, runSettings(process.env, file));
  const limits = documentedRateLimits();
  // A batch run checks many variants at once: each paces under keys of its own, as each is its own target.
  const client = new HttpClient(target, {
    pacer: new RemotePacer(inject('pacerUrl')),
    limits: limits.services,
    undocumentedLimit: limits.undocumentedDefault,
    paceScope: scope.variant,
  });
  return { target, client, seed: inject('seed'), runs: inject('runs'), shrink: inject('shrink') };
});

/** The run's context for the target the running code works for (runner/run-scope.ts). */
export function runContext(): RunContext {
  return contextOfScope();
}

export interface RequirementContext extends RunContext {
  id: string;
  title: string;
  /** Aborted when the test's time budget runs out. */
  signal: AbortSignal;
  /** The test's time budget: what it allows, and what the test has used of it (time held at the pacer not counted). */
  budget: Pick<TestBudget, 'allowanceMs' | 'usedMs'>;
  /** Fails the test with every failure, the response and its curl reproduction, all redacted. */
  expectNone(failures: Failure[], response?: CapturedResponse, note?: string): void;
  /** A fast-check property over the run's seed and number of runs; a failure prints the seed. */
  property<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, runs?: number): Promise<void>;
  /**
   * The control of a refusal test: the same operation with a valid request, which must succeed in this
   * run for a refusal to count as evidence. Made once per worker and key; when it did not succeed the
   * test ends inconclusive (NO_CONTROL) with what the control got.
   */
  control(key: string, send: () => Promise<CapturedResponse>, succeeded?: (res: CapturedResponse) => boolean): Promise<CapturedResponse>;
}

interface RequirementOptions {
  /** Names the row of a requirement checked over many rows (an enum value, a catalog operation). */
  row?: string;
  /**
   * The test's time budget at the standard depth (default 60 s) for the target's answers and the test's
   * own work; it grows with the run's depth. Time held at the pacer is not counted.
   */
  timeoutMs?: number;
}

/**
 * Time vitest gives a test beyond our own budget and the longest it may be held at the pacer, so that our
 * TARGET_TIMEOUT always comes first.
 */
const VITEST_GRACE_MS = 10_000;
export const DEFAULT_TEST_BUDGET_MS = 60_000;

/** Controls of refusal tests, made once per target and key; one that failed to send is asked again. */
const controls = perScope(() => new PromiseMemo<string, CapturedResponse>('forget'));
const is2xx = (res: CapturedResponse) => isSuccess(res.status);

/** Errors of the suite's own code, as opposed to a contract failure. */
const SUITE_BUGS = ['TypeError', 'ReferenceError', 'RangeError', 'SyntaxError'];
function isSuiteBug(error: unknown): boolean {
  return error instanceof Error && SUITE_BUGS.includes(error.name) && !(error instanceof ConformanceError);
}

export function requirementTest(id: string, body: (t: RequirementContext) => Promise<void>): void;
export function requirementTest(id: string, options: RequirementOptions, body: (t: RequirementContext) => Promise<void>): void;
export function requirementTest(
  id: string,
  a: RequirementOptions | ((t: RequirementContext) => Promise<void>),
  b?: (t: RequirementContext) => Promise<void>,
): void {
  const options = typeof a === 'function' ? {} : a;
  const body = typeof a === 'function' ? a : b!;
  const scope = currentScope();
  // A fault's batch run declares only the tests of the requirements the fault names.
  if (scope.only && !scope.only.has(id)) return;
  const req = requirement(id);
  const title = titleOf(id, options.row);
  // A deeper run (more runs per property, more requests per operation) gets proportionally more time.
  const budget = (options.timeoutMs ?? DEFAULT_TEST_BUDGET_MS) * Math.max(1, (inject('runs') ?? DEPTHS.standard) / DEPTHS.standard);
  it(title, { timeout: budget + MAX_HELD_MS + VITEST_GRACE_MS }, (ctx: TestContext) => inScope(scope, () => runRequirement(ctx)));

  async function runRequirement(ctx: TestContext): Promise<void> {
    const meta = ctx.task.meta;
    meta.requirement = id;
    meta.source = req.source;
    const end = (verdict: Verdict, code?: ErrorCode) => {
      meta.verdict = verdict;
      if (code) meta.code = code;
    };
    const run = runContext();
    const { target } = run;
    const redact = (text: string) => target.redactor.redact(text);
    if (!target.areas.includes(req.area)) {
      end('skipped', 'AREA_NOT_SELECTED');
      ctx.skip(`AREA_NOT_SELECTED: area ${req.area} is not selected in target "${target.name}"`);
    }
    if (req.source === 'vendor' && !target.vendorConventions) {
      end('skipped', 'VENDOR_CONVENTIONS_OFF');
      ctx.skip('VENDOR_CONVENTIONS_OFF: a vendor convention; runs only with vendorConventions: true in the target file');
    }
    const unreachable = scope.unreachable[req.area];
    if (unreachable) {
      end('error', unreachable.code);
      const error = new Error(
        redact(
          `${unreachable.code}: ${unreachable.message} (found by the reachability probe before the run; no request of this test was sent)`,
        ),
      );
      error.stack = error.message;
      throw error;
    }

    const evidence = new TestEvidence();
    const clock = new TestBudget(budget);
    const signal = AbortSignal.any([clock.signal, ctx.signal]);
    // Concurrent requests of one test (a burst, a prefetch) each listen to it for as long as they run.
    setMaxListeners(0, signal);
    const t: RequirementContext = {
      ...run,
      id,
      title,
      signal,
      budget: clock,
      expectNone(failures, response, note) {
        if (failures.length) throw new ConformanceError(failures, { title, response, redactor: target.redactor, note });
      },
      async property(arbitrary, predicate, runs) {
        const result = await fc.check(
          fc.asyncProperty(arbitrary, async (value) => {
            if (signal.aborted) throw new ToolError('TARGET_TIMEOUT', `the test's time budget of ${budget} ms ran out during the property`);
            await predicate(value);
          }),
          { seed: run.seed, numRuns: runs ?? run.runs, endOnFailure: !run.shrink },
        );
        if (!result.failed) return;
        const cause = result.errorInstance;
        if (cause instanceof ToolError) throw cause;
        if (isSuiteBug(cause)) throw cause;
        const inner = cause instanceof Error ? cause.message : String(cause);
        const shrunk = result.numShrinks > 0 ? `, shrunk ${result.numShrinks} times` : '';
        // The failures of the failing case travel on (their requirement decides a dependency and the root cause); its message lists them already.
        throw new ConformanceError(cause instanceof ConformanceError ? cause.failures : [], {
          title: inner,
          redactor: target.redactor,
          response: undefined,
          listed: false,
          note: `property failed after ${result.numRuns} run(s)${shrunk}; reproduce with CONFORMANCE_SEED=${result.seed} (path ${result.counterexamplePath})`,
        });
      },
      control(key, send, succeeded = is2xx) {
        return controls()
          .get(key, send)
          .then((res) => {
            cite(res, 'control');
            if (succeeded(res)) return res;
            throw inconclusive(
              'NO_CONTROL',
              `the control request (${key}, valid, with valid credentials) was answered ${res.status}, so a refusal proves nothing; control: ${res.curl}`,
            );
          });
      },
    };

    try {
      await Promise.race([holdingFor(clock, () => withTestScope({ signal, requirement: id, evidence }, () => body(t))), clock.outOfTime]);
      end('passed');
    } catch (error) {
      // Whatever a test cut short by the run's interruption ended with (an aborted request, an aborted wait), it has no verdict.
      if (interruptedBy(signal)) {
        end('skipped', 'RUN_INTERRUPTED');
        ctx.skip('RUN_INTERRUPTED: the run was interrupted before this test reached a verdict');
      }
      if (isInconclusive(error)) {
        end('inconclusive', error.code);
        ctx.skip(redact(error.message));
      }
      if (isSkip(error)) {
        end('skipped', error.code);
        ctx.skip(redact(error.message));
      }
      if (isToolFailure(error) || isSuiteBug(error)) {
        const code = error instanceof ToolError ? error.code : 'SUITE_ERROR';
        end('error', code);
        const text =
          error instanceof ToolError
            ? error.message
            : `SUITE_ERROR: ${(error as Error).name}: ${(error as Error).message}\n${(error as Error).stack?.split('\n').slice(1, 4).join('\n') ?? ''}`;
        const redacted = new Error(redact(text));
        redacted.stack = redacted.message;
        throw redacted;
      }
      // A contract failure: of this requirement, or of one it takes as given.
      const failures = error instanceof ConformanceError ? error.failures : [];
      const dependency = failedDependency(id, failures);
      if (dependency) {
        const cause = rootCauseOf(dependency.failures, { requirement: dependency.id, words: '' }, redact);
        meta.rootCause = cause;
        meta.dependsOn = dependency.id;
        end('inconclusive', 'DEPENDENCY_FAILED');
        ctx.skip(
          redact(
            `DEPENDENCY_FAILED: depends on ${dependency.id} (${requirement(dependency.id).text}), which failed here: ${cause.about}; the defect is counted once, as ${dependency.id}'s`,
          ),
        );
      }
      const message = redact(error instanceof Error ? error.message : String(error));
      const own = failures.filter((f) => f.requirement === id);
      meta.rootCause = rootCauseOf(
        own.length ? own : failures,
        { requirement: id, words: message.split('\n').slice(1).join('\n') || message },
        redact,
      );
      if (req.source === 'policy' && !target.strictPolicy) {
        end('warning');
        meta.warning = message;
        return;
      }
      end('failed');
      if (error instanceof ConformanceError) throw error;
      const redacted = new Error(message);
      redacted.stack = redacted.message;
      throw redacted;
    } finally {
      clock.stop();
      meta.budget = clock.figures();
      // One turn of the event loop, so that requests the test's end aborted have recorded why.
      await new Promise((resolve) => setImmediate(resolve));
      meta.evidence = shipEvidence(evidence);
    }
  }
}

/**
 * The requirement a contract failure belongs to when it is not the test's own: every failure names a
 * requirement that `id` depends on (specs/requirements.yaml `dependsOn`, directly or through another),
 * and they all name the same one. A failure of the test's own, or of a requirement it does not declare,
 * keeps the test failed.
 */
function failedDependency(id: string, failures: readonly Failure[]): { id: string; failures: Failure[] } | undefined {
  if (!failures.length) return undefined;
  const named = new Set(failures.map((f) => f.requirement));
  if (named.size !== 1) return undefined;
  const [other] = named;
  return other !== id && dependenciesOf(id).has(other) ? { id: other, failures: [...failures] } : undefined;
}
