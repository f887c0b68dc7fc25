/**
 * The error matrix of spec 5.3 and 7: one request per case, as data (the client sends it and memoises
 * the answer per test file, so the spec's status check, the vendor's stricter status and the vendor's
 * error body all read the same answer). A case that needs a key the target file lacks throws a skip that
 * names the key: CREDENTIAL_MISSING for a token, FIXTURE_MISSING for an account.
 */
import { randomUUID } from 'node:crypto';
import { fixtureOf, mainAccount } from '../../harness/invest/config.ts';
import type { PortfolioRequest } from '../../harness/invest/portfolio.ts';
import { credentialOf, type Target } from '../../harness/config/target.ts';
import { unknownAccountLike } from './portfolio.ts';

type Context = { target: Target };

export interface PortfolioErrorCase {
  id: string;
  /** What is wrong with the request, for test titles. */
  what: string;
  request(t: Context): PortfolioRequest;
  /** The vendor's answer for the case (public facts), where the vendor documents one. */
  vendor?: { status: number; description: number };
}

const account = mainAccount;

/** The target's account id as a JSON number, written raw so that long ids keep every digit. */
const accountAsNumber = (t: Context) => (/^[1-9][0-9]{0,17}$/.test(account(t)) ? account(t) : '2000123456');

export const ERROR_CASES: readonly PortfolioErrorCase[] = [
  {
    id: 'no-token',
    what: 'no Authorization header',
    request: (t) => ({ body: { accountId: account(t) }, options: { token: null } }),
    vendor: { status: 401, description: 40003 },
  },
  {
    id: 'unknown-token',
    what: 'an unknown bearer token',
    request: (t) => ({ body: { accountId: account(t) }, options: { token: `pc-unknown-${randomUUID()}` } }),
    vendor: { status: 401, description: 40003 },
  },
  {
    id: 'malformed-token',
    what: 'a malformed bearer credential ("Bearer not a token")',
    request: (t) => ({ body: { accountId: account(t) }, options: { authorization: 'Bearer not a token' } }),
    vendor: { status: 401, description: 40003 },
  },
  {
    id: 'other-account',
    what: 'the token reading services.invest.otherAccountId',
    request: (t) => ({ body: { accountId: fixtureOf(t, 'otherAccountId') } }),
    vendor: { status: 403, description: 40002 },
  },
  {
    id: 'token-without-access',
    what: 'services.invest.tokenWithoutAccess reading accountId',
    request: (t) => ({ body: { accountId: account(t) }, options: { token: credentialOf(t.target, 'invest', 'tokenWithoutAccess') } }),
    vendor: { status: 403, description: 40002 },
  },
  {
    id: 'unknown-account',
    what: 'a well-formed accountId that names no account',
    request: (t) => ({ body: { accountId: unknownAccountLike(t) } }),
    vendor: { status: 404, description: 50004 },
  },
  {
    id: 'missing-account',
    what: 'no accountId',
    request: () => ({ body: { currency: 'RUB' } }),
    vendor: { status: 400, description: 30021 },
  },
  {
    id: 'account-number',
    what: 'accountId as a JSON number',
    request: (t) => ({ options: { raw: `{"accountId": ${accountAsNumber(t)}, "currency": "RUB"}` } }),
  },
  { id: 'account-object', what: 'accountId as a JSON object', request: (t) => ({ body: { accountId: { id: account(t) } } }) },
  { id: 'currency-gbp', what: 'currency GBP', request: (t) => ({ body: { accountId: account(t), currency: 'GBP' } }) },
  {
    id: 'currency-rur',
    what: 'currency RUR (the retired ruble code)',
    request: (t) => ({ body: { accountId: account(t), currency: 'RUR' } }),
  },
  { id: 'json-truncated', what: 'a truncated JSON body', request: (t) => ({ options: { raw: `{"accountId": "${account(t)}", "curr` } }) },
  {
    id: 'json-trailing',
    what: 'JSON followed by garbage',
    request: (t) => ({ options: { raw: `${JSON.stringify({ accountId: account(t) })}bla` } }),
  },
  {
    id: 'form-body',
    what: 'a form-encoded body (application/x-www-form-urlencoded)',
    request: (t) => ({
      options: {
        raw: new URLSearchParams({ accountId: account(t), currency: 'RUB' }).toString(),
        contentType: 'application/x-www-form-urlencoded',
      },
    }),
  },
];

export function errorCase(id: string): PortfolioErrorCase {
  const found = ERROR_CASES.find((c) => c.id === id);
  if (!found) throw new Error(`no error case "${id}"`);
  return found;
}
