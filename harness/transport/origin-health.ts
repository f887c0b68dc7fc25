/**
 * Gives up on an origin that keeps failing: after `GIVE_UP_AFTER` consecutive transport failures to
 * one origin (it could not be connected to, or did not answer within the deadline), every further
 * request to it fails at once with the same code, so a target that dies mid-run costs a few deadlines
 * per worker, not one per test. Any answer from the origin resets its count. A refused TLS handshake
 * or a reset connection does not count: it is what a secured host does to a client without a
 * certificate, and says nothing about the origin being down.
 */
import { ToolError, type ToolErrorCode } from '../errors.ts';

export const GIVE_UP_AFTER = 3;

interface Failures {
  count: number;
  code: ToolErrorCode;
  last: string;
}

export class OriginHealth {
  private readonly failures = new Map<string, Failures>();

  /** Throws at once when the origin has been given up on. */
  assertAlive(origin: string, operation: string): void {
    const f = this.failures.get(origin);
    if (!f || f.count < GIVE_UP_AFTER) return;
    throw new ToolError(f.code, `${operation}: not sent; gave up on ${origin} after ${f.count} consecutive failures (last: ${f.last})`);
  }

  failed(origin: string, error: ToolError): void {
    const f = this.failures.get(origin);
    const last = error.message.replace(/^[A-Z_]+: /, '');
    this.failures.set(origin, { count: (f?.count ?? 0) + 1, code: error.code as ToolErrorCode, last });
  }

  answered(origin: string): void {
    this.failures.delete(origin);
  }
}
