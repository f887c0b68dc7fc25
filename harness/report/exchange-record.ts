/**
 * One HTTP exchange as evidence: what was sent and what came back, with timings, made safe to keep
 * where it is recorded (in the test worker): every text passes through the target's redactor once, and
 * each body is cut at `BODY_CAP_BYTES` with the cut marked. The worker hands these records to the
 * reporter in the main process (test meta), which writes them as HAR (har.ts); the record is plain
 * data so that it crosses the process boundary as it is.
 */
import { CREDENTIAL_HEADER_NAME, type Redactor } from '../secrets/redact.ts';

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

/** Between the texts of one exchange redacted together: nothing the redactor matches spans it. */
const SEPARATOR = '\n\u0000\u0001\n';

/**
 * Texts redacted in one pass of the redactor (an exchange's URL, headers and bodies: one pass costs
 * about half of five); a text that holds the separator itself is redacted alone.
 */
export function redactedTogether(texts: readonly string[], redactor: Redactor): string[] {
  if (texts.some((t) => t.includes(SEPARATOR))) return texts.map((t) => redactor.redact(t));
  const out = redactor.redact(texts.join(SEPARATOR)).split(SEPARATOR);
  return out.length === texts.length ? out : texts.map((t) => redactor.redact(t));
}

/** Headers as the lines the redactor reads ("name: value"), and back, credential-named values masked. */
export const headerLines = (headers: Record<string, string>) =>
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');

/**
 * The headers back from their redacted lines. A mask that ran past the end of a line (an empty
 * `authorization: Bearer ` takes the next line for its token) leaves that line without its name: such
 * a header is redacted alone.
 */
export function headersOf(lines: string, headers: Record<string, string>, redactor: Redactor): Array<[string, string]> {
  const entries = Object.entries(headers);
  const split = lines.split('\n');
  return entries.map(([name, value], i) => {
    const line = split.length === entries.length ? split[i] : undefined;
    return [name, maskedByName(name, line?.startsWith(`${name}: `) ? line.slice(name.length + 2) : redactor.redact(value))];
  });
}

/**
 * A body kept to the cap, before redaction. The cut is marked with an ellipsis, so that the redactor
 * masks a credential the cut went through (it masks the part of a secret next to an ellipsis).
 */
export function cappedBody(text: string, bytes?: Buffer): { text: string; bytes: number; cutAt?: number } | undefined {
  const size = bytes?.length ?? Buffer.byteLength(text);
  if (size === 0) return undefined;
  if (size <= BODY_CAP_BYTES) return { text, bytes: size };
  return {
    text: `${(bytes ?? Buffer.from(text, 'utf8')).subarray(0, BODY_CAP_BYTES).toString('utf8')}…`,
    bytes: size,
    cutAt: BODY_CAP_BYTES,
  };
}

/** A capped body with its redacted text, the cut said after the mark. */
export function recordedBody(body: { bytes: number; cutAt?: number }, redacted: string): RecordedBody {
  return body.cutAt
    ? {
        text: `${redacted}[cut here by partner-conformance: the first ${body.cutAt} of ${body.bytes} bytes are kept]`,
        bytes: body.bytes,
        cutAt: body.cutAt,
      }
    : { text: redacted, bytes: body.bytes };
}
