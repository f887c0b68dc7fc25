/**
 * The error matrix of spec 5.3 and 7: one request per case, memoised per test file, so the spec's
 * status check, the vendor's stricter status and the vendor's error body all read the same answer.
 * A case that needs a key the target file lacks throws a skip that names the key: CREDENTIAL_MISSING for
 * a token, FIXTURE_MISSING for an account.
 */
import { randomUUID } from 'node:crypto';
import type { CapturedResponse } from '../../harness/http.ts';
import type { RequirementContext } from '../../harness/suite.ts';
import { credentialOf } from '../../harness/target.ts';
import { fixtureOf, mainAccount, sendPortfolio, unknownAccountLike } from '../../harness/invest/client.ts';
import { ScopedMap } from '../../harness/runner/run-scope.ts';

export interface ErrorCase {
  id: string;
  /** What is wrong with the request, for test titles. */
  what: string;
  send(t: RequirementContext): Promise<CapturedResponse>;
  /** The vendor's answer for the case (public facts), where the vendor documents one. */
  vendor?: { status: number; description: number };
}

const account = mainAccount;

/** The target's account id as a JSON number, written raw so that long ids keep every digit. */
const accountAsNumber = (t: RequirementContext) => (/^[1-9][0-9]{0,17}$/.test(account(t)) ? account(t) : '2000123456');

export const ERROR_CASES: readonly ErrorCase[] = [
  { id: 'no-token', what: 'no Authorization header', send: (t) => sendPortfolio(t, { accountId: account(t) }, { token: null }), vendor: { status: 401, description: 40003 } },
  {
    id: 'unknown-token',
    what: 'an unknown bearer token',
    send: (t) => sendPortfolio(t, { accountId: account(t) }, { token: `pc-unknown-${randomUUID()}` }),
    vendor: { status: 401, description: 40003 },
  },
  {
    id: 'malformed-token',
    what: 'a malformed bearer credential ("Bearer not a token")',
    send: (t) => sendPortfolio(t, { accountId: account(t) }, { authorization: 'Bearer not a token' }),
    vendor: { status: 401, description: 40003 },
  },
  {
    id: 'other-account',
    what: 'the token reading services.invest.otherAccountId',
    send: (t) => sendPortfolio(t, { accountId: fixtureOf(t, 'otherAccountId') }),
    vendor: { status: 403, description: 40002 },
  },
  {
    id: 'token-without-access',
    what: 'services.invest.tokenWithoutAccess reading accountId',
    send: (t) => sendPortfolio(t, { accountId: account(t) }, { token: credentialOf(t.target, 'invest', 'tokenWithoutAccess') }),
    vendor: { status: 403, description: 40002 },
  },
  { id: 'unknown-account', what: 'a well-formed accountId that names no account', send: (t) => sendPortfolio(t, { accountId: unknownAccountLike(t) }), vendor: { status: 404, description: 50004 } },
  { id: 'missing-account', what: 'no accountId', send: (t) => sendPortfolio(t, { currency: 'RUB' }), vendor: { status: 400, description: 30021 } },
  { id: 'account-number', what: 'accountId as a JSON number', send: (t) => sendPortfolio(t, undefined, { raw: `{"accountId": ${accountAsNumber(t)}, "currency": "RUB"}` }) },
  { id: 'account-object', what: 'accountId as a JSON object', send: (t) => sendPortfolio(t, { accountId: { id: account(t) } }) },
  { id: 'currency-gbp', what: 'currency GBP', send: (t) => sendPortfolio(t, { accountId: account(t), currency: 'GBP' }) },
  { id: 'currency-rur', what: 'currency RUR (the retired ruble code)', send: (t) => sendPortfolio(t, { accountId: account(t), currency: 'RUR' }) },
  { id: 'json-truncated', what: 'a truncated JSON body', send: (t) => sendPortfolio(t, undefined, { raw: `{"accountId": "${account(t)}", "curr` }) },
  { id: 'json-trailing', what: 'JSON followed by garbage', send: (t) => sendPortfolio(t, undefined, { raw: `${JSON.stringify({ accountId: account(t) })}bla` }) },
  {
    id: 'form-body',
    what: 'a form-encoded body (application/x-www-form-urlencoded)',
    send: (t) => sendPortfolio(t, undefined, { raw: new URLSearchParams({ accountId: account(t), currency: 'RUB' }).toString(), contentType: 'application/x-www-form-urlencoded' }),
  },
];

export function errorCase(id: string): ErrorCase {
  const found = ERROR_CASES.find((c) => c.id === id);
  if (!found) throw new Error(`no error case "${id}"`);
  return found;
}

const answers = new ScopedMap<string, Promise<CapturedResponse>>();

export function answerTo(t: RequirementContext, id: string): Promise<CapturedResponse> {
  let answer = answers.get(id);
  if (!answer) {
    answer = errorCase(id).send(t);
    answers.set(id, answer);
  }
  return answer;
}
