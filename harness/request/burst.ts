/**
 * A rate-limit test's burst: `size` requests at once against a limit of `limit` requests per `windowMs`.
 * It proves something only where more than `limit` of its requests reached the target within one
 * window: when no answer shows the limit met (a 429, a server error) and the answer after the first
 * `limit` came later than the window, a loaded machine (or a slow link) spread the burst below the limit,
 * and its 201s and 200s prove nothing. Such a burst is sent again a window later, where the window is a
 * few seconds, at most twice; a minute's window is not waited for. One that never came fast enough ends
 * its test inconclusive (BURST_TOO_SLOW), never failed and never passed.
 */
import { inconclusive, type ToolError } from '../errors.ts';
import { sleep } from './pacer.ts';

/** How many more bursts a burst too slow to prove anything gets, where the limit's window is short. */
const SLOW_BURST_RETRIES = 2;
const SHORT_WINDOW_MS = 5_000;

export interface Burst<T> {
  responses: T[];
  /** When the answer after the first `limit` came, from the burst's start (Infinity when it never did). */
  overLimitAtMs: number;
  /** No answer showed the limit, and too few came within the window to prove one. */
  tooSlow: boolean;
}

export async function sendBurst<T>(options: {
  size: number;
  limit: number;
  windowMs: number;
  send: () => Promise<T>;
  /** An answer that shows the limit met (or the target failing under it), whenever it came. */
  shows: (answer: T) => boolean;
  signal?: AbortSignal;
}): Promise<Burst<T>> {
  const { size, limit, windowMs } = options;
  const once = async (): Promise<Burst<T>> => {
    const started = performance.now();
    const answeredAt: number[] = [];
    const responses = await Promise.all(
      Array.from({ length: size }, () => options.send().then((answer) => (answeredAt.push(performance.now() - started), answer))),
    );
    const overLimitAtMs = answeredAt[limit] ?? Number.POSITIVE_INFINITY;
    return { responses, overLimitAtMs, tooSlow: !responses.some(options.shows) && overLimitAtMs > windowMs };
  };
  let burst = await once();
  for (let again = 0; burst.tooSlow && again < SLOW_BURST_RETRIES && windowMs <= SHORT_WINDOW_MS; again++) {
    await sleep(windowMs + 200, options.signal);
    burst = await once();
  }
  return burst;
}

/** The ending of a test whose burst never came fast enough. */
export function burstTooSlow(limit: number, burst: Burst<unknown>, windowMs: number): ToolError {
  return inconclusive(
    'BURST_TOO_SLOW',
    `${limit + 1} answers of the burst took ${Math.round(burst.overLimitAtMs)} ms, longer than the limit's window of ${windowMs} ms`,
  );
}
