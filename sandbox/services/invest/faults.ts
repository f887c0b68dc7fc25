/**
 * The investment faults: each entry names what it breaks and says how, as an edit around the handler
 * (sandbox/faults/modifiers.ts): a rule replaced, the request or the answer edited. The handler
 * (handler.ts) and the portfolio (portfolio.ts) know none of them.
 */
import { bearerOf, type Incoming } from '../../exchange.ts';
import { editBody, editJsonBody, faultsOf, never, onRefusal, withHeader } from '../../faults/modifiers.ts';
import { BEARER, type AccountLookup } from './access.ts';
import { FORBIDDEN, INTERNAL, NOT_FOUND, reject, rejectionAnswer, type PortfolioAnswer, type Rejection } from './answers.ts';
import type { PortfolioShape } from './handler.ts';
import { amountOf, NANO, type Pair } from './money.ts';
import { portfolioOf } from './portfolio.ts';
import { decimalText, eachPair, moscowTime, setPair, subtract, TOTALS, type Kind } from './portfolio-edits.ts';
import { BAD_REQUEST_RULES, CURRENCY_CODES } from './request.ts';

type Node = Record<string, unknown>;

const f = faultsOf<PortfolioShape>('invest');

/** A portfolio answer; `foreign`: one whose totals were asked for in USD or EUR. */
const served = (a: PortfolioAnswer) => a.status === 200 && a.facts !== undefined;
const foreign = (a: PortfolioAnswer) => served(a) && a.facts!.currency !== 'rub';
const portfolio = (edit: (body: Node, a: PortfolioAnswer) => Node | void, when = served) => ({
  answer: editBody<PortfolioAnswer, Node>(when, edit),
});
const pairs = (edit: (pair: Pair, amount: bigint, kind: Kind) => void) =>
  portfolio((body) => eachPair(body, (pair, kind) => edit(pair, amountOf(pair), kind)));
/** The refusals of one rule answered with another rejection, headers kept. */
const instead = (rule: string, r: Rejection) => ({ answer: onRefusal(rule, (a: PortfolioAnswer) => rejectionAnswer(rule, r, a.headers)) });
const errors = (a: PortfolioAnswer) => a.status >= 400;
const lookup = (find: AccountLookup) => ({ checks: { 'account.lookup': find } });

export const investFaults = [
  f(
    'inv-nano-overflow',
    ['INV-VAL-002'],
    'a whole amount is written without carrying: 12 becomes units 11, nano 1000000000',
    pairs((pair, amount) => amount > 0n && amount % NANO === 0n && setPair(pair, amount / NANO - 1n, 1_000_000_000)),
  ),
  f(
    'inv-units-decimal',
    ['INV-VAL-001'],
    'MoneyValue units carry the whole decimal ("12.5") and nano 0',
    pairs((pair, amount, kind) => kind === 'money' && amount % NANO !== 0n && setPair(pair, decimalText(amount), 0)),
  ),
  f(
    'inv-opposite-signs',
    ['INV-VAL-003'],
    'negative amounts are split with floor division: -2.5 becomes units -3, nano 500000000',
    pairs(
      (pair, amount) =>
        amount < 0n && amount % NANO !== 0n && setPair(pair, amount / NANO - 1n, Number(amount - (amount / NANO - 1n) * NANO)),
    ),
  ),
  f(
    'inv-units-uint64-wrap',
    ['INV-VAL-004', 'INV-VAL-003'],
    'negative Quotation units are written as unsigned 64-bit integers: -3 becomes 18446744073709551613',
    pairs((pair, amount, kind) => kind === 'quotation' && amount / NANO < 0n && setPair(pair, 2n ** 64n + amount / NANO, pair.nano)),
  ),
  f(
    'inv-total-wrong-currency',
    ['INV-CUR-001', 'INV-CUR-003'],
    'with USD or EUR requested, totalAmountBonds stays in RUB',
    portfolio((body, a) => void (body.totalAmountBonds = portfolioOf(a.facts!.account, 'rub').totalAmountBonds), foreign),
  ),
  f('inv-default-not-rub', ['INV-CUR-002', 'INV-CUR-005'], 'with currency omitted the totals come in USD instead of the default RUB', {
    request: editJsonBody((body) => {
      if (body.currency === undefined || body.currency === null) body.currency = 'USD';
    }),
  }),
  f(
    'inv-currency-relabelled',
    ['INV-CUR-003'],
    'totals in USD or EUR are the RUB numbers with the requested currency written on them',
    portfolio((_body, a) => {
      const rub = portfolioOf(a.facts!.account, 'rub');
      for (const name of TOTALS) (rub[name] as Node).currency = a.facts!.currency;
      return rub;
    }, foreign),
  ),
  f('inv-currency-any', ['INV-CUR-004'], 'a currency outside RUB, USD, EUR is treated as RUB and served', {
    request: editJsonBody((body) => {
      if (body.currency !== undefined && body.currency !== null && !CURRENCY_CODES.includes(body.currency as string)) body.currency = 'RUB';
    }),
  }),
  f(
    'inv-virtual-expire-local',
    ['INV-VIR-001'],
    'virtual positions expire at a Moscow-time date-time (+03:00), not UTC',
    portfolio((body) => (body.virtualPositions as Node[]).forEach((v) => (v.expireDate = moscowTime(v.expireDate as string)))),
  ),
  f(
    'inv-portfolio-total-off',
    ['INV-TOT-001'],
    'totalAmountPortfolio leaves out the options total',
    portfolio((body) => subtract(body.totalAmountPortfolio as Pair, body.totalAmountOptions as Pair)),
  ),
  f(
    'inv-total-omitted',
    ['INV-TOT-002'],
    'totalAmountOptions is left out of every portfolio',
    portfolio((body) => void delete body.totalAmountOptions),
  ),
  f(
    'inv-account-id-number',
    ['INV-RSP-001'],
    'accountId is written as a JSON number, as an int64 column would be',
    portfolio((body) => void (body.accountId = Number(body.accountId))),
  ),
  f(
    'inv-account-ignored',
    ['INV-RSP-002'],
    "the token's first account is served whatever accountId asks for",
    lookup((accounts, accountId) => {
      const asked = accounts.get(accountId);
      return asked && [...accounts.values()].find((a) => a.owner === asked.owner);
    }),
  ),
  f('inv-empty-portfolio-204', ['INV-STA-001', 'INV-GEN-001'], 'an account without positions is answered 204 No Content', {
    answer: (a) => {
      if (!served(a) || a.facts!.account.holdings.length > 0) return a;
      const { 'content-type': _json, ...headers } = a.headers;
      return { status: 204, headers };
    },
  }),
  f('inv-no-ratelimit-headers', ['INV-HDR-001'], 'answers carry no x-ratelimit-* headers', {
    answer: (a) => ({ ...a, headers: Object.fromEntries(Object.entries(a.headers).filter(([name]) => !name.startsWith('x-ratelimit-'))) }),
  }),
  f('inv-no-rate-limit', ['INV-RAT-001'], 'the rate limit is counted and reported in the headers but never enforced', {
    checks: { 'rate-limit': never },
  }),
  f('inv-no-auth', ['INV-AUT-001'], 'a request without a token is served', { checks: { 'token.present': never } }),
  f('inv-unknown-token-served', ['INV-AUT-002'], 'a bearer token the service does not know is served as if it were valid', {
    checks: { 'token.known': never },
  }),
  f('inv-bad-token-403', ['INV-AUT-005'], 'an unknown token is answered 403 instead of 401', {
    answer: onRefusal('token.known', (a: PortfolioAnswer, request: Incoming) =>
      bearerOf(request, BEARER) ? rejectionAnswer('token.known', FORBIDDEN, a.headers) : a,
    ),
  }),
  f('inv-foreign-account-readable', ['INV-AUT-003'], 'any valid token may read any account (broken object-level authorization)', {
    checks: { 'account.owner': never },
  }),
  f(
    'inv-foreign-account-404',
    ['INV-AUT-004'],
    "an account the token has no access to is refused 404, as an unknown one is: a refusal, but not the vendor's 403 40002",
    instead('account.owner', NOT_FOUND),
  ),
  f(
    'inv-unknown-account-200',
    ['INV-ACC-001'],
    'an unknown account is answered 200 with an empty portfolio',
    lookup((accounts, accountId, owner) => accounts.get(accountId) ?? { id: accountId, owner: owner ?? '', holdings: [], virtual: [] }),
  ),
  f('inv-unknown-account-403', ['INV-ACC-002'], 'an unknown account is answered 403 instead of 404', instead('account.known', FORBIDDEN)),
  f(
    'inv-missing-account-500',
    ['INV-REQ-001'],
    'a request without accountId crashes the handler (500)',
    instead('accountId.required', INTERNAL),
  ),
  f('inv-account-id-coerced', ['INV-REQ-002'], 'a numeric accountId is coerced to a string and served', {
    request: editJsonBody((body) => {
      if (typeof body.accountId === 'number') body.accountId = String(body.accountId);
    }),
  }),
  f('inv-malformed-json-500', ['INV-ERR-001'], 'a malformed JSON body crashes the handler (500)', instead('body.json', INTERNAL)),
  f(
    'inv-bad-request-422',
    ['INV-REQ-003'],
    'a request outside the request table (a wrong type, an unknown currency, malformed JSON) is refused 422 instead of 400',
    {
      answer: (a) => (a.refusedBy !== undefined && BAD_REQUEST_RULES.includes(a.refusedBy) ? { ...a, status: 422 } : a),
    },
  ),
  f('inv-form-body-accepted', ['INV-ERR-002'], 'a form-encoded body is parsed and served instead of refused', {
    request: (r) =>
      r.contentType === 'application/x-www-form-urlencoded'
        ? { ...r, contentType: 'application/json', text: JSON.stringify(Object.fromEntries(new URLSearchParams(r.text))) }
        : r,
  }),
  f('inv-error-without-description', ['INV-ERR-003'], 'error bodies lack the description (API error code)', {
    answer: editBody<PortfolioAnswer, Node>(errors, (body) => void delete body.description),
  }),
  f('inv-error-text-plain', ['INV-CTY-001'], 'error answers carry their JSON body labelled text/plain', {
    answer: (a) => (errors(a) ? withHeader(a, 'content-type', 'text/plain; charset=utf-8') : a),
  }),
  f(
    'inv-portfolio-as-message',
    ['INV-RSP-001'],
    'a portfolio is answered 200 with an error message instead ({"code":5,"message":"account not found"}: a gateway passing a backend error on as a success)',
    portfolio(() => ({ code: 5, message: 'account not found' })),
  ),
  f(
    'inv-virtual-expire-mixed-form',
    ['INV-RSP-001'],
    'virtual positions expire at a date-time that mixes ISO 8601 formats: an extended date, a basic time (2026-12-21T210000Z)',
    portfolio((body) =>
      (body.virtualPositions as Node[]).forEach(
        (v) => (v.expireDate = (v.expireDate as string).replace(/T(\d\d):(\d\d):(\d\d)/, 'T$1$2$3')),
      ),
    ),
  ),
  f(
    'inv-no-account-id',
    ['INV-RSP-003'],
    'the portfolio leaves out accountId',
    portfolio((body) => void delete body.accountId),
  ),
  f(
    'inv-no-token-400',
    ['INV-AUT-006', 'INV-AUT-005'],
    'a request without a token is refused 400, as a request missing a required header',
    instead('token.present', reject(400, 3, 'the authorization header is required', 30001)),
  ),
  f(
    'inv-blocked-text-in-foreign-currency',
    ['INV-GEN-001'],
    'with USD or EUR requested, positions carry blocked as the string "false"',
    portfolio((body) => (body.positions as Node[]).forEach((p) => (p.blocked = String(p.blocked))), foreign),
  ),
];
