/** Small rules the runtime suites share about which exchanges can be judged, and what a document promises. */
import { ToolError } from '../../../harness/errors.ts';
import type { CapturedResponse } from '../../../harness/http.ts';
import type { OperationModel } from '../../../harness/openapi/operation-model.ts';
import type { Exchange } from './_exchanges.ts';
import type { OperationPlan } from './_runtime.ts';

/**
 * The exchanges that say something: a 429 the client could not wait out counts neither as acceptance
 * nor as rejection. When nothing is left, the test is skipped as inconclusive.
 */
export function conclusive(exchanges: Exchange[]): Exchange[] {
  const kept = exchanges.filter((e) => e.response && e.response.status !== 429);
  if (!kept.length) {
    const limited = exchanges.filter((e) => e.response?.status === 429).length;
    throw new ToolError('PRECONDITION_MISSING', limited ? `inconclusive: ${limited} answer(s) stayed 429 (rate limited) after the client's retries` : 'no answer to judge');
  }
  return kept;
}

export function answered(e: Exchange): CapturedResponse {
  return e.response!;
}

export function documentsContent(op: OperationModel): boolean {
  return op.responses.some((r) => r.content.length > 0);
}

export function documentsJsonSchema(op: OperationModel): boolean {
  return op.responses.some((r) => r.content.some((c) => (c.mediaType === 'application/json' || c.mediaType.endsWith('+json')) && c.schema));
}

/**
 * Vendor fact (public facts, 3-NDFL): an unknown tax request is answered 400. A generated identifier is
 * unknown, so a 400 there is not a refusal of a valid request.
 */
export function unknownIdentifierIs400(op: OperationPlan): boolean {
  return op.catalog.area === 'ndfl3' && op.model.parameters.some((p) => p.in === 'path');
}
