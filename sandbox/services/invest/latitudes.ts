/**
 * The invest latitudes: the mirror of faults.ts. Each entry changes the sandbox's answers *within what the
 * spec allows*, quotes the spec's words that allow it (`allows`), and says how, as an edit around the
 * handler (sandbox/faults/modifiers.ts). While one is on, no test of a `spec` or `configuration`
 * requirement may fail (selftest/latitude-run.ts).
 */
import { reversedKeys, withoutBody } from '../../faults/answer-edits.ts';
import { editBody, latitudesOf, onRefusal, type ModifierLatitude } from '../../faults/modifiers.ts';
import { FORBIDDEN, NOT_FOUND, reject, rejectionAnswer, type PortfolioAnswer, type Rejection } from './answers.ts';
import type { PortfolioShape } from './handler.ts';
import { eachPair } from './portfolio-edits.ts';
import { BAD_REQUEST_RULES } from './request.ts';

type Node = Record<string, unknown>;

const latitude = latitudesOf<PortfolioShape>('invest');

const served = (a: PortfolioAnswer) => a.status === 200 && a.facts !== undefined;
const portfolio = (edit: (body: Node) => Node | void) => ({ answer: editBody<PortfolioAnswer, Node>(served, edit) });
/** The refusals of the named rules answered with another rejection, headers kept. */
const instead = (checks: string[], r: Rejection) => ({
  answer: (a: PortfolioAnswer) =>
    a.refusedBy !== undefined && checks.includes(a.refusedBy) ? rejectionAnswer(a.refusedBy, r, a.headers) : a,
});
const positionsOf = (body: Node) => [
  ...((body.positions as Node[] | undefined) ?? []),
  ...((body.virtualPositions as Node[] | undefined) ?? []),
];
const eachExpireDate = (edit: (utc: string) => string) =>
  portfolio((body) => ((body.virtualPositions as Node[] | undefined) ?? []).forEach((v) => (v.expireDate = edit(v.expireDate as string))));

/** proto3's JSON mapping: a field that holds its type's default (0, "0" for an int64, "", false, an empty list) is left out. */
function withoutDefaults(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(withoutDefaults);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const o = node as Node;
  for (const [key, value] of Object.entries(o)) {
    if (
      value === 0 ||
      value === '' ||
      value === false ||
      (key === 'units' && value === '0') ||
      (Array.isArray(value) && value.length === 0)
    )
      delete o[key];
    else withoutDefaults(value);
  }
}

const PART_7 = '403 Forbidden; 404 Not Found';
const EXPIRE = 'expireDate | string, date-time (ISO 8601, UTC)';
const RESPONSE = 'Response 200: the portfolio of 2.4.';

export const investLatitudes: ModifierLatitude<PortfolioShape>[] = [
  latitude(
    'inv-lat-403-for-404',
    [PART_7],
    'an accountId that names no account is refused with 403 instead of 404',
    instead(['account.known'], FORBIDDEN),
    'Part 7 lists both and maps neither to a case; 403 also hides whether the account exists.',
  ),
  latitude(
    'inv-lat-404-for-403',
    [PART_7],
    "another user's account is refused with 404 instead of 403",
    instead(['account.owner'], NOT_FOUND),
    'Part 7 lists both; 404 hides that the account exists at all.',
  ),
  latitude(
    'inv-lat-404-for-missing-account',
    ['accountId | string | user account identifier; required by the account semantics', '404 Not Found'],
    'a request without accountId is refused with 404, as a lookup of an empty id finds no account',
    instead(['accountId.required'], NOT_FOUND),
  ),
  latitude(
    'inv-lat-403-for-401',
    ['Security scheme: bearer API token.', '401 Unauthorized; 403 Forbidden'],
    'a request without a token, or with an unknown or malformed one, is refused with 403 instead of 401',
    instead(['token.present', 'token.known'], reject(403, 7, 'Access denied', 40002)),
    'Part 7 lists both statuses and maps neither to a case.',
  ),
  latitude(
    'inv-lat-404-for-no-credentials',
    ['Security scheme: bearer API token.', '404 Not Found', 'default: unexpected error'],
    'a request without a token, or with a token the service does not know, is answered 404, as a gateway that hides its routes from callers without credentials does',
    instead(['token.present', 'token.known'], NOT_FOUND),
    'Part 7 lists 404 Not Found for the method and maps no status to a case; the call is refused all the same. HTTP would say 401 (INV-AUT-006, a policy).',
  ),
  latitude(
    'inv-lat-422-for-bad-request',
    ['Error statuses: see part 7.', 'default: unexpected error'],
    'a request the method cannot serve as 4.3 writes it (no accountId, a wrong type, an unknown currency, a body that is not JSON or not labelled JSON) is refused 422 Unprocessable Entity',
    {
      answer: (a: PortfolioAnswer) =>
        a.refusedBy !== undefined && [...BAD_REQUEST_RULES, 'accountId.required', 'body.content-type'].includes(a.refusedBy)
          ? { ...a, status: 422 }
          : a,
    },
    'Part 7 lists statuses without mapping a case to one and ends with a default; a validating framework (FastAPI, a JSON Schema gateway) answers every unreadable request 422.',
  ),
  latitude(
    'inv-lat-400-for-415',
    ['400 Bad Request', '415 Unsupported Media Type'],
    'a body that is not JSON is refused with 400 instead of 415',
    {
      answer: onRefusal('body.content-type', (a: PortfolioAnswer) => ({ ...a, status: 400 })),
    },
  ),
  latitude(
    'inv-lat-zero-values-omitted',
    ['MoneyValue | currency (string), units (string, whole part), nano (integer, fractional part)', RESPONSE],
    'zero values are left out as proto3 JSON leaves them: units "0", nano 0, false, empty strings and empty lists',
    portfolio((body) => withoutDefaults(body)),
    'The path names a gRPC service; proto3 JSON omits default values, and nothing in 2.3 or 2.4 asks for them.',
  ),
  latitude(
    'inv-lat-optional-fields-absent',
    [RESPONSE],
    'fields the backend does not compute are left out: accountId, the yields, the options and structured-product totals, and some position prices',
    portfolio((body) => {
      for (const key of ['accountId', 'expectedYield', 'dailyYieldRelative', 'totalAmountOptions', 'totalAmountSp']) delete body[key];
      for (const p of positionsOf(body))
        for (const key of ['averagePositionPricePt', 'currentNkd', 'varMargin', 'expectedYieldFifo']) delete p[key];
    }),
    '2.4 lists the fields and their types and marks none required.',
  ),
  latitude(
    'inv-lat-extra-fields',
    [RESPONSE],
    'the portfolio, its positions and its totals carry fields 2.4 does not name',
    portfolio((body) => {
      Object.assign(body, { brokerAccountType: 'BROKER', updatedAt: new Date().toISOString() });
      for (const p of positionsOf(body))
        Object.assign(p, { instrumentKind: `INSTRUMENT_TYPE_${String(p.instrumentType).toUpperCase()}`, lotsAvailable: 1 });
      (body.totalAmountPortfolio as Node).displayName = 'portfolio';
    }),
    '2.4 lists fields and does not say the list is closed; a newer contract adds fields.',
  ),
  latitude(
    'inv-lat-key-order',
    ['All bodies are JSON unless stated.', RESPONSE],
    'every object of the portfolio has its keys in reverse order',
    portfolio((body) => reversedKeys(body) as Node),
    'JSON objects are unordered (RFC 8259).',
  ),
  latitude(
    'inv-lat-units-signed',
    ['units (string, whole part)'],
    'a positive units carries a plus sign ("+12")',
    portfolio((body) => eachPair(body, (pair) => void (/^[1-9]/.test(pair.units) && (pair.units = `+${pair.units}`)))),
    '"+12" writes the whole part 12 as a decimal string, and protobuf JSON parsers read it.',
  ),
  latitude(
    'inv-lat-expire-fraction',
    [EXPIRE],
    'expireDate carries nine fractional digits of the second (2026-12-21T21:00:00.250000000Z)',
    eachExpireDate((utc) => utc.replace(/Z$/, '.250000000Z')),
  ),
  latitude(
    'inv-lat-expire-zero-offset',
    [EXPIRE],
    'expireDate writes UTC as the offset +00:00 instead of Z',
    eachExpireDate((utc) => utc.replace(/Z$/, '+00:00')),
  ),
  latitude(
    'inv-lat-expire-minutes',
    [EXPIRE],
    'expireDate is written to the minute (2026-12-21T21:00Z), as ISO 8601 allows',
    eachExpireDate((utc) => utc.replace(/:00Z$/, 'Z')),
  ),
  latitude(
    'inv-lat-error-without-body',
    ['Error body shape for the portfolio and surrender operations: not shown.'],
    'every refusal is told by its status alone, with no body',
    {
      answer: (a: PortfolioAnswer) => (a.status >= 400 ? withoutBody(a) : a),
    },
  ),
  latitude(
    'inv-lat-no-positions',
    ['positions | array of Position', 'virtualPositions | array of VirtualPosition'],
    'the portfolio lists no positions and no virtual positions (empty lists), its totals kept',
    portfolio((body) => Object.assign(body, { positions: [], virtualPositions: [] })),
    'A list may be empty; 2.4 ties no total to the positions listed.',
  ),
];
