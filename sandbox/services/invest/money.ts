/**
 * The sandbox's own exact money arithmetic (it never imports the harness): amounts are bigint nanos,
 * rounding is half away from zero, and an amount is written as the canonical {units, nano} pair.
 */

export const NANO = 1_000_000_000n;
export type Currency = 'rub' | 'usd' | 'eur';
export const CURRENCIES: readonly Currency[] = ['rub', 'usd', 'eur'];

/** Fixed development rates: rubles per unit, in nanos. */
const RUB_PER_UNIT: Record<Currency, bigint> = { rub: NANO, usd: 92_451_200_000n, eur: 100_187_500_000n };

/** "12.34" as nanos. */
export function dec(text: string): bigint {
  const m = /^(-)?(\d+)(?:\.(\d{1,9}))?$/.exec(text);
  if (!m) throw new Error(`sandbox: bad decimal literal ${text}`);
  const magnitude = BigInt(m[2]) * NANO + BigInt((m[3] ?? '').padEnd(9, '0'));
  return m[1] ? -magnitude : magnitude;
}

/** round(a · b / c), half away from zero. */
export function mulDiv(a: bigint, b: bigint, c: bigint): bigint {
  const n = a * b;
  const negative = n < 0n !== c < 0n;
  const q = (n < 0n ? -n : n) / (c < 0n ? -c : c);
  const r = (n < 0n ? -n : n) % (c < 0n ? -c : c);
  const rounded = 2n * r >= (c < 0n ? -c : c) ? q + 1n : q;
  return negative ? -rounded : rounded;
}

/** Product of two amounts (a price times a quantity). */
export const times = (a: bigint, b: bigint) => mulDiv(a, b, NANO);

export function convert(amount: bigint, from: Currency, to: Currency): bigint {
  return from === to ? amount : mulDiv(amount, RUB_PER_UNIT[from], RUB_PER_UNIT[to]);
}

export interface Pair {
  units: string;
  nano: number;
}

/** An amount as the canonical {units, nano} pair: units a decimal integer string, |nano| < 1e9, both of one sign. */
export function pairOf(amount: bigint): Pair {
  return { units: String(amount / NANO), nano: Number(amount % NANO) || 0 };
}

/** A MoneyValue (spec 2.4): the pair with its currency. */
export const money = (amount: bigint, currency: string): Pair & { currency: string } => ({ currency, ...pairOf(amount) });

/** A Quotation (spec 2.4): the pair alone. */
export const quote = (amount: bigint): Pair => pairOf(amount);

/** The amount a pair writes, in nanos. */
export const amountOf = (pair: Pair): bigint => BigInt(pair.units) * NANO + BigInt(pair.nano);
