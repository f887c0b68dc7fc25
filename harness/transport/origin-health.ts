/**
 * Gives up on an origin that keeps failing: after `GIVE_UP_AFTER` consecutive transport failures to
 * one origin (it could not be connected to, or did not answer within the deadline), every further
 * request to it fails at once with the same code, so a target that dies mid-run costs a few deadlines,
 * not one per test. The count is kept for the whole run, across test files and workers (the run's
 * shared record `origin-health`): a dripping target costs three deadlines in all, and no later file
 * (a rate-limit burst included) sends to it again. Any whole answer from the origin resets its count.
 * A refused TLS handshake or a reset connection does not count: it is what a secured host does to a
 * client without a certificate, and says nothing about the origin being down.
 */
import { ToolError, type ToolErrorCode } from '../errors.ts';
import { memoryRecord, type SharedRecord } from '../runner/run-record.ts';

export const GIVE_UP_AFTER = 3;

/** One exchange's outcome for an origin: a failure, or (absent `failed`) a whole answer after failures. */
export interface HealthEvent {
  origin: string;
  failed?: { code: ToolErrorCode; last: string };
}

interface Failures {
  count: number;
  code: ToolErrorCode;
  last: string;
}

export class OriginHealth {
  private readonly failures = new Map<string, Failures>();
  private seen = 0;

  constructor(private readonly record: SharedRecord<HealthEvent> = memoryRecord()) {}

  /** Throws at once when the origin has been given up on. */
  assertAlive(origin: string, operation: string): void {
    const f = this.current(origin);
    if (!f || f.count < GIVE_UP_AFTER) return;
    throw new ToolError(f.code, `${operation}: not sent; gave up on ${origin} after ${f.count} consecutive failures (last: ${f.last})`);
  }

  failed(origin: string, error: ToolError): void {
    this.record.append({ origin, failed: { code: error.code as ToolErrorCode, last: error.message.replace(/^[A-Z_]+: /, '') } });
  }

  answered(origin: string): void {
    // Only an answer after failures is written down: a healthy run appends nothing.
    if (this.current(origin)) this.record.append({ origin });
  }

  /** The origin's consecutive failures as the whole run has recorded them so far. */
  private current(origin: string): Failures | undefined {
    const events = this.record.entries();
    for (; this.seen < events.length; this.seen++) {
      const { origin: o, failed } = events[this.seen];
      if (!failed) {
        this.failures.delete(o);
        continue;
      }
      const f = this.failures.get(o);
      this.failures.set(o, { count: (f?.count ?? 0) + 1, code: failed.code, last: failed.last });
    }
    return this.failures.get(origin);
  }
}
