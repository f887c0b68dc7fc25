/**
 * A service that answers 429 asking the suite to wait longer than it may (`settings.maxRetryAfterMs`)
 * has asked it to stop: nothing more is sent to that service, by any test of any file or worker, until
 * the time it named has passed (for Retry-After: 3600, the rest of the run). Each request it would have
 * got ends at once as TARGET_RATE_LIMITED with the service's own words, rate-limit bursts included: a
 * target still in its penalty would answer them all 429, which says nothing about its limit. Kept in the
 * run's shared record `service-stops`.
 */
import { ToolError } from '../errors.ts';
import { memoryRecord, type SharedRecord } from '../runner/run-record.ts';

export interface StopEvent {
  area: string;
  /** Date.now() time until which the service asked for silence. */
  until: number;
  why: string;
}

export class ServiceStops {
  constructor(private readonly record: SharedRecord<StopEvent> = memoryRecord()) {}

  /** Records that the service asked for `waitMs` of silence; `why` says who asked and how. */
  stop(area: string, waitMs: number, why: string, now = Date.now()): void {
    this.record.append({ area, until: now + waitMs, why });
  }

  /** Throws TARGET_RATE_LIMITED when the service asked for silence that has not yet passed. */
  assertOpen(area: string, operation: string, now = Date.now()): void {
    const stop = this.record.entries().findLast((e) => e.area === area && e.until > now);
    if (stop) throw new ToolError('TARGET_RATE_LIMITED', `${operation}: not sent; ${stop.why}`);
  }
}
