/**
 * What GetPortfolio answers: the portfolio (200), or the vendor's error body
 * { code: <gRPC code>, message, description: <API error code> } (public facts).
 */
import { jsonAnswer, type Answer } from '../../exchange.ts';
import type { Account } from './accounts.ts';
import type { Currency } from './money.ts';

export interface Rejection {
  status: number;
  code: number;
  message: string;
  description: number;
}

/** What a portfolio answer served, for the faults that edit it. */
export interface Served {
  account: Account;
  currency: Currency;
}

export type PortfolioAnswer = Answer<Served>;

export const reject = (status: number, code: number, message: string, description: number): Rejection => ({
  status,
  code,
  message,
  description,
});

export const UNAUTHENTICATED = reject(401, 16, 'Authentication token is missing or invalid', 40003);
export const FORBIDDEN = reject(403, 7, 'Insufficient privileges', 40002);
export const NOT_FOUND = reject(404, 5, 'Account not found', 50004);
export const RATE_LIMITED = reject(429, 8, 'Request limit exceeded', 80002);
/** What a crashing handler answers (faults only). */
export const INTERNAL = reject(500, 13, 'Internal error', 70001);

export function rejectionAnswer(rule: string, r: Rejection, headers: Record<string, string>): PortfolioAnswer {
  return { ...jsonAnswer(r.status, { code: r.code, message: r.message, description: r.description }, headers), refusedBy: rule };
}

export function portfolioAnswer(body: Record<string, unknown>, served: Served, headers: Record<string, string>): PortfolioAnswer {
  return { ...jsonAnswer(200, body, headers), facts: served };
}
