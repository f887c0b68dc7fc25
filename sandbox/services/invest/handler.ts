/**
 * GetPortfolio as a function from request to answer, checks in order: rate limit, token, content type,
 * body, account; then the portfolio in the requested currency (spec 2.4, 4.3). Every check is a named
 * rule looked up in `rules`, so that a fault can replace one (faults.ts).
 */
import { randomBytes } from 'node:crypto';
import { bearerOf, type Incoming } from '../../exchange.ts';
import { firstFound } from '../../faults/modifiers.ts';
import { SlidingWindowLimiter } from '../../rate-limiter.ts';
import { ACCOUNT_RULES, BEARER, CALLER_RULES, LOOKUP_RULES } from './access.ts';
import type { Account } from './accounts.ts';
import { portfolioAnswer, rejectionAnswer, type PortfolioAnswer } from './answers.ts';
import { portfolioOf } from './portfolio.ts';
import { BODY_RULES, QUERY_RULES, queryOf, readBody } from './request.ts';

export const RULES = { ...CALLER_RULES, ...BODY_RULES, ...QUERY_RULES, ...LOOKUP_RULES, ...ACCOUNT_RULES };
/**
 * The limit per token: 20 requests a second, the sandbox's own figure (the vendor's, public facts, is
 * 200 a minute), declared so in its target file, so that its runs are paced by a second, not a minute,
 * and the rate-limit test's burst of twice the limit is 40 requests: a burst of 400 within one second
 * was more than a machine busy with other runs could send (BURST_TOO_SLOW), where 40 are not.
 */
export const SETTINGS = { requests: 20, perSeconds: 1 };

/** The types the GetPortfolio handler is written in, for its faults. */
export type PortfolioShape = { request: Incoming; answer: PortfolioAnswer; checks: typeof RULES; settings: typeof SETTINGS };

export interface PortfolioDeps extends Pick<PortfolioShape, 'checks' | 'settings'> {
  /** The development tokens; each stands for one user. */
  tokens: readonly string[];
  accounts: ReadonlyMap<string, Account>;
}

export function portfolioHandler({ checks, settings, tokens, accounts }: PortfolioDeps): (request: Incoming) => PortfolioAnswer {
  const limiter = new SlidingWindowLimiter(settings.requests, settings.perSeconds * 1000);

  return (request) => {
    const token = bearerOf(request, BEARER);
    const limit = limiter.hit(token ?? `ip:${request.ip}`);
    const headers = {
      'x-tracking-id': randomBytes(16).toString('hex'),
      'x-ratelimit-limit': String(settings.requests),
      'x-ratelimit-remaining': String(limit.remaining),
      'x-ratelimit-reset': String(Math.max(1, Math.ceil(limit.resetMs / 1000))),
    };
    const owner = token !== undefined && tokens.includes(token) ? token : undefined;
    const denied = firstFound(checks, CALLER_RULES, { request, owner, limit });
    if (denied) return rejectionAnswer(denied.rule, denied.found, headers);

    const read = readBody(request);
    const unreadable = firstFound(checks, BODY_RULES, read);
    if (unreadable) return rejectionAnswer(unreadable.rule, unreadable.found, headers);
    const body = (read.json as { value: Record<string, unknown> }).value;
    const invalid = firstFound(checks, QUERY_RULES, body);
    if (invalid) return rejectionAnswer(invalid.rule, invalid.found, headers);
    const query = queryOf(body);

    const account = checks['account.lookup'](accounts, query.accountId, owner);
    const refused = firstFound(checks, ACCOUNT_RULES, { account, owner });
    if (refused) return rejectionAnswer(refused.rule, refused.found, headers);
    // account.known refused a request whose account was not found.
    return portfolioAnswer(portfolioOf(account!, query.currency), { account: account!, currency: query.currency }, headers);
  };
}
