/**
 * Reading a GetPortfolio request (spec 4.3) the way a gRPC-JSON gateway would, as named rules in the
 * order they are checked: JSON only, accountId a non-empty string, currency one of RUB, USD, EUR
 * (default RUB). Each rule refuses with the vendor's API error code for its problem (public facts); an
 * unparsable body has no vendor code, so the sandbox uses 30000.
 */
import { readJsonBody, type BodyRead, type Incoming } from '../../exchange.ts';
import { namedRules } from '../../faults/modifiers.ts';
import type { Currency } from './money.ts';
import { reject, type Rejection } from './answers.ts';
import { isJsonObject } from '../../json.ts';

export interface PortfolioQuery {
  accountId: string;
  currency: Currency;
}

const CURRENCIES: Record<string, Currency> = { RUB: 'rub', USD: 'usd', EUR: 'eur' };
export const CURRENCY_CODES = Object.keys(CURRENCIES);
export const UNPARSABLE = 30000;

type Node = Record<string, unknown>;
const isObject = (v: unknown): v is Node => isJsonObject<Node>(v);
const absent = (v: unknown) => v === undefined || v === null;

/** An empty body is an empty message, as a gRPC-JSON gateway reads it. */
export const readBody = (request: Incoming): BodyRead => readJsonBody(request, request.text.trim() === '' ? '{}' : request.text);

export const BODY_RULES = namedRules<(read: BodyRead) => Rejection | undefined>()({
  'body.content-type': ({ request: { contentType } }) =>
    contentType !== 'application/json'
      ? reject(415, 3, `unsupported content type "${contentType || '(none)'}": send application/json`, UNPARSABLE)
      : undefined,
  'body.json': ({ json }) => ('error' in json ? reject(400, 3, `the body is not valid JSON: ${json.error}`, UNPARSABLE) : undefined),
  'body.object': ({ json }) =>
    'value' in json && !isObject(json.value) ? reject(400, 3, 'the body must be a JSON object', UNPARSABLE) : undefined,
});

export const QUERY_RULES = namedRules<(body: Node) => Rejection | undefined>()({
  'accountId.required': ({ accountId }) =>
    absent(accountId) || accountId === '' ? reject(400, 3, 'Missing parameter: `account_id`', 30021) : undefined,
  'accountId.type': ({ accountId }) => (typeof accountId !== 'string' ? reject(400, 3, '`account_id` is invalid', 30022) : undefined),
  'currency.enum': ({ currency }) =>
    !absent(currency) && !(typeof currency === 'string' && Object.hasOwn(CURRENCIES, currency))
      ? reject(400, 3, `currency ${JSON.stringify(currency)} is not one of ${CURRENCY_CODES.join(', ')}`, 30258)
      : undefined,
});

/** The rules that refuse a request outside the request table of 4.3 (the vendor's 400 INVALID_ARGUMENT). */
export const BAD_REQUEST_RULES = ['body.json', 'body.object', 'accountId.type', 'currency.enum'];

/** The query of a body that passed every rule. */
export function queryOf(body: Node): PortfolioQuery {
  return { accountId: body.accountId as string, currency: absent(body.currency) ? 'rub' : CURRENCIES[body.currency as string] };
}
