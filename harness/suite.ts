/**
 * What a suite file uses: the run's context (target, HTTP client, seed, runs) and `requirementTest`,
 * which names the test after its requirement, gates vendor conventions and unselected areas, turns
 * safety refusals and missing credentials into skips with their reason, and redacts every message.
 */
import fc from 'fast-check';
import { inject, it, type TestContext } from 'vitest';
import { ConformanceError, type Failure } from './checks/failure.ts';
import { isSkip, ToolError } from './errors.ts';
import type { CapturedResponse } from './http.ts';
import { HttpClient } from './http.ts';
import { documentedLimits } from './limits.ts';
import { RemotePacer } from './pacer.ts';
import { requirement, titleOf } from './requirements.ts';
import { loadTarget, type Target } from './target.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    targetFile: string;
    pacerUrl: string;
    seed: number;
    runs: number;
    shrink: boolean;
  }
}

export interface RunContext {
  target: Target;
  client: HttpClient;
  seed: number;
  runs: number;
  shrink: boolean;
}

let context: RunContext | undefined;

export function runContext(): RunContext {
  if (context) return context;
  const target = loadTarget(inject('targetFile'));
  const limits = documentedLimits();
  const client = new HttpClient(target, { pacer: new RemotePacer(inject('pacerUrl')), limits: limits.services, undocumentedLimit: limits.undocumentedDefault });
  context = { target, client, seed: inject('seed'), runs: inject('runs'), shrink: inject('shrink') };
  return context;
}

export interface RequirementContext extends RunContext {
  id: string;
  title: string;
  /** Fails the test with every failure, the response and its curl reproduction, all redacted. */
  expectNone(failures: Failure[], response?: CapturedResponse, note?: string): void;
  /** A fast-check property over the run's seed and number of runs; a failure prints the seed. */
  property<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, runs?: number): Promise<void>;
}

interface RequirementOptions {
  /** Names the row of a requirement checked over many rows (an enum value, a catalog operation). */
  row?: string;
  timeoutMs?: number;
}

export function requirementTest(id: string, body: (t: RequirementContext) => Promise<void>): void;
export function requirementTest(id: string, options: RequirementOptions, body: (t: RequirementContext) => Promise<void>): void;
export function requirementTest(id: string, a: RequirementOptions | ((t: RequirementContext) => Promise<void>), b?: (t: RequirementContext) => Promise<void>): void {
  const options = typeof a === 'function' ? {} : a;
  const body = typeof a === 'function' ? a : b!;
  const req = requirement(id);
  const title = titleOf(id, options.row);
  it(title, { timeout: options.timeoutMs ?? 60_000 }, async (ctx: TestContext) => {
    const run = runContext();
    const { target } = run;
    if (!target.areas.includes(req.area)) ctx.skip(`area ${req.area} is not selected in target "${target.name}"`);
    if (req.source === 'vendor' && !target.vendorConventions) {
      ctx.skip('vendor convention: runs only with vendorConventions: true in the target file');
    }
    const t: RequirementContext = {
      ...run,
      id,
      title,
      expectNone(failures, response, note) {
        if (failures.length) throw new ConformanceError(failures, { title, response, redactor: target.redactor, note });
      },
      async property(arbitrary, predicate, runs) {
        const result = await fc.check(fc.asyncProperty(arbitrary, predicate), {
          seed: run.seed,
          numRuns: runs ?? run.runs,
          endOnFailure: !run.shrink,
        });
        if (result.failed) {
          if (isSkip(result.errorInstance)) throw result.errorInstance;
          const inner = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
          const shrunk = result.numShrinks > 0 ? `, shrunk ${result.numShrinks} times` : '';
          throw new Error(
            target.redactor.redact(
              `${inner}\n  Property failed after ${result.numRuns} run(s)${shrunk}; reproduce with CONFORMANCE_SEED=${result.seed} (path ${result.counterexamplePath})`,
            ),
          );
        }
      },
    };
    try {
      await body(t);
    } catch (error) {
      if (isSkip(error)) ctx.skip(target.redactor.redact(error.message));
      if (error instanceof ConformanceError) throw error;
      const message = error instanceof ToolError ? error.message : (error as Error)?.message ?? String(error);
      const redacted = new Error(target.redactor.redact(message));
      redacted.stack = redacted.message;
      throw redacted;
    }
  });
}
