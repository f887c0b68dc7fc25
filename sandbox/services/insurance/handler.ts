/**
 * The surrender method as a function from request to answer, in the order the spec's parts apply:
 * the caller (rate limit, token, scopes; 5.4, 8), the body read as JSON (4), its shape (2.5, 4.4: 400),
 * what cannot be processed (422), then the contract stored and answered 201 (2.5, 7). Every check is a
 * named check looked up in `checks`, so that a fault can replace one (faults.ts).
 */
import { bearerOf, jsonAnswer, readJsonBody, type Answer, type Incoming } from '../../exchange.ts';
import { firstFound } from '../../faults/modifiers.ts';
import { SlidingWindowLimiter } from '../../rate-limiter.ts';
import { CALLER_RULES, type Caller } from './access.ts';
import { invalid, refusalAnswer, unprocessable } from './answers.ts';
import { ContractStore, type SurrenderRequest } from './store.ts';
import { BODY_RULES, PROCESSING_RULES, SHAPE_RULES } from './validate.ts';

export const RULES = { ...CALLER_RULES, ...BODY_RULES, ...SHAPE_RULES, ...PROCESSING_RULES };
/** perSecond: requests per second per client (spec 8). */
export const SETTINGS = { perSecond: 20 };

/** The types the surrender handler is written in, for its faults. */
export type SurrenderShape = { request: Incoming; answer: Answer; checks: typeof RULES; settings: typeof SETTINGS };

export interface SurrenderDeps extends Pick<SurrenderShape, 'checks' | 'settings'> {
  /** Each known token with its scopes. */
  tokens: ReadonlyMap<string, readonly string[]>;
  providerName: string;
}

export function surrenderHandler({ checks, settings, tokens, providerName }: SurrenderDeps): (request: Incoming) => Answer {
  const limiter = new SlidingWindowLimiter(settings.perSecond, 1000);
  const store = new ContractStore(providerName);

  return (request) => {
    const token = bearerOf(request);
    const verdict = limiter.hit(token ?? request.ip);
    const requestId = request.headers['x-request-id'];
    const headers: Record<string, string> = {
      ...(typeof requestId === 'string' ? { 'x-request-id': requestId } : {}),
      'x-ratelimit-limit': String(settings.perSecond),
      'x-ratelimit-remaining': String(verdict.remaining),
    };
    const caller: Caller = {
      request,
      token,
      scopes: token === undefined ? undefined : tokens.get(token),
      limit: { ...verdict, limit: settings.perSecond },
    };
    const denied = firstFound(checks, CALLER_RULES, caller);
    if (denied) return refusalAnswer(denied.rule, denied.found, headers);

    const read = readJsonBody(request);
    const unreadable = firstFound(checks, BODY_RULES, read);
    if (unreadable) return refusalAnswer(unreadable.rule, unreadable.found, headers);
    const body = (read.json as { value: Record<string, unknown> }).value;

    const broken = firstFound(checks, SHAPE_RULES, body);
    if (broken) return refusalAnswer(broken.rule, invalid(broken.found), headers);
    const cannot = firstFound(checks, PROCESSING_RULES, body);
    if (cannot) return refusalAnswer(cannot.rule, unprocessable(cannot.found), headers);

    return jsonAnswer(201, store.save(body as unknown as SurrenderRequest), headers);
  };
}
