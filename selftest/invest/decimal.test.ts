/**
 * harness/text/decimal.ts against a bigint reference: every operation agrees with plain arithmetic on
 * units·1e9 + nano, and every pair it writes obeys the invariants it checks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  add,
  compare,
  DecimalError,
  formatDecimal,
  fromNanos,
  INT64_MAX,
  INT64_MIN,
  int64Problem,
  nanoProblem,
  parseDecimal,
  signProblem,
  toNanos,
  tryNanos,
  unitsProblem,
} from '../../harness/text/decimal.ts';

const E9 = 1_000_000_000n;
/** The reference: a pair's value, however its parts are signed. */
const reference = (units: bigint, nano: number) => units * E9 + BigInt(nano);
const units = fc.bigInt({ min: INT64_MIN, max: INT64_MAX });
const nano = fc.integer({ min: -999_999_999, max: 999_999_999 });
const pair = fc.tuple(units, nano).map(([u, n]) => ({ units: u.toString(), nano: n, value: reference(u, n) }));
const amount = fc.bigInt({ min: INT64_MIN * E9, max: INT64_MAX * E9 });

describe('decimal arithmetic against a bigint reference', () => {
  it('reads any pair as units·1e9 + nano, opposite signs included', () => {
    fc.assert(
      fc.property(pair, (p) => {
        expect(toNanos(p)).toBe(p.value);
      }),
    );
  });

  it('writes every amount canonically: a decimal integer units, |nano| < 1e9, one sign, the same value', () => {
    fc.assert(
      fc.property(amount, (n) => {
        const written = fromNanos(n);
        expect(unitsProblem(written.units)).toBeUndefined();
        expect(nanoProblem(written.nano)).toBeUndefined();
        expect(signProblem(written.units, written.nano)).toBeUndefined();
        expect(toNanos(written)).toBe(n);
        expect(Object.is(written.nano, -0)).toBe(false);
      }),
    );
  });

  it('adds exactly, whatever the number of terms and their signs', () => {
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 8 }), (terms) => {
        const sum = add(...terms);
        expect(toNanos(sum)).toBe(terms.reduce((s, t) => s + t.value, 0n));
        expect(signProblem(sum.units, sum.nano)).toBeUndefined();
        expect(nanoProblem(sum.nano)).toBeUndefined();
      }),
    );
  });

  it('compares like the reference', () => {
    fc.assert(
      fc.property(pair, pair, (a, b) => {
        expect(compare(a, b)).toBe(a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
      }),
    );
  });

  it('formats and parses decimals without loss', () => {
    fc.assert(
      fc.property(amount, (n) => {
        expect(parseDecimal(formatDecimal(n))).toBe(n);
      }),
    );
  });

  it('gets the classic float traps right', () => {
    expect(formatDecimal(toNanos(add(fromNanos(parseDecimal('0.1')), fromNanos(parseDecimal('0.2')))))).toBe('0.3');
    expect(add({ units: '9007199254740993', nano: 0 }, { units: '0', nano: 1 })).toEqual({ units: '9007199254740993', nano: 1 });
    expect(add({ units: '-1', nano: -500_000_000 }, { units: '0', nano: 700_000_000 })).toEqual({ units: '0', nano: -800_000_000 });
    expect(formatDecimal(-1n)).toBe('-0.000000001');
    expect(formatDecimal(12_500_000_000n)).toBe('12.5');
  });

  it('counts absent fields as zero (proto3 JSON leaves zero values out)', () => {
    expect(toNanos({})).toBe(0n);
    expect(toNanos({ units: '7' })).toBe(7n * E9);
    expect(toNanos({ nano: -5 })).toBe(-5n);
  });
});

describe('the invariants', () => {
  it('units: a decimal integer string with an optional sign, nothing else', () => {
    for (const good of ['0', '-0', '12', '-9223372036854775808', '007', '+7']) expect(unitsProblem(good)).toBeUndefined();
    for (const bad of ['12.5', '1e3', ' 7', '+-7', '', '0x10', 12, null, true]) expect(unitsProblem(bad)).toBeDefined();
  });

  it('nano: an integer below one unit in absolute value', () => {
    for (const good of [0, 999_999_999, -999_999_999]) expect(nanoProblem(good)).toBeUndefined();
    for (const bad of [1_000_000_000, -1_000_000_000, 1.5, '5', Number.NaN]) expect(nanoProblem(bad)).toBeDefined();
  });

  it('sign: units and nano never of opposite signs (zero goes with either)', () => {
    fc.assert(
      fc.property(units, nano, (u, n) => {
        const opposite = (u > 0n && n < 0) || (u < 0n && n > 0);
        expect(signProblem(u.toString(), n) !== undefined).toBe(opposite);
      }),
    );
  });

  it('int64: the exact bounds', () => {
    expect(int64Problem(INT64_MAX.toString())).toBeUndefined();
    expect(int64Problem(INT64_MIN.toString())).toBeUndefined();
    expect(int64Problem((INT64_MAX + 1n).toString())).toBeDefined();
    expect(int64Problem((INT64_MIN - 1n).toString())).toBeDefined();
    expect(int64Problem('18446744073709551613')).toBeDefined();
  });

  it('refuses to read what has no value, and says why', () => {
    expect(() => toNanos({ units: '12.5', nano: 0 })).toThrow(DecimalError);
    expect(() => toNanos({ units: '1', nano: 0.5 })).toThrow(/nano must be an integer/);
    expect(() => toNanos({ units: 12 })).toThrow(/decimal integer string/);
    expect(tryNanos({ units: 'x' })).toBeUndefined();
    expect(tryNanos(undefined)).toBeUndefined();
    expect(() => parseDecimal('1.0000000001')).toThrow(DecimalError);
  });
});
