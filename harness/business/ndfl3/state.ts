/**
 * The state of a tax request as GET request data reads it back, which every test that walks the
 * workflow or compares a state takes as given. That the read answers 200 with one of the ten states of
 * 3.1 at the target file's stateField is NDF-REQ-001's subject: a read that does not is NDF-REQ-001's
 * failure wherever it happens, and the requirements whose tests read a state back declare
 * `dependsOn: [NDF-REQ-001]`, so they end inconclusive naming it instead of failing for it. A state of
 * 3.1 other than the one a test expects stays that test's own failure.
 */
import { ConformanceError, failure, type Failure } from '../../checks/failure.ts';
import { statusIn } from '../../checks/status.ts';
import type { CapturedResponse } from '../../request/http.ts';
import { isJsonAnswer } from '../../request/media-type.ts';
import { valueAt } from './config.ts';
import { workflow, type State } from './workflow.ts';

/** The requirement whose subject a state read back is. */
export const STATE_REQUIREMENT = 'NDF-REQ-001';

/**
 * A test could not bring a request to what it needs, or could not read the state it takes as given:
 * the failures name the requirement whose subject that is (NDF-REQ-001 for the state, NDF-WF-001 for a
 * walk's step), which the tests that need it take as given.
 */
export class SetupError extends ConformanceError {}

/** Whether `state` is one of the ten states of 3.1. */
export function isTableState(state: unknown): state is State {
  return typeof state === 'string' && workflow().states.includes(state);
}

/**
 * Why a read of the request data gives no state of 3.1 at `stateField`: not a 200, or no such state
 * there. `requirement` is NDF-REQ-001 wherever the failure is reported, under its own test or as a
 * precondition of another's, so that the defect has one root cause.
 */
export function stateReadFailures(res: CapturedResponse, stateField: string, requirement = STATE_REQUIREMENT): Failure[] {
  if (res.status !== 200) return statusIn(res, [200], requirement);
  const value = isJsonAnswer(res) ? valueAt(res.json, stateField) : undefined;
  if (isTableState(value)) return [];
  const received = value !== undefined ? JSON.stringify(value) : isJsonAnswer(res) ? 'none' : 'no JSON body';
  return [
    failure(
      requirement,
      `a state of 3.1 at "${stateField}" (${workflow().states.join(', ')})`,
      received,
      `/${stateField.replace(/\./g, '/')}`,
    ),
  ];
}
