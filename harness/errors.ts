/**
 * Every way a test can end other than "the target met the requirement" or "the target broke it", each
 * with a stable code, so that a report and a person can tell "the target broke the contract" from "the
 * suite could not do its job" and from "this test could not run here".
 *
 * | kind          | verdict      | vitest state | counted in | meaning                                         |
 * |---------------|--------------|--------------|------------|-------------------------------------------------|
 * | tool error    | error        | failed       | failed     | the suite could not reach a verdict (transport, bad file, suite bug) |
 * | skip          | skipped      | skipped      | skipped    | the test cannot run against this target         |
 * | inconclusive  | inconclusive | skipped      | skipped    | the test ran, but the target gave no evidence either way |
 *
 * The table of codes with their meanings is `ERROR_CODES` below; README's "Codes" section mirrors it
 * and a selftest keeps the two equal.
 */

export const TOOL_ERROR_CODES = {
  TARGET_FILE_INVALID: 'the target file (or the waiver file) cannot be read, is not valid YAML, or breaks its schema',
  TARGET_FILE_MISSING_VARIABLE: 'the target file refers to an environment variable that is not set, or is set but empty',
  SETTING_INVALID:
    'a setting (an environment variable or a command-line option) has a value the suite cannot use, or the report folder cannot be made or written',
  TARGET_UNREACHABLE: 'the service could not be reached (connection refused, DNS, TLS) or the connection broke',
  TARGET_TIMEOUT: 'the service did not answer in full within the request deadline',
  TARGET_REDIRECT: 'the service answered with a redirect, which the suite never follows (the Location is shown)',
  TARGET_RATE_LIMITED: 'the service kept answering 429 beyond the bounded wait (or asked to wait longer than the cap)',
  TARGET_RESPONSE_TOO_LARGE:
    "an answer was larger than the client reads (its body than settings.maxResponseBytes, its headers than Node's header size limit) and was cut off",
  TARGET_PROTOCOL_ERROR: 'the answer was not valid HTTP (garbled status line, headers or chunking)',
  SUITE_ERROR: 'the suite itself failed (a bug of the suite, reported so that it is never taken for a verdict)',
} as const;

export const SKIP_CODES_TABLE = {
  SAFETY_REFUSED: 'the safety gate refused the request for this target kind (before any socket opened)',
  CREDENTIAL_MISSING: 'the target file lacks the service or the credential the test needs',
  FIXTURE_MISSING: 'the target file lacks the test data the test needs (an account, a pool, a taxpayer)',
  BURST_NOT_ALLOWED: 'a rate-limit burst against a non-loopback target that does not allow bursts',
  AREA_NOT_SELECTED: "the area is not among the target file's areas",
  VENDOR_CONVENTIONS_OFF: 'a vendor convention, and the target file does not ask for vendor conventions',
  RUN_INTERRUPTED:
    'the run was interrupted (SIGINT, SIGTERM or SIGHUP, or the process that started it ended) before this test reached a verdict',
  RUN_STOPPED: 'the run stopped before this test ran: vitest --bail reached its number of failed tests',
} as const;

export const INCONCLUSIVE_CODES_TABLE = {
  NO_CONTROL: 'a refusal proves nothing here: the control request (the same operation, valid) did not succeed in this run',
  PRECONDITION_MISSING:
    'the target lacks data the test needs first and the suite cannot make it (nothing creates it, a create was refused)',
  DEPENDENCY_FAILED:
    "a requirement this test takes as given failed here (a create not answered as the spec says, a body that breaks its schema): the defect is counted once, as that requirement's, and this test is named under it",
  NOT_LOCATED: 'what the requirement is about is not in the served document, so it cannot be judged',
  NOT_SUPPORTED: 'the target does not offer an optional feature the requirement is about (for example streaming)',
  BURST_TOO_SLOW:
    "a burst did not get more requests than the limit answered within the limit's window (a loaded machine or a slow link), so no 429 in it proves nothing; where the window is a few seconds, after three bursts",
} as const;

export type ToolErrorCode = keyof typeof TOOL_ERROR_CODES;
export type SkipCode = keyof typeof SKIP_CODES_TABLE;
export type InconclusiveCode = keyof typeof INCONCLUSIVE_CODES_TABLE;
export type ErrorCode = ToolErrorCode | SkipCode | InconclusiveCode;

export const ERROR_CODES: Readonly<Record<ErrorCode, string>> = { ...TOOL_ERROR_CODES, ...SKIP_CODES_TABLE, ...INCONCLUSIVE_CODES_TABLE };

export class ToolError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'ToolError';
  }
}

/** Errors that mean "this test cannot run here", reported as skipped with the reason, never as passed. */
export const SKIP_CODES: ReadonlySet<ErrorCode> = new Set(Object.keys(SKIP_CODES_TABLE) as SkipCode[]);
/** Errors that mean "the test ran and the target gave no evidence": reported as inconclusive (a skip), never as passed. */
export const INCONCLUSIVE_CODES: ReadonlySet<ErrorCode> = new Set(Object.keys(INCONCLUSIVE_CODES_TABLE) as InconclusiveCode[]);

export function isSkip(error: unknown): error is ToolError {
  return error instanceof ToolError && (SKIP_CODES.has(error.code) || INCONCLUSIVE_CODES.has(error.code));
}

export function isInconclusive(error: unknown): error is ToolError {
  return error instanceof ToolError && INCONCLUSIVE_CODES.has(error.code);
}

/** A tool error proper: the suite could not reach a verdict. Counted as failed, never as a contract result. */
export function isToolFailure(error: unknown): error is ToolError {
  return error instanceof ToolError && !isSkip(error);
}

/** Shorthand for the inconclusive outcomes, e.g. `throw inconclusive('NO_CONTROL', '...')`. */
export function inconclusive(code: InconclusiveCode, message: string): ToolError {
  return new ToolError(code, message);
}
