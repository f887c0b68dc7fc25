/**
 * Checks of the GetPortfolio answer (spec 2.3, 2.4, 4.3, 7). Every MoneyValue and Quotation is found by
 * walking the body alongside the portfolio schema (harness/invest/portfolio.ts), so a field added to
 * specs/schemas/invest is checked without touching this file. Amounts are compared with
 * harness/decimal.ts: exact, never floating point.
 */
import type { CapturedResponse } from '../http.ts';
import { describeAmount, formatDecimal, int64Problem, nanoProblem, type RawAmount, signProblem, tryNanos, unitsProblem } from '../decimal.ts';
import { isJsonObject } from '../json.ts';
import { amountsIn, CLASS_TOTALS, PORTFOLIO_RESPONSE, TOTALS } from '../invest/portfolio.ts';
import { schemaId } from '../schemas.ts';
import { valueConformsTo } from './body.ts';
import { failure, type Failure } from './failure.ts';
import { jsonWhereBody } from './json-answer.ts';

/**
 * Spec 1 and 4.3: a 200 answer that is a portfolio at all: JSON, labelled JSON, an object that holds
 * the eight totals per asset class ("the portfolio of one user account: totals per asset class, ...").
 * Every test that reads a portfolio asks this first; an empty 200, `{}` or an HTML page is none.
 */
export function readablePortfolio(res: CapturedResponse, requirement: string): Failure[] {
  if (res.status !== 200) return [failure(requirement, 'status 200 with the portfolio', `status ${res.status}`), ...jsonWhereBody(res, requirement)];
  if (res.rawBody === '') return [failure(requirement, 'status 200 with the portfolio', 'status 200 with an empty body')];
  const notJson = jsonWhereBody(res, requirement);
  if (notJson.length) return notJson;
  if (!isJsonObject(res.json)) return [failure(requirement, 'a portfolio: a JSON object', JSON.stringify(res.json).slice(0, 200))];
  const missing = TOTALS.filter((name) => !isJsonObject((res.json as Record<string, unknown>)[name]));
  return missing.length ? [failure(requirement, 'a portfolio with its eight totals per asset class (MoneyValue objects)', `no ${missing.join(', ')}`)] : [];
}

/** One failure per amount for which `problemOf` finds something. */
function eachAmount(body: unknown, requirement: string, expected: string, problemOf: (a: RawAmount) => string | undefined): Failure[] {
  const out: Failure[] = [];
  for (const found of amountsIn(body)) {
    const problem = isJsonObject(found.value) ? problemOf(found.value) : `a ${found.kind} that is not an object`;
    if (problem) out.push(failure(requirement, `${found.kind} with ${expected}`, `${JSON.stringify(found.value)}: ${problem}`, found.at));
  }
  return out;
}

/** Spec 2.3: units is a decimal integer string. */
export const unitsAreDecimalIntegers = (body: unknown, requirement: string) =>
  eachAmount(body, requirement, 'units a decimal integer string (the whole part)', (a) => unitsProblem(a.units));

/** Spec 2.3: nano is an integer with |nano| < 1e9. */
export const nanosBelowOneUnit = (body: unknown, requirement: string) =>
  eachAmount(body, requirement, 'nano an integer of absolute value below 1000000000 (the fractional part)', (a) => nanoProblem(a.nano));

/** Vendor: units and nano are never of opposite signs. */
export const signsAgree = (body: unknown, requirement: string) =>
  eachAmount(body, requirement, 'units and nano not of opposite signs', (a) => signProblem(a.units, a.nano));

/** Vendor: units is an int64. */
export const unitsFitInt64 = (body: unknown, requirement: string) =>
  eachAmount(body, requirement, 'units within the signed 64-bit range', (a) => int64Problem(a.units));

/** Everything spec 2.3 and 2.4 say about a 200 body: the schema and the two value rules of the spec. */
export function portfolioConforms(body: unknown, requirement: string): Failure[] {
  return [...valueConformsTo(body, PORTFOLIO_RESPONSE, requirement), ...unitsAreDecimalIntegers(body, requirement), ...nanosBelowOneUnit(body, requirement)];
}

const totalOf = (body: unknown, name: string): RawAmount | undefined => (isJsonObject(body) && isJsonObject(body[name]) ? (body[name] as RawAmount) : undefined);

/** Spec 4.3: all eight totals are in `currency` (an ISO code; the vendor writes it in lower case). */
export function totalsInCurrency(body: unknown, currency: string, requirement: string): Failure[] {
  if (!isJsonObject(body)) return [failure(requirement, `a portfolio whose totals are in ${currency}`, `a body that is not a JSON object: ${JSON.stringify(body) ?? 'nothing'}`)];
  return TOTALS.flatMap((name) => {
    const total = totalOf(body, name);
    const got = total?.currency;
    if (typeof got === 'string' && got.toUpperCase() === currency.toUpperCase()) return [];
    return [failure(requirement, `${name} in ${currency}`, total ? `${describeAmount(total)} (currency ${JSON.stringify(got)})` : 'no total', `/${name}`)];
  });
}

/** Spec 2.4: the portfolio is the requested account's. */
export function accountIs(body: unknown, accountId: string, requirement: string): Failure[] {
  const got = isJsonObject(body) ? body.accountId : undefined;
  return got === accountId ? [] : [failure(requirement, `accountId ${JSON.stringify(accountId)} (the requested account)`, JSON.stringify(got) ?? 'no accountId', '/accountId')];
}

/** Configuration: totalAmountPortfolio is exactly the sum of the seven class totals, all in one currency. */
export function portfolioIsSumOfClasses(body: unknown, requirement: string): Failure[] {
  const totals = TOTALS.map((name) => [name, totalOf(body, name)] as const);
  const unreadable = totals.filter(([, t]) => tryNanos(t) === undefined).map(([name]) => name);
  if (unreadable.length) return [failure(requirement, 'eight readable totals to add up', `unreadable: ${unreadable.join(', ')}`)];
  const currencies = new Set(totals.map(([, t]) => String(t!.currency ?? '').toUpperCase()));
  if (currencies.size > 1) return [failure(requirement, 'all totals in one currency, so that they can be added', totals.map(([n, t]) => `${n} ${describeAmount(t)}`).join(', '))];
  const sum = CLASS_TOTALS.reduce((acc, name) => acc + tryNanos(totalOf(body, name))!, 0n);
  const portfolio = tryNanos(totalOf(body, 'totalAmountPortfolio'))!;
  if (sum === portfolio) return [];
  return [failure(requirement, `totalAmountPortfolio = sum of the class totals = ${formatDecimal(sum)}`, `${formatDecimal(portfolio)} (off by ${formatDecimal(portfolio - sum)})`, '/totalAmountPortfolio')];
}

/** Spec 4.3: totals asked in another currency are converted: a non-zero RUB total never reappears as the same number. */
export function convertedNotRelabelled(rubBody: unknown, otherBody: unknown, currency: string, requirement: string): Failure[] {
  return TOTALS.flatMap((name) => {
    const rub = tryNanos(totalOf(rubBody, name));
    const other = tryNanos(totalOf(otherBody, name));
    if (rub === undefined || other === undefined || rub === 0n || rub !== other) return [];
    return [failure(requirement, `${name} in ${currency} converted from ${formatDecimal(rub)} RUB`, `the same number ${describeAmount(totalOf(otherBody, name))}`, `/${name}`)];
  });
}

/** Every total present reads as an amount (units a decimal integer string, nano an integer): what comparing totals needs. */
export function totalsReadable(body: unknown, requirement: string): Failure[] {
  return TOTALS.flatMap((name) => {
    const total = totalOf(body, name);
    return total === undefined || tryNanos(total) !== undefined ? [] : [failure(requirement, `${name} readable as an amount (units a decimal integer string, nano an integer)`, JSON.stringify(total), `/${name}`)];
  });
}

/** How many totals of the pair were non-zero and readable in RUB: the comparison above means something only then. */
export function nonZeroTotals(body: unknown): number {
  return TOTALS.filter((name) => {
    const value = tryNanos(totalOf(body, name));
    return value !== undefined && value !== 0n;
  }).length;
}

const ISO_UTC = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]00:00)$/;

export function isIsoUtc(text: unknown): boolean {
  const m = typeof text === 'string' ? ISO_UTC.exec(text) : null;
  if (!m) return false;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && h <= 23 && mi <= 59 && s <= 60;
}

/** Spec 2.4: every expireDate of a virtual position is an ISO 8601 date-time in UTC (the field itself may be absent: nothing in 2.4 is marked required). */
export function virtualExpireDatesUtc(body: unknown, requirement: string): Failure[] {
  return expireDatesIn(body).flatMap(([at, got]) => (isIsoUtc(got) ? [] : [failure(requirement, 'expireDate: an ISO 8601 date-time in UTC (…T…Z)', JSON.stringify(got), at)]));
}

/** The expireDate of every virtual position that carries one, with its JSON pointer. */
export function expireDatesIn(body: unknown): Array<[string, unknown]> {
  const virtual = isJsonObject(body) && Array.isArray(body.virtualPositions) ? body.virtualPositions : [];
  return virtual.flatMap((v, i) => (isJsonObject(v) && v.expireDate !== undefined ? [[`/virtualPositions/${i}/expireDate`, v.expireDate] as [string, unknown]] : []));
}

/** An answer that refuses access must not carry the portfolio it refused. */
export function noPortfolioIn(res: CapturedResponse, requirement: string): Failure[] {
  const body = res.json;
  const leaked = isJsonObject(body) ? ['positions', 'virtualPositions', ...TOTALS].filter((k) => k in body) : [];
  return leaked.length ? [failure(requirement, 'no portfolio data in a refusal', `fields ${leaked.join(', ')}`)] : [];
}

// ── vendor conventions (public facts): error body and response headers ─────────────────────────

export const VENDOR_ERROR = schemaId('invest/vendor-error');
/** The vendor's HTTP-to-gRPC mapping. */
const GRPC_CODE: Record<number, number> = { 400: 3, 401: 16, 403: 7, 404: 5, 429: 8, 500: 13, 501: 12, 503: 14, 504: 4 };
/** Leading digit of the API error codes of each gRPC code in the vendor's table (3xxxx invalid argument, 4xxxx access, ...). */
const CODE_FAMILY: Record<number, string> = { 3: '3', 16: '4', 7: '4', 5: '5', 8: '8', 13: '7' };

/**
 * The vendor's error body { code, message, description }: code is the gRPC code of the HTTP status, and
 * description the API error code the vendor documents for the case when the status is the vendor's one
 * for it, else at least an API error code of the status's family.
 */
export function vendorErrorBody(res: CapturedResponse, expected: { status: number; description: number }, requirement: string): Failure[] {
  if (res.status < 400) return [failure(requirement, `an error answer (${expected.status}) with the vendor's error body`, `status ${res.status}`)];
  if (res.json === undefined) return [failure(requirement, `the vendor's error body {code, message, description}`, res.rawBody === '' ? 'an empty body' : `a body that is not JSON (${res.jsonError})`)];
  const out = valueConformsTo(res.json, VENDOR_ERROR, requirement);
  const body = (isJsonObject(res.json) ? res.json : {}) as { code?: unknown; description?: unknown };
  const code = GRPC_CODE[res.status];
  if (code !== undefined && Number.isInteger(body.code) && body.code !== code) {
    out.push(failure(requirement, `code ${code} (the gRPC code of HTTP ${res.status})`, `code ${body.code}`, '/code'));
  }
  if (Number.isInteger(body.description)) {
    const family = CODE_FAMILY[code ?? -1];
    if (res.status === expected.status && body.description !== expected.description) {
      out.push(failure(requirement, `description ${expected.description} (the vendor's API error code for this case)`, `description ${body.description}`, '/description'));
    } else if (res.status !== expected.status && family && !String(body.description).startsWith(family)) {
      out.push(failure(requirement, `description an API error code ${family}xxxx (the family of HTTP ${res.status})`, `description ${body.description}`, '/description'));
    }
  }
  return out;
}

const leadingInteger = (text: string | undefined) => (text === undefined ? undefined : /^\s*(\d+)\s*(?:[,;]|$)/.exec(text)?.[1]);

/** x-ratelimit-limit, -remaining, -reset as integers (the first number of a list), remaining <= limit, and x-tracking-id. */
export function rateLimitHeaders(res: CapturedResponse, requirement: string): Failure[] {
  const out: Failure[] = [];
  const read = (name: string) => {
    const value = leadingInteger(res.headers[name]);
    if (value === undefined) out.push(failure(requirement, `header ${name}: an integer`, res.headers[name] === undefined ? 'no such header' : JSON.stringify(res.headers[name])));
    return value === undefined ? undefined : Number(value);
  };
  const limit = read('x-ratelimit-limit');
  const remaining = read('x-ratelimit-remaining');
  read('x-ratelimit-reset');
  if (limit !== undefined && remaining !== undefined && remaining > limit) {
    out.push(failure(requirement, `x-ratelimit-remaining not above x-ratelimit-limit (${limit})`, `x-ratelimit-remaining ${remaining}`));
  }
  if (!res.headers['x-tracking-id']?.trim()) out.push(failure(requirement, 'header x-tracking-id', 'no such header'));
  return out;
}
