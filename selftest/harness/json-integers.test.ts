/** JSON read with its integers as written (harness/text/json-integers.ts): what JSON.parse gives, but integers a double does not keep. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonKeepingIntegers } from '../../harness/text/json-integers.ts';

describe('parseJsonKeepingIntegers', () => {
  it('keeps every digit of an integer beyond 2^53, and reads the rest as JSON.parse does', () => {
    const text =
      '{"ids":[1234567890123456789, 1234567890123456788, -9223372036854775808, 9007199254740991, 1.5e300, 12345678901234567.5],"s":"a\\"b\\\\ 1234567890123456789","__proto__":{"x":true},"n":null}';
    const value = parseJsonKeepingIntegers(text) as Record<string, unknown>;
    expect(value.ids).toEqual([
      1234567890123456789n,
      1234567890123456788n,
      -9223372036854775808n,
      9007199254740991,
      1.5e300,
      12345678901234568,
    ]);
    expect(value.s).toBe('a"b\\ 1234567890123456789');
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(value.n).toBeNull();
  });

  it('gives what JSON.parse gives for any JSON, each bigint the number JSON.parse rounds it to; and its error for text that is not JSON', () => {
    const rounded = (v: unknown): unknown =>
      typeof v === 'bigint'
        ? Number(v)
        : Array.isArray(v)
          ? v.map(rounded)
          : v !== null && typeof v === 'object'
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rounded(x)]))
            : v;
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v);
        expect(rounded(parseJsonKeepingIntegers(`${text} `))).toEqual(JSON.parse(text));
      }),
      { numRuns: 300, seed: 5 },
    );
    expect(() => parseJsonKeepingIntegers('{"id": 12345678901234567890')).toThrow(SyntaxError);
  });
});
