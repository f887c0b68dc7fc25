/**
 * Who may call what, and how often: the sandbox's own reading of spec 5.5 and the vendor's facts.
 *   - A bearer token with scopes. Scope names are not published: the sandbox invents one per
 *     operation group ("business:cards", ...). The development token holds every scope, the token
 *     without a scope holds none.
 *   - The documented request rates per group (3-NDFL 10/s, tax-form upload 1/s, nominal accounts
 *     10/s, checkout order 20/s, bank-statement 10/s, account-operations 3/s), per token; other
 *     groups have no documented limit and none is enforced.
 */
import { SlidingWindowLimiter } from '../../../rate-limiter.ts';

/** Operation groups by path, first match wins; each is also a scope `business:<group>`. */
const GROUPS: Array<[RegExp, string]> = [
  [/^\/api\/v\d+\/checkout\//, 'checkout'],
  [/^\/api\/(private\/ndfl3|v1\/ndfl-3)\//, 'ndfl3'],
  [/^\/api\/v1\/nominal-accounts\//, 'nominal-accounts'],
  [/^\/api\/v\d+\/(rules|agreements|requests)(\/|$)/, 'direct-debits'],
  [/^\/api\/v\d+\/(statement|account-operations|bank-statement|bank-accounts)(\/|$)/, 'accounts'],
  [/^\/api\/v1\/payment\//, 'payments'],
  [/^\/api\/v\d+\/self-employed\//, 'self-employed'],
  [/^\/api\/v1\/salary\//, 'salary'],
  [/^\/api\/v1\/(invoice|openapi\/invoice)\//, 'invoices'],
  [/^\/api\/v\d+\/card(\/|$)/, 'cards'],
  [/^\/api\/v1\/individual\//, 'individual'],
  [/^\/api\/v1\/company(\/|$)/, 'company'],
  [/^\/api\/v1\/counterparty\//, 'counterparty'],
  [/^\/api\/v1\/loyalty\//, 'loyalty'],
  [/^\/api\/v1\/special-accounts\//, 'special-accounts'],
  [/^\/api\/v1\/tacq\//, 'acquiring'],
  [/^\/api\/v1\/e-invoice(\/|$)/, 'e-invoice'],
  [/^\/api\/v1\/safe-deal\//, 'safe-deal'],
  [/^\/api\/v1\/delivery\//, 'delivery'],
  [/^\/tls\/api\/v1\/qualified-digital-signature\//, 'signature'],
  [/^\/api\/offline\/partners\//, 'offline-credit'],
];

export function groupOf(template: string): string {
  return GROUPS.find(([re]) => re.test(template))?.[1] ?? 'other';
}

export function scopeOf(template: string): string {
  return `business:${groupOf(template)}`;
}

export const ALL_SCOPES = [...new Set([...GROUPS.map(([, g]) => g), 'other'])].map((g) => `business:${g}`);

/** Documented limits (requests per second), first match wins. */
const RATE_GROUPS: Array<[RegExp, string, number]> = [
  [/^\/api\/v1\/ndfl-3\/requests\/[^/]+\/tax-form\/upload$/, 'ndfl3-tax-form-upload', 1],
  [/^\/api\/(private\/ndfl3|v1\/ndfl-3)\//, 'ndfl3', 10],
  [/^\/api\/v1\/nominal-accounts\//, 'nominal-accounts', 10],
  [/^\/api\/v\d+\/checkout\/order(\/|$)/, 'checkout-order', 20],
  [/^\/api\/v1\/bank-statement$/, 'bank-statement', 10],
  [/^\/api\/v1\/account-operations$/, 'account-operations', 3],
];

export interface RateVerdict {
  limit: number;
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

export class RateLimits {
  private readonly limiters = new Map<string, SlidingWindowLimiter>();

  /** Counts a request of `caller` to the operation; undefined when its group has no documented limit. */
  hit(template: string, caller: string): RateVerdict | undefined {
    const group = RATE_GROUPS.find(([re]) => re.test(template));
    if (!group) return undefined;
    const [, name, limit] = group;
    let limiter = this.limiters.get(name);
    if (!limiter) this.limiters.set(name, (limiter = new SlidingWindowLimiter(limit, 1000)));
    const verdict = limiter.hit(caller);
    return { limit, allowed: verdict.allowed, remaining: verdict.remaining, retryAfterSeconds: Math.max(1, Math.ceil(verdict.resetMs / 1000)) };
  }
}

export function bearerOf(authorization: string | undefined): string | undefined {
  const token = /^bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  return token && token.length > 0 ? token : undefined;
}
