/**
 * Values of the invest area. Amounts are drawn as bigint nanos and written in canonical form, so every
 * generated MoneyValue and Quotation obeys spec 2.3 and the vendor's sign rule by construction;
 * portfolios take their shape from the schema (schemaArbitrary) and then get what the schema cannot
 * say: totals in one currency that add up exactly. Requests of 4.3 and account ids that name no
 * account, fresh on every call, complete the set.
 */
import { randomInt } from 'node:crypto';
import fc from 'fast-check';
import { add, fromNanos, INT64_MAX, INT64_MIN, NANOS_PER_UNIT } from '../../harness/text/decimal.ts';
import { accountsOf, investConfig, mainAccount } from '../../harness/invest/config.ts';
import { amountsIn, CLASS_TOTALS, PORTFOLIO_RESPONSE, REQUEST_CURRENCIES, type RequestCurrency } from '../../harness/invest/portfolio.ts';
import { pointerSteps, setAt } from '../../harness/text/json.ts';
import type { Target } from '../../harness/config/target.ts';
import { schemaArbitrary } from '../schema-arbitrary.ts';

export interface AmountConstraints {
  /** Bounds in nanos (default: the whole int64 range of units). */
  min?: bigint;
  max?: bigint;
}

/** An amount in nanos; small, round and boundary values come up often enough to matter. */
export function nanos(c: AmountConstraints = {}): fc.Arbitrary<bigint> {
  const min = c.min ?? INT64_MIN * NANOS_PER_UNIT;
  const max = c.max ?? INT64_MAX * NANOS_PER_UNIT + (NANOS_PER_UNIT - 1n);
  const within = (n: bigint) => n >= min && n <= max;
  const edges = [0n, 1n, -1n, NANOS_PER_UNIT - 1n, -(NANOS_PER_UNIT - 1n), NANOS_PER_UNIT, -NANOS_PER_UNIT, min, max].filter(within);
  return fc.oneof({ weight: 4, arbitrary: fc.bigInt({ min, max }) }, { weight: 1, arbitrary: fc.constantFrom(...edges) });
}

export const quotation = (c: AmountConstraints = {}) => nanos(c).map(fromNanos);

export function moneyValue(currency: string | fc.Arbitrary<string>, c: AmountConstraints = {}) {
  const currencies = typeof currency === 'string' ? fc.constant(currency) : currency;
  return fc.tuple(currencies, nanos(c)).map(([cur, n]) => ({ currency: cur, ...fromNanos(n) }));
}

type Body = Record<string, unknown>;

/**
 * A 200 portfolio that every check of the area accepts: the schema's shape (UTC expiry dates come
 * from its x-generate hint), every amount canonical, the eight totals in `currency` (class totals
 * bounded so that their sum stays in range) with totalAmountPortfolio their exact sum.
 */
export function portfolioResponse(options: { currency?: string; accountId?: string } = {}): fc.Arbitrary<Body> {
  const currency = options.currency ?? 'rub';
  const totalBound = (INT64_MAX / 8n) * NANOS_PER_UNIT;
  return schemaArbitrary<Body>(PORTFOLIO_RESPONSE).chain((shape) => {
    const found = amountsIn(shape);
    return fc
      .record({
        amounts: fc.tuple(
          ...found.map((f) => (f.kind === 'Quotation' ? quotation() : moneyValue(fc.constantFrom('rub', 'usd', 'eur', 'RUB')))),
        ),
        totals: fc.tuple(...CLASS_TOTALS.map(() => moneyValue(currency, { min: -totalBound, max: totalBound }))),
      })
      .map(({ amounts, totals }) => {
        const body = structuredClone(shape);
        found.forEach((f, i) => setAt(body, pointerSteps(f.at), amounts[i]));
        CLASS_TOTALS.forEach((name, i) => (body[name] = totals[i]));
        body.totalAmountPortfolio = { currency, ...add(...totals) };
        if (options.accountId !== undefined) body.accountId = options.accountId;
        return body;
      });
  });
}

/** Requests of 4.3 over the given accounts: every currency, and the field left out. */
export function portfolioRequest(accounts: readonly string[]): fc.Arbitrary<{ accountId: string; currency?: RequestCurrency }> {
  return fc.record(
    { accountId: fc.constantFrom(...accounts), currency: fc.constantFrom(...REQUEST_CURRENCIES) },
    { requiredKeys: ['accountId'] },
  );
}

/**
 * An account id of the same shape as `shape` (digits for digits, letters for letters, the rest kept),
 * drawn afresh, that is none of `known`: well-formed for the target, yet naming no account.
 */
export function accountIdLike(shape: string, known: ReadonlySet<string> = new Set()): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const draw = (c: string) =>
    /[0-9]/.test(c)
      ? String(randomInt(10))
      : /[a-z]/.test(c)
        ? letters[randomInt(26)]
        : /[A-Z]/.test(c)
          ? letters[randomInt(26)].toUpperCase()
          : c;
  if (!/[0-9A-Za-z]/.test(shape)) throw new Error(`accountIdLike: "${shape}" has no digit or letter to vary`);
  for (;;) {
    const candidate = [...shape].map(draw).join('');
    if (candidate !== shape && !known.has(candidate)) return candidate;
  }
}

/** A well-formed account id that names no account: shaped like services.invest.accountId, drawn afresh. */
export function unknownAccountLike(t: { target: Target }): string {
  const known = new Set([...accountsOf(t), investConfig(t.target).otherAccountId ?? '']);
  return accountIdLike(mainAccount(t), known);
}
