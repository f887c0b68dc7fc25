/**
 * Operations that answered a valid request with a 5xx anywhere in this run, across test workers. Every
 * 5xx counts: once an operation has failed a valid request, an answer of it that looks right proves
 * nothing (a flaky target may serve a repeat, and another worker may have sent the same request
 * first). The record is the run's shared record `server-errors` (harness/runner/run-record.ts), appended to as
 * 5xx answers come and read when a verdict needs it. A batch run's variants are separate targets: each
 * entry names the variant it belongs to.
 */
import { runRecord, type SharedRecord } from '../runner/run-record.ts';
import { currentScope } from '../runner/run-scope.ts';

interface ServerError {
  operation: string;
  what: string;
  variant?: string;
}

let record: SharedRecord<ServerError> | undefined;
const shared = () => (record ??= runRecord<ServerError>('server-errors'));

function variantOf(): string | undefined {
  try {
    return currentScope().variant;
  } catch {
    return undefined;
  }
}

/** Records that `operation` ("METHOD /path") answered a request with a 5xx; `what` says which and how. */
export function recordServerError(operation: string, what: string): void {
  if (serverErrorOf(operation) === undefined) shared().append({ operation, what, variant: variantOf() });
}

/** What the first 5xx of `operation` to a valid request in this run was, or undefined when there was none. */
export function serverErrorOf(operation: string): string | undefined {
  const variant = variantOf();
  return shared()
    .entries()
    .find((e) => e.operation === operation && e.variant === variant)?.what;
}
