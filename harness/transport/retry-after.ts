/**
 * How long a 429 asks the client to wait: `Retry-After` (seconds, or an HTTP date), else
 * `x-ratelimit-reset` (seconds until the reset, as the investment API sends it; a value that can only
 * be a Unix time is read as one), else one second. The client compares it with its cap.
 */
const DEFAULT_WAIT_MS = 1000;
const MIN_WAIT_MS = 50;
/** Seconds values above this are Unix times, not durations (2001-09-09). */
const UNIX_TIME_FLOOR = 1e9;

export interface RetryAfter {
  ms: number;
  /** The header as the target sent it, for messages ("Retry-After: 3600"), when there was one. */
  header?: string;
}

export function retryAfterOf(headers: Record<string, string>, now = Date.now()): RetryAfter {
  const retryAfter = headers['retry-after']?.trim();
  if (retryAfter) {
    const seconds = Number(retryAfter);
    const date = Date.parse(retryAfter);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Number.isFinite(date) ? date - now : DEFAULT_WAIT_MS;
    return { ms: Math.max(MIN_WAIT_MS, ms), header: `Retry-After: ${retryAfter}` };
  }
  const reset = headers['x-ratelimit-reset']?.trim();
  if (reset && Number.isFinite(Number(reset))) {
    const seconds = Number(reset);
    const ms = seconds > UNIX_TIME_FLOOR ? seconds * 1000 - now : seconds * 1000;
    return { ms: Math.max(MIN_WAIT_MS, ms), header: `x-ratelimit-reset: ${reset}` };
  }
  return { ms: DEFAULT_WAIT_MS };
}
