/**
 * Checks of the GetPortfolio answer (spec 2.3, 2.4, 4.3, 7). Every MoneyValue and Quotation is found by
 * walking the body alongside the portfolio schema (harness/invest/portfolio.ts), so a field added to
 * specs/schemas/invest is checked without touching this file. Amounts are compared with
 * harness/text/decimal.ts: exact, never floating point.
 *
 * 2.4 marks no field required, and proto3's JSON mapping (the path names a gRPC service) leaves out
 * zero values: an absent units or nano reads as 0, an absent array as empty. So every check over
 * "every value" judges what is there and says how many values it judged (harness/checks/judged.ts);
 * one that judged none is inconclusive. A value another requirement judges (a units that is no
 * decimal integer, for the sign and int64 rules) is passed over, not failed again.
 */
import type { CapturedResponse } from '../request/http.ts';
import {
  describeAmount,
  formatDecimal,
  int64Problem,
  nanoProblem,
  type RawAmount,
  signProblem,
  tryNanos,
  unitsProblem,
  unitsValue,
} from '../text/decimal.ts';
import { parseIsoDateTime } from '../text/iso8601.ts';
import { isJsonObject } from '../text/json.ts';
import { amountsIn, CLASS_TOTALS, PORTFOLIO_LISTED, PORTFOLIO_RESPONSE, PORTFOLIO_STATUSES, portfolioFields, TOTALS } from './portfolio.ts';
import { schemaId } from '../spec/schemas.ts';
import { fieldsPresent, valueConformsTo } from '../checks/body.ts';
import { failure, type Failure } from '../checks/failure.ts';
import { judged, type Judged } from '../checks/judged.ts';
import { jsonWhereBody } from '../checks/json-answer.ts';
import { statusDocumented } from '../checks/status.ts';

/**
 * Spec 4.3 "Response 200: the portfolio of 2.4": the answer is 200 with a JSON object, and one that
 * holds fields holds some of 2.4's (`{"message": "account not found"}` is no portfolio). These failures
 * belong to the requirements that state it (INV-RSP-001 for the main account, INV-GEN-001 for every
 * account and currency); every other test passes over such an answer (whyNoPortfolio). The label is
 * INV-CTY-001's.
 */
export function readablePortfolio(res: CapturedResponse, requirement: string): Failure[] {
  if (res.status !== 200) return [failure(requirement, 'status 200 with the portfolio', `status ${res.status}`)];
  if (res.rawBody === '') return [failure(requirement, 'status 200 with the portfolio', 'status 200 with an empty body')];
  if (res.jsonError)
    return [failure(requirement, 'a portfolio: a JSON object', `a body that does not parse (${res.jsonError.split('\n')[0]})`)];
  if (!isJsonObject(res.json)) return [failure(requirement, 'a portfolio: a JSON object', JSON.stringify(res.json).slice(0, 200))];
  // Fields, none of them 2.4's: another document (an error's message), not a portfolio whose zero values were left out.
  const keys = Object.keys(res.json);
  if (keys.length && !keys.some((k) => portfolioFields().includes(k)))
    return [
      {
        ...failure(
          requirement,
          'a portfolio: a JSON object with the fields of 2.4',
          `an object with no field of 2.4: ${res.rawBody.slice(0, 200)}`,
        ),
        defect: 'a 200 whose object holds no field of 2.4',
      },
    ];
  return [];
}

/**
 * Why an answer to a valid request shows no portfolio to judge, or undefined when it shows one: it is
 * no readable portfolio (an object whose fields are none of 2.4's is none: INV-RSP-001 fails it), it is
 * not labelled JSON (so it is no JSON answer at all), or it is `{}` (an empty portfolio with every
 * field left out, or nothing at all: no evidence either way).
 */
export function whyNoPortfolio(res: CapturedResponse): string | undefined {
  const unreadable = readablePortfolio(res, '')[0];
  if (unreadable) return `${unreadable.received} (INV-RSP-001 and INV-GEN-001 judge it)`;
  const label = jsonWhereBody(res, '')[0];
  if (label) return `${label.received}: no JSON answer (INV-CTY-001 judges the label)`;
  if (Object.keys(res.json as object).length === 0) return 'an empty JSON object: no field of 2.4 to judge';
  return undefined;
}

/** Spec 2.3 and 2.4: the body has the types of 2.4 (every field optional; the value rules of units and nano are INV-VAL-001/002's). */
export function portfolioConforms(body: unknown, requirement: string): Failure[] {
  return valueConformsTo(body, PORTFOLIO_RESPONSE, requirement);
}

/** Policy (INV-RSP-003): the portfolio, its positions and amounts carry every field 2.3 and 2.4 list for them (the totals are INV-TOT-002's). */
export const listedFieldsWritten = (body: unknown, requirement: string): Failure[] =>
  fieldsPresent(body, PORTFOLIO_LISTED, 'every field 2.3 and 2.4 list, in the portfolio, its positions and its amounts', requirement);

/**
 * One failure per amount whose `judge` finds a problem; `judge` returns null for an amount it cannot
 * judge (the value absent, or unreadable for another requirement), undefined for one that is fine.
 */
function eachAmount(body: unknown, requirement: string, expected: string, judge: (a: RawAmount) => string | undefined | null): Judged {
  const out: Failure[] = [];
  let count = 0;
  for (const found of amountsIn(body)) {
    if (!isJsonObject(found.value)) continue;
    const problem = judge(found.value);
    if (problem === null) continue;
    count++;
    if (problem) out.push(failure(requirement, `${found.kind} with ${expected}`, `${JSON.stringify(found.value)}: ${problem}`, found.at));
  }
  return judged(out, count);
}

/** Spec 2.3: units is a decimal integer string (judged where units is present). */
export const unitsAreDecimalIntegers = (body: unknown, requirement: string) =>
  eachAmount(body, requirement, 'units a decimal integer string (the whole part)', (a) =>
    a.units === undefined ? null : unitsProblem(a.units),
  );

/** Spec 2.3: nano is an integer with |nano| < 1e9 (judged where nano is present). */
export const nanosBelowOneUnit = (body: unknown, requirement: string) =>
  eachAmount(body, requirement, 'nano an integer of absolute value below 1000000000 (the fractional part)', (a) =>
    a.nano === undefined ? null : nanoProblem(a.nano),
  );

/** Vendor: units and nano are never of opposite signs (judged where both are readable and non-zero: only there can they differ). */
export const signsAgree = (body: unknown, requirement: string) =>
  eachAmount(body, requirement, 'units and nano not of opposite signs', (a) => {
    const units = unitsValue(a.units);
    const readable = units !== undefined && units !== 0n && Number.isInteger(a.nano) && a.nano !== 0;
    return readable ? signProblem(a.units, a.nano) : null;
  });

/** Vendor: units is an int64 (judged where units is a decimal integer string). */
export const unitsFitInt64 = (body: unknown, requirement: string) =>
  eachAmount(body, requirement, 'units within the signed 64-bit range', (a) =>
    unitsValue(a.units) === undefined ? null : int64Problem(a.units),
  );

const totalOf = (body: unknown, name: string): RawAmount | undefined =>
  isJsonObject(body) && isJsonObject(body[name]) ? (body[name] as RawAmount) : undefined;
const currencyOf = (total: RawAmount | undefined) =>
  typeof total?.currency === 'string' && total.currency !== '' ? total.currency : undefined;

/** Policy (4.3): every total present is in `currency` (an ISO code; the vendor writes it in lower case). A total absent or without a currency is not judged. */
export function totalsInCurrency(body: unknown, currency: string, requirement: string): Judged {
  const out: Failure[] = [];
  let count = 0;
  for (const name of TOTALS) {
    const total = totalOf(body, name);
    const got = currencyOf(total);
    if (got === undefined) continue;
    count++;
    if (got.toUpperCase() !== currency.toUpperCase())
      out.push(failure(requirement, `${name} in ${currency}`, `${describeAmount(total)} (currency ${JSON.stringify(got)})`, `/${name}`));
  }
  return judged(out, count);
}

/**
 * Spec 4.3 "default RUB": a request without currency is the request with currency RUB, so each total
 * comes back in the currency the same request with RUB gets (compared by label, not amount, so that
 * prices moving between the two requests never count).
 */
export function defaultIsRub(omitted: unknown, rub: unknown, requirement: string): Judged {
  const out: Failure[] = [];
  let count = 0;
  for (const name of TOTALS) {
    const [got, want] = [currencyOf(totalOf(omitted, name)), currencyOf(totalOf(rub, name))];
    if (got === undefined || want === undefined) continue;
    count++;
    if (got.toUpperCase() !== want.toUpperCase())
      out.push(
        failure(
          requirement,
          `${name} in ${want}, as the same request with currency RUB gets it (default RUB)`,
          `currency ${JSON.stringify(got)}`,
          `/${name}`,
        ),
      );
  }
  return judged(out, count);
}

/** Spec 2.4: the portfolio is the requested account's (judged where it carries an accountId string; its type is INV-RSP-001's). */
export function accountIs(body: unknown, accountId: string, requirement: string): Judged {
  const got = isJsonObject(body) ? body.accountId : undefined;
  if (typeof got !== 'string') return judged([], 0);
  return judged(
    got === accountId
      ? []
      : [failure(requirement, `accountId ${JSON.stringify(accountId)} (the requested account)`, JSON.stringify(got), '/accountId')],
    1,
  );
}

/** Policy (part 1 "totals per asset class"): the portfolio carries all eight totals. */
export function totalsPresent(body: unknown, requirement: string): Judged {
  const missing = TOTALS.filter((name) => totalOf(body, name) === undefined);
  return judged(
    missing.length ? [failure(requirement, 'the eight totals per asset class (MoneyValue objects)', `no ${missing.join(', ')}`)] : [],
    1,
  );
}

/**
 * Configuration: totalAmountPortfolio is exactly the sum of the seven class totals. Judged only where
 * all eight are there, readable (INV-VAL-001/002 judge the rest) and in one currency (INV-CUR-001's
 * policy judges that); `reason` says why not.
 */
export function portfolioIsSumOfClasses(body: unknown, requirement: string): Judged {
  const totals = TOTALS.map((name) => [name, totalOf(body, name)] as const);
  const absent = totals.filter(([, t]) => t === undefined).map(([name]) => name);
  if (absent.length) return { ...judged([], 0), reason: `no ${absent.join(', ')} to add up` };
  const unreadable = totals.filter(([, t]) => tryNanos(t) === undefined).map(([name]) => name);
  if (unreadable.length) return { ...judged([], 0), reason: `unreadable as amounts: ${unreadable.join(', ')}` };
  const currencies = new Set(totals.map(([, t]) => String(t!.currency ?? '').toUpperCase()));
  if (currencies.size > 1)
    return {
      ...judged([], 0),
      reason: `totals in several currencies, which do not add up: ${totals.map(([n, t]) => `${n} ${describeAmount(t)}`).join(', ')}`,
    };
  const sum = CLASS_TOTALS.reduce((acc, name) => acc + tryNanos(totalOf(body, name))!, 0n);
  const portfolio = tryNanos(totalOf(body, 'totalAmountPortfolio'))!;
  if (sum === portfolio) return judged([], 1);
  return judged(
    [
      failure(
        requirement,
        `totalAmountPortfolio = sum of the class totals = ${formatDecimal(sum)}`,
        `${formatDecimal(portfolio)} (off by ${formatDecimal(portfolio - sum)})`,
        '/totalAmountPortfolio',
      ),
    ],
    1,
  );
}

/**
 * Policy (4.3): totals asked in another currency are converted: a non-zero RUB total never reappears as
 * the same number. Judged over the pairs readable in both; where none was, `reason` names the totals
 * whose counterpart was unreadable (INV-VAL-001/002 judge them).
 */
export function convertedNotRelabelled(rubBody: unknown, otherBody: unknown, currency: string, requirement: string): Judged {
  const out: Failure[] = [];
  let count = 0;
  const unreadable: string[] = [];
  for (const name of TOTALS) {
    const rub = tryNanos(totalOf(rubBody, name));
    const other = tryNanos(totalOf(otherBody, name));
    if (rub === undefined || rub === 0n) continue;
    if (other === undefined) {
      if (totalOf(otherBody, name) !== undefined) unreadable.push(name);
      continue;
    }
    count++;
    if (rub === other)
      out.push(
        failure(
          requirement,
          `${name} in ${currency} converted from ${formatDecimal(rub)} RUB`,
          `the same number ${describeAmount(totalOf(otherBody, name))}`,
          `/${name}`,
        ),
      );
  }
  if (count === 0 && unreadable.length)
    return {
      ...judged(out, 0),
      reason: `${unreadable.join(', ')} in ${currency} unreadable as amounts (INV-VAL-001 and INV-VAL-002 judge them)`,
    };
  return judged(out, count);
}

/** The totals present as objects whose amount cannot be read (their units or nano is INV-VAL-001's or INV-VAL-002's). */
export function unreadableTotals(body: unknown): string[] {
  return TOTALS.filter((name) => totalOf(body, name) !== undefined && tryNanos(totalOf(body, name)) === undefined);
}

/** How many totals were non-zero and readable: a conversion shows only on those. */
export function nonZeroTotals(body: unknown): number {
  return TOTALS.filter((name) => {
    const value = tryNanos(totalOf(body, name));
    return value !== undefined && value !== 0n;
  }).length;
}

/**
 * Spec 2.4: every expireDate of a virtual position is an ISO 8601 date-time in UTC, in any of ISO
 * 8601's forms (extended or basic, to the minute or second, with a fraction; Z or a zero offset).
 * Judged where a virtual position carries a string expireDate; its type, and whether it is an ISO 8601
 * date-time at all, are the portfolio's schema's (`typeRequirement`, INV-RSP-001), this check's own
 * rule is UTC.
 */
export function virtualExpireDatesUtc(body: unknown, requirement: string, typeRequirement: string): Judged {
  const dates = expireDatesIn(body).filter(([, got]) => typeof got === 'string');
  return judged(
    dates.flatMap(([at, got]) => {
      const parsed = parseIsoDateTime(got);
      if (!parsed)
        return [
          {
            ...failure(typeRequirement, 'expireDate: an ISO 8601 date-time, in one format throughout', JSON.stringify(got), at),
            defect: 'an expireDate that is no ISO 8601 date-time',
          },
        ];
      return parsed.offsetMinutes === 0
        ? []
        : [
            {
              ...failure(requirement, 'expireDate: an ISO 8601 date-time in UTC (Z or a zero offset)', JSON.stringify(got), at),
              defect: 'an expireDate not in UTC',
            },
          ];
    }),
    dates.length,
  );
}

/** The expireDate of every virtual position that carries one, with its JSON pointer. */
export function expireDatesIn(body: unknown): Array<[string, unknown]> {
  const virtual = isJsonObject(body) && Array.isArray(body.virtualPositions) ? body.virtualPositions : [];
  return virtual.flatMap((v, i) =>
    isJsonObject(v) && v.expireDate !== undefined ? [[`/virtualPositions/${i}/expireDate`, v.expireDate] as [string, unknown]] : [],
  );
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
  if (res.status < 400)
    return [failure(requirement, `an error answer (${expected.status}) with the vendor's error body`, `status ${res.status}`)];
  if (res.json === undefined)
    return [
      failure(
        requirement,
        `the vendor's error body {code, message, description}`,
        res.rawBody === '' ? 'an empty body' : `a body that is not JSON (${res.jsonError})`,
      ),
    ];
  const out = valueConformsTo(res.json, VENDOR_ERROR, requirement);
  const body = (isJsonObject(res.json) ? res.json : {}) as { code?: unknown; description?: unknown };
  const code = GRPC_CODE[res.status];
  if (code !== undefined && Number.isInteger(body.code) && body.code !== code) {
    out.push(failure(requirement, `code ${code} (the gRPC code of HTTP ${res.status})`, `code ${body.code}`, '/code'));
  }
  if (Number.isInteger(body.description)) {
    const family = CODE_FAMILY[code ?? -1];
    if (res.status === expected.status && body.description !== expected.description) {
      out.push(
        failure(
          requirement,
          `description ${expected.description} (the vendor's API error code for this case)`,
          `description ${body.description}`,
          '/description',
        ),
      );
    } else if (res.status !== expected.status && family && !String(body.description).startsWith(family)) {
      out.push(
        failure(
          requirement,
          `description an API error code ${family}xxxx (the family of HTTP ${res.status})`,
          `description ${body.description}`,
          '/description',
        ),
      );
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
    if (value === undefined)
      out.push(
        failure(
          requirement,
          `header ${name}: an integer`,
          res.headers[name] === undefined ? 'no such header' : JSON.stringify(res.headers[name]),
        ),
      );
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

/**
 * Spec 7: a status of the list, or an error status, which "default: unexpected error" documents. A
 * success other than 200 or a redirect is outside both.
 */
export function portfolioStatusDocumented(res: CapturedResponse, requirement: string): Failure[] {
  return res.status >= 400 ? [] : statusDocumented(res, PORTFOLIO_STATUSES, requirement);
}
