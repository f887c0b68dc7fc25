/**
 * Who may call the surrender method (spec 5.4, 8): at most 20 requests per second per client, a bearer
 * token the sandbox knows, and both partner scopes. 5.4 names the scopes only by purpose (interaction
 * with partners, transfer of partner data) and names no scheme: bearer is the sandbox's choice.
 */
import type { Incoming } from '../../exchange.ts';
import { namedRules } from '../../faults/modifiers.ts';
import type { Refusal } from './answers.ts';

export const INTERACTION = 'partners.interaction';
export const DATA_TRANSFER = 'partners.data-transfer';
export const PARTNER_SCOPES = [INTERACTION, DATA_TRANSFER];

/** What the handler knows of the caller before it reads the body. */
export interface Caller {
  request: Incoming;
  token?: string;
  /** The token's scopes; undefined when there is no token or the sandbox does not know it. */
  scopes?: readonly string[];
  /** The rate limiter's verdict on this request. */
  limit: { allowed: boolean; limit: number; resetMs: number };
}

const lacking =
  (scope: string) =>
  (caller: Caller): Refusal | undefined =>
    caller.scopes && !caller.scopes.includes(scope)
      ? { status: 403, code: 'FORBIDDEN', message: `the token lacks the scope ${scope}` }
      : undefined;

/** The rules on the caller, in the order they are checked. */
export const CALLER_RULES = namedRules<(caller: Caller) => Refusal | undefined>()({
  'rate-limit': ({ limit }) => {
    if (limit.allowed) return undefined;
    const seconds = String(Math.max(1, Math.ceil(limit.resetMs / 1000)));
    return {
      status: 429,
      code: 'TOO_MANY_REQUESTS',
      message: `more than ${limit.limit} requests per second`,
      headers: { 'retry-after': seconds, 'x-ratelimit-reset': seconds },
    };
  },
  'auth.bearer': ({ token }) =>
    token === undefined ? { status: 401, code: 'UNAUTHENTICATED', message: 'a bearer token is required' } : undefined,
  'auth.known': ({ token, scopes }) =>
    token !== undefined && scopes === undefined ? { status: 401, code: 'UNAUTHENTICATED', message: 'the token is not valid' } : undefined,
  'auth.scope.interaction': lacking(INTERACTION),
  'auth.scope.data-transfer': lacking(DATA_TRANSFER),
  // X-Request-Id traces a request; it does not affect execution (4.4): no value, or none, is refused.
  'request-id': () => undefined,
});
