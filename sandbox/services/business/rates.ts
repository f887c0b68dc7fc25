/**
 * The request rates the business sandbox enforces, and declares in its target file (`rateLimit` for the
 * service, `rateGroups` by group) so that the suite paces its runs by them: one table, so that what it
 * declares is what it enforces. The vendor documents its own (3-NDFL 10/s, the tax-form upload 1/s,
 * nominal accounts 10/s, checkout order 20/s, bank statement 10/s, account operations 3/s; the service
 * 10/s); the sandbox is a loopback reference and enforces figures of its own, far higher, in the same
 * groups, so that a run against it is bound by its work rather than by a staging's pace. `undocumented`
 * is every operation of no group. Each limit counts every request of its service or group within one
 * second, whatever its token; a group's request counts when its token was let through (401 and 403
 * come first).
 */
import { SlidingWindowLimiter } from '../../rate-limiter.ts';
import type { ServiceContext } from '../../types.ts';

export const SERVICE_LIMIT = { requests: 1000, perSeconds: 1 };

/** The groups, first match wins; their keys are the suite's names for them (specs/rate-limits.yaml). */
const GROUPS: Array<{ key: string; pattern: RegExp; requests: number }> = [
  { key: 'ndfl3-upload', pattern: /^\/api\/v1\/ndfl-3\/requests\/[^/]+\/tax-form\/upload$/, requests: 20 },
  { key: 'ndfl3', pattern: /^\/api\/(private\/ndfl3|v1\/ndfl-3)\//, requests: 500 },
  { key: 'nominal-accounts', pattern: /^\/api\/v1\/nominal-accounts\//, requests: 500 },
  { key: 'checkout-order', pattern: /^\/api\/v\d+\/checkout\/order(\/|$)/, requests: 500 },
  { key: 'bank-statement', pattern: /^\/api\/v1\/bank-statement$/, requests: 500 },
  // A burst of twice it (selftest/business/runtime/rate-groups.test.ts) is one a busy machine still sends within the second.
  { key: 'account-operations', pattern: /^\/api\/v1\/account-operations$/, requests: 20 },
];
const UNDOCUMENTED = { key: 'undocumented', requests: 1000 };

/** The `rateGroups` of the target file: each group's limit per second. */
export function rateGroupsSection(): Record<string, { requests: number; perSeconds: number }> {
  return Object.fromEntries([...GROUPS, UNDOCUMENTED].map((g) => [g.key, { requests: g.requests, perSeconds: 1 }]));
}

export interface RateVerdict {
  limit: number;
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

/** The group of an operation, by its path template. */
export function rateGroupOf(template: string): string {
  return GROUPS.find((g) => g.pattern.test(template))?.key ?? UNDOCUMENTED.key;
}

/** The groups' counts of one sandbox (the service's: index.ts, with sandbox/service-limit.ts). */
export class BusinessRates {
  private readonly groups = new Map([...GROUPS, UNDOCUMENTED].map((g) => [g.key, new SlidingWindowLimiter(g.requests, 1000)]));

  /** Counts a request of the group (a key of the table). */
  hitGroup(key: string): RateVerdict {
    const limiter = this.groups.get(key);
    if (!limiter) throw new Error(`no business rate group ${key}`);
    const verdict = limiter.hit('all');
    return {
      limit: limiter.limit,
      allowed: verdict.allowed,
      remaining: verdict.remaining,
      retryAfterSeconds: Math.max(1, Math.ceil(verdict.resetMs / 1000)),
    };
  }
}

// One set of counts per sandbox (a process may run several, as the fault run does), shared by its parts.
const rates = new WeakMap<ServiceContext, BusinessRates>();

export function ratesOf(ctx: ServiceContext): BusinessRates {
  let found = rates.get(ctx);
  if (!found) rates.set(ctx, (found = new BusinessRates()));
  return found;
}
