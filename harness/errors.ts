/**
 * Tool failures (not conformance failures): each has a stable code so that a report and a person can
 * tell "the target broke the contract" from "the suite could not do its job".
 */
export type ToolErrorCode =
  | 'TARGET_FILE_INVALID'
  | 'TARGET_FILE_MISSING_VARIABLE'
  | 'TARGET_UNREACHABLE'
  | 'TARGET_TIMEOUT'
  | 'SAFETY_REFUSED'
  | 'CREDENTIAL_MISSING'
  | 'BURST_NOT_ALLOWED'
  /** The target lacks data a test needs first (nothing to attach a child to, a create that was refused). */
  | 'PRECONDITION_MISSING';

export class ToolError extends Error {
  constructor(
    readonly code: ToolErrorCode,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'ToolError';
  }
}

/** Errors that mean "this test cannot run here", reported as skipped with the reason, never as passed. */
export const SKIP_CODES: ReadonlySet<ToolErrorCode> = new Set(['SAFETY_REFUSED', 'CREDENTIAL_MISSING', 'BURST_NOT_ALLOWED', 'PRECONDITION_MISSING']);

export function isSkip(error: unknown): error is ToolError {
  return error instanceof ToolError && SKIP_CODES.has(error.code);
}
