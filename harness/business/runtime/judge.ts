/**
 * Small rules the runtime suites share about which exchanges can be judged, what a document promises,
 * and the evidence a pass needs: an answer to a valid request that shows the target did its job.
 */
import { documentedSuccess } from '../checks/runtime.ts';
import { inconclusive, ToolError } from '../../errors.ts';
import type { CapturedResponse } from '../../request/http.ts';
import type { OperationModel } from '../openapi/operation-model.ts';
import { isJsonMedia } from '../../request/media-type.ts';
import { cite } from '../../report/evidence-log.ts';
import { serverErrorOf } from '../../request/server-errors.ts';
import type { OperationPlan, RuntimePlan } from './plan.ts';
import type { OperationExchange, OperationExchanges } from './send.ts';

/**
 * The exchanges that say something. A 429 the client could not wait out is a tool error: the suite
 * could not reach a verdict, and the answer counts neither as acceptance nor as rejection.
 */
export function conclusive(exchanges: OperationExchange[]): OperationExchange[] {
  const limited = exchanges.find((e) => e.response?.status === 429);
  if (limited)
    throw new ToolError(
      'TARGET_RATE_LIMITED',
      `${limited.note} stayed 429 (rate limited) after the client's bounded retries: ${limited.response!.curl}`,
    );
  const kept = exchanges.filter((e) => e.response);
  if (!kept.length) throw new ToolError('SUITE_ERROR', 'no answer to judge');
  return kept;
}

export function answered(e: OperationExchange): CapturedResponse {
  return e.response!;
}

export function documentsContent(op: OperationModel): boolean {
  return op.responses.some((r) => r.content.length > 0);
}

/**
 * Whether some answer the run can see has a JSON schema to conform to: a success's, or, where `errors`
 * (the run sends requests the operation refuses: broken ones, or without a token), an error's too.
 */
export function documentsJsonSchema(op: OperationModel, options: { errors?: boolean } = { errors: true }): boolean {
  return op.responses.some((r) => (options.errors || r.key.startsWith('2')) && r.content.some((c) => isJsonMedia(c.mediaType) && c.schema));
}

/**
 * Vendor fact (public facts, 3-NDFL): an unknown tax request is answered 400. A generated identifier is
 * unknown, so a 400 there is not a refusal of a valid request.
 */
export function unknownIdentifierIs400(op: OperationPlan): boolean {
  return op.catalog.area === 'ndfl3' && op.model.parameters.some((p) => p.in === 'path');
}

/** Whether the answer is the operation's documented success, from an operation that drew no 5xx in this run. */
export function served(plan: RuntimePlan, op: OperationPlan, res: CapturedResponse | undefined): boolean {
  return res !== undefined && serverErrorOf(op.row) === undefined && documentedSuccess(op.model, res, plan.schemas, '').length === 0;
}

/**
 * Once an operation answered any request with a 5xx in this run, a later answer of it that is not one
 * proves nothing (a flaky target may serve a repeat): the test ends inconclusive.
 */
export function notAfterServerError(op: OperationPlan, res: CapturedResponse): void {
  const flaky = serverErrorOf(op.row);
  if (flaky && res.status < 500)
    throw inconclusive(
      'PRECONDITION_MISSING',
      `${op.row} answered a request with a 5xx in this run (${flaky}), so its answer now proves nothing`,
    );
}

/**
 * The control of every runtime check of an operation: one of its valid requests (with the target
 * file's credentials and identifiers that exist where the run could have them) reached the documented
 * success in this run. Without it the test ends inconclusive (NO_CONTROL) with what the valid requests
 * got: a refusal proves nothing when valid requests are refused too, and an answer's format proves
 * nothing when the operation never did its job. An operation that answered any request with a 5xx in
 * this run has no control either. Failures found before the control still count.
 */
export function operationControl(plan: RuntimePlan, op: OperationPlan, exchanges: OperationExchanges, what: string): void {
  const flaky = serverErrorOf(op.row);
  if (flaky)
    throw inconclusive(
      'NO_CONTROL',
      `${op.row} answered a request with a 5xx in this run (${flaky}), so no answer of it is evidence and ${what} proves nothing`,
    );
  const control = exchanges.valid.find((e) => served(plan, op, e.response));
  if (control) {
    cite(control.response, 'control');
    return;
  }
  const first = exchanges.valid.find((e) => e.response)?.response;
  cite(first, 'control');
  const why = first ? (documentedSuccess(op.model, first, plan.schemas, '')[0]?.received ?? `status ${first.status}`) : 'no answer';
  throw inconclusive(
    'NO_CONTROL',
    `no valid request of ${op.row} reached its documented success in this run (${why}), so ${what} proves nothing${first ? `; control: ${first.curl}` : ''}`,
  );
}
