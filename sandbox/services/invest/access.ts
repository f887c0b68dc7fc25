/**
 * Who may read which portfolio (spec 5.3, 7; vendor facts): at most its limit of requests per token (handler.ts),
 * a bearer token the sandbox knows, and an account of the token's own user.
 */
import type { Incoming } from '../../exchange.ts';
import { namedRules } from '../../faults/modifiers.ts';
import type { Account } from './accounts.ts';
import { FORBIDDEN, NOT_FOUND, RATE_LIMITED, UNAUTHENTICATED, type Rejection } from './answers.ts';

/** A bearer token is one word. */
export const BEARER = /^bearer\s+(\S+)\s*$/i;

/** What the handler knows of the caller before it reads the body. */
export interface Caller {
  request: Incoming;
  /** The token, when the sandbox knows it (the user it stands for). */
  owner?: string;
  limit: { allowed: boolean };
}

export const CALLER_RULES = namedRules<(caller: Caller) => Rejection | undefined>()({
  'rate-limit': ({ limit }) => (limit.allowed ? undefined : RATE_LIMITED),
  'token.present': ({ request }) => (request.headers.authorization === undefined ? UNAUTHENTICATED : undefined),
  'token.known': ({ request, owner }) => (request.headers.authorization !== undefined && owner === undefined ? UNAUTHENTICATED : undefined),
});

/** How the handler finds the account a request names. */
export type AccountLookup = (accounts: ReadonlyMap<string, Account>, accountId: string, owner: string | undefined) => Account | undefined;

export const LOOKUP_RULES = { 'account.lookup': ((accounts, accountId) => accounts.get(accountId)) as AccountLookup };

/** The account found (or not) for the caller. */
export interface Reading {
  account?: Account;
  owner?: string;
}

export const ACCOUNT_RULES = namedRules<(reading: Reading) => Rejection | undefined>()({
  'account.known': ({ account }) => (account === undefined ? NOT_FOUND : undefined),
  'account.owner': ({ account, owner }) =>
    owner !== undefined && account !== undefined && account.owner !== owner ? FORBIDDEN : undefined,
});
