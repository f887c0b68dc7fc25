/**
 * One HTTP exchange as evidence: what was sent and what came back, with timings, made safe to keep
 * where it is recorded (in the test worker): every text passes through the target's redactor once, and
 * each body is cut at `BODY_CAP_BYTES` with the cut marked. The worker hands these records to the
 * reporter in the main process (test meta), which writes them as HAR (har.ts); the record is plain
 * data so that it crosses the process boundary as it is.
 */
import { CREDENTIAL_HEADER_NAME, type Redactor } from '../redact.ts';

/** Bodies are kept to this many bytes; a longer one is cut there and says so. */
export const BODY_CAP_BYTES = 64 * 1024;

export interface RecordedBody {
  text: string;
  /** The body's whole size in bytes, as sent or received. */
  bytes: number;
  /** Set when the text is cut: the bytes kept. */
  cutAt?: number;
}

export interface ExchangeRecord {
  /** Unique in the run: the worker's tag and a counter (the reporter gives entries their final ids). */
  id: string;
  area: string;
  /** "METHOD /path-template", as the safety gate names it. */
  operation: string;
  /** When the request went out (epoch ms). */
  startedAt: number;
  /** Time spent waiting for a pacing slot before the request went out. */
  pacedMs: number;
  /** From sending until the exchange ended (answered, failed, or closed with its test). */
  durationMs: number;
  /** From sending to the answer's headers, and from the headers to the end of the body (absent without an answer). */
  waitMs?: number;
  receiveMs?: number;
  request: { method: string; url: string; headers: Array<[string, string]>; body?: RecordedBody };
  response?: { status: number; headers: Array<[string, string]>; body?: RecordedBody };
  /** Why no (whole) answer was kept: the tool error, or that the test ended first. */
  error?: string;
}

/** A header value that is a credential by its name; `authorization` keeps its scheme, which the redactor does. */
function maskedByName(name: string, value: string): string {
  return CREDENTIAL_HEADER_NAME.test(name) && value !== '***' ? '***' : value;
}

/** Headers as name/value pairs, redacted as one text (one pass of the redactor), credential-named values masked. */
export function recordedHeaders(headers: Record<string, string>, redactor: Redactor): Array<[string, string]> {
  const entries = Object.entries(headers);
  if (!entries.length) return [];
  const lines = redactor.redact(entries.map(([name, value]) => `${name}: ${value}`).join('\n')).split('\n');
  if (lines.length !== entries.length) return entries.map(([name, value]) => [name, maskedByName(name, redactor.redact(value))]);
  return lines.map((line, i) => {
    const name = entries[i][0];
    return [name, maskedByName(name, line.slice(name.length + 2))];
  });
}

/**
 * A body kept to the cap. The cut is marked with an ellipsis before redaction, so that a credential
 * the cut went through is masked too (the redactor masks the part of a secret next to an ellipsis).
 */
export function recordedBody(text: string, redactor: Redactor, bytes?: Buffer): RecordedBody | undefined {
  const size = bytes?.length ?? Buffer.byteLength(text);
  if (size === 0) return undefined;
  if (size <= BODY_CAP_BYTES) return { text: redactor.redact(text), bytes: size };
  const head = (bytes ?? Buffer.from(text, 'utf8')).subarray(0, BODY_CAP_BYTES).toString('utf8');
  return { text: `${redactor.redact(`${head}…`)}[cut here by partner-conformance: the first ${BODY_CAP_BYTES} of ${size} bytes are kept]`, bytes: size, cutAt: BODY_CAP_BYTES };
}
