/**
 * Exact arithmetic for the portfolio's value pair (spec 2.3): `units` (the whole part, a decimal integer
 * string) and `nano` (the fractional part in billionths). Every amount becomes one bigint of nanos, so
 * adding, comparing and converting never touch floating point: 0.1 + 0.2 is 0.3 here.
 *
 * The invariants are split by who states them: a decimal integer `units` and |nano| < 1e9 follow from
 * the spec's "whole part" and "fractional part"; int64 `units` and the sign rule (units and nano never
 * of opposite signs, API error 30017) are vendor facts.
 */

export const NANOS_PER_UNIT = 1_000_000_000n;
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
const MAX_NANO = 999_999_999;
/** A whole part as a string: decimal digits with an optional sign ("-12", "+12", "0"; "007" reads as 7). */
const DECIMAL_INTEGER = /^[+-]?[0-9]+$/;
const DECIMAL = /^(-)?([0-9]+)(?:\.([0-9]{1,9}))?$/;

/** A MoneyValue or Quotation as it arrives: fields may be absent (proto3 JSON omits zero values) or of any type. */
export interface RawAmount {
  units?: unknown;
  nano?: unknown;
  currency?: unknown;
}

/** The canonical pair: units and nano of the same sign, |nano| < 1e9. */
export interface UnitsNano {
  units: string;
  nano: number;
}

export class DecimalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecimalError';
  }
}

/** Spec 2.3: `units` is the whole part, written as a decimal integer string ("-12", "+12", "0"; not "12.5", 12, "1e3"). */
export function unitsProblem(units: unknown): string | undefined {
  if (units === undefined) return undefined;
  if (typeof units !== 'string') return `units must be a decimal integer string, got the ${typeof units} ${JSON.stringify(units)}`;
  if (!DECIMAL_INTEGER.test(units)) return `units must be a decimal integer string, got ${JSON.stringify(units)}`;
  return undefined;
}

/** Spec 2.3: `nano` is an integer fractional part in billionths, so |nano| < 1 000 000 000. */
export function nanoProblem(nano: unknown): string | undefined {
  if (nano === undefined) return undefined;
  if (typeof nano !== 'number' || !Number.isInteger(nano)) return `nano must be an integer, got ${JSON.stringify(nano)}`;
  if (Math.abs(nano) > MAX_NANO) return `|nano| must be below 1000000000, got ${nano}`;
  return undefined;
}

/** The whole part a `units` writes, or undefined when it is absent or not a decimal integer string. */
export function unitsValue(units: unknown): bigint | undefined {
  return typeof units === 'string' && DECIMAL_INTEGER.test(units) ? BigInt(units) : undefined;
}

/** Vendor: `units` is an int64. Only meaningful once unitsProblem found nothing. */
export function int64Problem(units: unknown): string | undefined {
  const value = unitsValue(units);
  if (value === undefined) return undefined;
  return value < INT64_MIN || value > INT64_MAX ? `units must fit a signed 64-bit integer, got ${units}` : undefined;
}

/** Vendor (API error 30017): units and nano are never of opposite signs. */
export function signProblem(units: unknown, nano: unknown): string | undefined {
  const u = unitsValue(units);
  if (u === undefined || typeof nano !== 'number' || !Number.isInteger(nano)) return undefined;
  if ((u > 0n && nano < 0) || (u < 0n && nano > 0)) return `units ${units} and nano ${nano} have opposite signs`;
  return undefined;
}

/**
 * The amount in nanos: units·1e9 + nano. Absent fields count as zero (proto3 JSON). Throws DecimalError
 * when units is not a decimal integer string or nano not an integer; a pair of opposite signs still has
 * a value (units + nano/1e9), so it is read, not refused: the sign rule is a separate check.
 */
export function toNanos(amount: RawAmount): bigint {
  const problem =
    unitsProblem(amount.units) ?? (amount.nano === undefined || Number.isInteger(amount.nano) ? undefined : nanoProblem(amount.nano));
  if (problem) throw new DecimalError(problem);
  const units = amount.units === undefined ? 0n : BigInt(amount.units as string);
  const nano = amount.nano === undefined ? 0n : BigInt(amount.nano as number);
  return units * NANOS_PER_UNIT + nano;
}

/** toNanos, or undefined when the amount cannot be read. */
export function tryNanos(amount: RawAmount | undefined): bigint | undefined {
  if (!amount || typeof amount !== 'object') return undefined;
  try {
    return toNanos(amount);
  } catch (error) {
    if (error instanceof DecimalError) return undefined;
    throw error;
  }
}

/** The canonical pair of an amount: bigint division truncates toward zero, so both parts share its sign. */
export function fromNanos(total: bigint): UnitsNano {
  const units = total / NANOS_PER_UNIT;
  const nano = Number(total % NANOS_PER_UNIT);
  return { units: units.toString(), nano: nano === 0 ? 0 : nano };
}

/** The exact sum, in canonical form. */
export function add(...amounts: RawAmount[]): UnitsNano {
  return fromNanos(amounts.reduce((sum, a) => sum + toNanos(a), 0n));
}

export function compare(a: RawAmount, b: RawAmount): -1 | 0 | 1 {
  const x = toNanos(a);
  const y = toNanos(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A decimal string with at most nine decimals ("-12.5", "0.000000001") as nanos. */
export function parseDecimal(text: string): bigint {
  const m = DECIMAL.exec(text);
  if (!m) throw new DecimalError(`not a decimal with at most 9 decimals: ${JSON.stringify(text)}`);
  const magnitude = BigInt(m[2]) * NANOS_PER_UNIT + BigInt((m[3] ?? '').padEnd(9, '0'));
  return m[1] ? -magnitude : magnitude;
}

/** Nanos as the shortest decimal string: 12500000000n → "12.5", -1n → "-0.000000001". */
export function formatDecimal(total: bigint): string {
  const negative = total < 0n;
  const abs = negative ? -total : total;
  const whole = abs / NANOS_PER_UNIT;
  const fraction = (abs % NANOS_PER_UNIT).toString().padStart(9, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** An amount as text for messages: its decimal value when readable, else its raw JSON. */
export function describeAmount(amount: RawAmount | undefined): string {
  const nanos = tryNanos(amount);
  const currency = typeof amount?.currency === 'string' && amount.currency ? ` ${amount.currency}` : '';
  return nanos === undefined ? JSON.stringify(amount) : `${formatDecimal(nanos)}${currency}`;
}
