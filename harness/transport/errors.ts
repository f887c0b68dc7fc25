/**
 * What a failed exchange means, as a tool error with its code: the deadline or the test's budget ran
 * out (TARGET_TIMEOUT), the origin could not be reached or the connection broke before an answer
 * (TARGET_UNREACHABLE), or what came back was not valid HTTP, or stopped mid-body
 * (TARGET_PROTOCOL_ERROR), or had more header bytes than the client reads (TARGET_RESPONSE_TOO_LARGE). Each message names the operation, the origin and the cause (its code and
 * text, which `isTlsRefusal` reads), and says whether the failure counts against the origin's health.
 */
import { maxHeaderSize } from 'node:http';
import { ToolError } from '../errors.ts';
import type { RequestDeadline } from './deadline.ts';

export interface ExchangeState {
  operation: string;
  origin: string;
  deadline: RequestDeadline;
  /** The status, once the headers came. */
  status?: number;
  /** Body bytes read before the failure. */
  bodyBytes: number;
}

export interface Classified {
  error: ToolError;
  /** Counts towards giving up on the origin (it cannot be connected to, or does not answer in time). */
  countsAgainstOrigin: boolean;
}

/** Connection failures that mean nobody is there (or nobody answers) at the origin. */
const NOT_THERE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ETIMEDOUT',
  'EADDRNOTAVAIL',
]);
const UNDICI_TIMEOUTS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const BROKEN = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED', 'ECONNABORTED']);

function codeOf(error: unknown): string {
  const e = error as { code?: unknown; name?: unknown; cause?: { code?: unknown } };
  const code = typeof e?.code === 'string' ? e.code : typeof e?.cause?.code === 'string' ? e.cause.code : undefined;
  return code ?? (typeof e?.name === 'string' ? e.name : 'Error');
}

function messageOf(error: unknown): string {
  const e = error as { message?: unknown; cause?: { message?: unknown } };
  const own = typeof e?.message === 'string' ? e.message : String(error);
  const cause = typeof e?.cause?.message === 'string' && e.cause.message !== own ? `; ${e.cause.message}` : '';
  return own + cause;
}

function progress(state: ExchangeState): string {
  return state.status === undefined ? 'no answer had begun' : `status ${state.status} came, then ${state.bodyBytes} byte(s) of the body`;
}

/** The cause of a transport failure as its code and text: "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9". */
export function causeOf(error: unknown): string {
  return `${codeOf(error)}: ${messageOf(error)}`;
}

export function classifyTransportError(error: unknown, state: ExchangeState): Classified {
  const { operation, origin, deadline } = state;
  const code = codeOf(error);
  const cause = causeOf(error);
  if (deadline.abortedBy === 'interrupted') {
    return {
      error: new ToolError('RUN_INTERRUPTED', `${operation} at ${origin} was aborted: the run was interrupted (${progress(state)})`),
      countsAgainstOrigin: false,
    };
  }
  if (deadline.abortedBy === 'test-budget') {
    return {
      error: new ToolError('TARGET_TIMEOUT', `${operation} at ${origin} was aborted: the test's time budget ran out (${progress(state)})`),
      countsAgainstOrigin: false,
    };
  }
  if (deadline.abortedBy === 'deadline' || UNDICI_TIMEOUTS.has(code)) {
    return {
      error: new ToolError(
        'TARGET_TIMEOUT',
        `${operation} at ${origin} did not answer in full within its deadline of ${deadline.deadlineMs} ms (settings.timeoutMs; ${progress(state)})`,
      ),
      countsAgainstOrigin: true,
    };
  }
  if (code === 'UND_ERR_HEADERS_OVERFLOW' || code === 'HPE_HEADER_OVERFLOW') {
    // The target answered, with more header bytes than the client reads: an answer too large, not an unreachable target.
    return {
      error: new ToolError(
        'TARGET_RESPONSE_TOO_LARGE',
        `${operation} at ${origin}: the answer's headers are larger than the ${maxHeaderSize} bytes the client reads (Node's --max-http-header-size; ${cause})`,
      ),
      countsAgainstOrigin: false,
    };
  }
  if (code.startsWith('HPE_') || code === 'HTTPParserError' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || code === 'UND_ERR_INFO') {
    return {
      error: new ToolError('TARGET_PROTOCOL_ERROR', `${operation}: ${origin} answered with something that is not valid HTTP (${cause})`),
      countsAgainstOrigin: false,
    };
  }
  if (BROKEN.has(code) || /other side closed|socket hang up/i.test(cause)) {
    if (state.status !== undefined) {
      return {
        error: new ToolError(
          'TARGET_PROTOCOL_ERROR',
          `${operation}: ${origin} closed the connection mid-body (${progress(state)}; ${cause})`,
        ),
        countsAgainstOrigin: false,
      };
    }
    return {
      error: new ToolError('TARGET_UNREACHABLE', `${operation}: the connection to ${origin} broke before an answer (${cause})`),
      countsAgainstOrigin: false,
    };
  }
  return {
    error: new ToolError('TARGET_UNREACHABLE', `${operation}: could not reach ${origin} (${cause})`),
    countsAgainstOrigin: NOT_THERE.has(code),
  };
}
