/**
 * The userinfo and error schemas as the identity suite reads them, and the generated people: every
 * generated answer passes, and every one-rule break of a generated answer is caught.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { valueConformsTo } from '../../harness/checks/body.ts';
import { nameHoldsFamilyAndGiven } from '../../harness/identity/checks.ts';
import { invalidCaseArbitrary } from '../../generators/invalid-cases.ts';
import { IDENTITY_ERROR, USERINFO, userinfoBody } from '../../generators/identity/userinfo.ts';

const failuresOf = (value: unknown) => valueConformsTo(value, USERINFO, 'R');

describe('userinfo schema (spec 2.2)', () => {
  it('requires nothing and allows fields beyond 2.2 ("not a fixed list")', () => {
    expect(failuresOf({})).toEqual([]);
    expect(failuresOf({ sub: 'x', partner_segment: 'gold', address: { formatted: 'x' } })).toEqual([]);
  });

  it('accepts real dates, leap days included, and phone numbers as 2.2 writes them: + then two digits or more, grouped or not', () => {
    for (const birthdate of ['1988-02-29', '2000-02-29', '1950-12-31']) expect(failuresOf({ birthdate }), birthdate).toEqual([]);
    for (const phone_number of [
      '+79161234567',
      '+12025550123',
      '+441234567890',
      '+7 916 123-45-67',
      '+1 (425) 555-1212',
      '+7916123456789012',
      '+71',
      '+7 1',
    ]) {
      expect(failuresOf({ phone_number }), phone_number).toEqual([]);
    }
  });

  it('accepts e-mail addresses in any script and any string as sub (nothing stricter than 2.2)', () => {
    for (const email of ['ivan@example.ru', 'иван@почта.рф', 'ivan.petrov+tag@mail.example.com', 'ivan@пример.испытание'])
      expect(failuresOf({ email }), email).toEqual([]);
    expect(failuresOf({ sub: '' })).toEqual([]);
  });

  const broken: Array<[string, Record<string, unknown>, string]> = [
    ['birthdate dd.mm.yyyy', { birthdate: '29.02.1988' }, '/birthdate'],
    ['birthdate 30 February', { birthdate: '1990-02-30' }, '/birthdate'],
    ['birthdate 29 February of a common year', { birthdate: '1990-02-29' }, '/birthdate'],
    ['birthdate with a time', { birthdate: '1990-01-01T00:00:00Z' }, '/birthdate'],
    ['phone without +', { phone_number: '79161234567' }, '/phone_number'],
    ['phone with letters', { phone_number: '+7 916 CALL-NOW' }, '/phone_number'],
    ['phone of a + alone', { phone_number: '+' }, '/phone_number'],
    ['phone of a country code alone', { phone_number: '+7' }, '/phone_number'],
    ['phone of a zero alone', { phone_number: '+0' }, '/phone_number'],
    ['phone ending in a separator', { phone_number: '+7 916-' }, '/phone_number'],
    ['e-mail without @', { email: 'ivanov.mail.ru' }, '/email'],
    ["e-mail with ' at '", { email: 'ivanov at mail.ru' }, '/email'],
    ['e-mail without a domain', { email: 'ivanov@' }, '/email'],
    ['email_verified as a string', { email_verified: 'true' }, '/email_verified'],
    ['phone_number_verified as a number', { phone_number_verified: 1 }, '/phone_number_verified'],
    ['middle_name as null', { middle_name: null }, '/middle_name'],
    ['sub a number', { sub: 42 }, '/sub'],
    ['name as an object', { name: { family: 'X' } }, '/name'],
  ];
  for (const [what, value, at] of broken) {
    it(`rejects ${what}`, () => {
      const f = failuresOf(value);
      expect(f.length).toBeGreaterThan(0);
      expect(f[0].at).toBe(at);
    });
  }
});

describe('error schema (vendor convention)', () => {
  it('wants errorId, errorMessage and errorCode as strings; errorDetails an object when present', () => {
    expect(valueConformsTo({ errorId: 'a', errorMessage: 'm', errorCode: 'C' }, IDENTITY_ERROR, 'R')).toEqual([]);
    expect(valueConformsTo({ errorId: 'a', errorMessage: 'm', errorCode: 'C', errorDetails: { f: 1 } }, IDENTITY_ERROR, 'R')).toEqual([]);
    expect(valueConformsTo({ error: 'invalid_token', error_description: 'x' }, IDENTITY_ERROR, 'R').length).toBe(3);
    expect(valueConformsTo({ errorId: 'a', errorMessage: 'm', errorCode: 'C', errorDetails: 'x' }, IDENTITY_ERROR, 'R')[0].at).toBe(
      '/errorDetails',
    );
  });
});

describe('userinfoBody (generated people)', () => {
  it('gives answers that pass the schema and the name rule', () => {
    fc.assert(
      fc.property(userinfoBody(), (u) => {
        expect(failuresOf(u)).toEqual([]);
        expect(nameHoldsFamilyAndGiven(u, 'R')).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('gives Russian names and sometimes leaves fields out', () => {
    const sample = fc.sample(userinfoBody(), { numRuns: 200, seed: 7 });
    expect(sample.some((u) => typeof u.family_name === 'string' && /[А-Яа-яЁё]/.test(u.family_name))).toBe(true);
    expect(sample.some((u) => !('email' in u))).toBe(true);
    expect(sample.some((u) => !('middle_name' in u))).toBe(true);
  });

  it('every one-rule break of a generated answer fails the schema', () => {
    fc.assert(
      fc.property(invalidCaseArbitrary(USERINFO, userinfoBody()), (c) => {
        expect(failuresOf(c.value).length, `${c.description} (${c.rule} at ${c.path})`).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });
});
