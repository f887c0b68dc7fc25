/**
 * Model-based testing of the declaration workflow (3.1): fast-check `commands` generates sequences of
 * up to MAX_COMMANDS workflow calls, each sequence runs on a fresh request (provisioned on the
 * sandbox, from the pool elsewhere, starting from its state as read), and every call is compared with
 * the model of the table: allowed calls land in their target state, others are refused and change
 * nothing, repeats change nothing. A failure is shrunk to the shortest failing sequence found and
 * printed as a numbered list of calls. Budget: runs/5 sequences (5 at the default 25 runs).
 */
import { describe } from 'vitest';
import { failure } from '../../../harness/checks/failure.ts';
import { ToolError } from '../../../harness/errors.ts';
import { requireMachine } from '../../../harness/business/ndfl3/config.ts';
import { runModel } from '../../../harness/business/ndfl3/model.ts';
import { requirementTest } from '../../../harness/test/suite.ts';
import { ndfl3 } from '../../../harness/business/ndfl3/client.ts';

const MAX_COMMANDS = 8;
/**
 * Exploring and shrinking stop after this long on the test's budget clock (waits for pacing slots not
 * counted); the test reports what it found by then.
 */
const TIME_LIMIT_MS = 60_000;

describe('3-NDFL workflow: model-based sequences', () => {
  requirementTest('NDF-WF-005', { timeoutMs: TIME_LIMIT_MS + 30_000 }, async (t) => {
    const { source } = ndfl3(t, 'model');
    const machine = requireMachine(t.target, source.api.config);
    if (!source.usable().length)
      throw new ToolError('SAFETY_REFUSED', `the safety gate refuses every 3-NDFL workflow call on target kind ${t.target.kind}`);
    const sequences = Math.max(1, Math.ceil(t.runs / 5));
    const outcome = await runModel({
      source,
      machine,
      seed: t.seed,
      sequences,
      maxCommands: MAX_COMMANDS,
      shrink: t.shrink,
      timeLimitMs: TIME_LIMIT_MS,
      usedMs: () => t.budget.usedMs(),
    });
    const { figures } = outcome;
    const shrinks = figures.numShrinks ? `, ${figures.numShrinks} shrink steps` : '';
    console.log(
      t.target.redactor.redact(
        `${t.id} model-based: ${figures.sequences} command sequences, ${figures.calls} workflow calls in ${(figures.ms / 1000).toFixed(1)} s${shrinks} (seed ${t.seed})`,
      ),
    );
    if (outcome.error) throw outcome.error;
    if (outcome.failure) {
      const { steps, defect, seed, path } = outcome.failure;
      t.expectNone(
        [
          {
            ...failure(
              t.id,
              'every call of a random sequence agrees with the model (3.1 target states, configured source states)',
              `the sequence below disagrees at call ${steps.length}`,
            ),
            // One wrong transition is one root cause, whichever sequence met it.
            defect,
          },
        ],
        undefined,
        `shortest failing sequence found (${figures.numShrinks} shrink steps; reproduce with CONFORMANCE_SEED=${seed}${path ? `, path ${path}` : ''}):\n${steps.map((s) => `    ${s}`).join('\n')}`,
      );
    }
  });
});
