/** The identity checks: acceptance, the consented data, refusal without data, the name rule, the scope mapping, sub, E.164. */
import { describe, expect, it } from 'vitest';
import {
  answeredWithUserinfo,
  consentedKindsServed,
  fieldsOfScope,
  followsScopeMapping,
  hasRequestId,
  hasSub,
  isPhoneOf22,
  nameHoldsFamilyAndGiven,
  phoneIsE164,
  carriesNoUserValues,
  refusedWithoutData,
  sameFieldsOf22,
  sameUser,
  scopeFieldsServed,
  userValues,
} from '../../harness/identity/checks.ts';
import { cannedResponse } from '../helpers.ts';
import type { CapturedResponse } from '../../harness/request/http.ts';

function response(
  status: number,
  body?: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): CapturedResponse {
  return cannedResponse(status, body, headers);
}

describe('answeredWithUserinfo', () => {
  it('accepts 200 with a JSON object labelled application/json, charset or not, that carries a field of 2.2', () => {
    expect(answeredWithUserinfo(response(200, { sub: 'a' }), 'R')).toEqual([]);
    expect(
      answeredWithUserinfo(response(200, { email: 'a@b.ru', trace: 1 }, { 'content-type': 'application/json; charset=utf-8' }), 'R'),
    ).toEqual([]);
  });

  it('names an object without any field of 2.2 ({} or only unknown fields, or nulls)', () => {
    expect(answeredWithUserinfo(response(200, {}), 'R')[0].received).toBe('an object with no field');
    expect(answeredWithUserinfo(response(200, { trace: 'x', email: null }), 'R')[0].received).toBe('an object with trace, email');
  });

  it('names a refusal, a non-JSON body, an array and a wrong content type', () => {
    expect(answeredWithUserinfo(response(403, { errorCode: 'X' }), 'R')[0]).toMatchObject({ requirement: 'R', received: 'status 403' });
    expect(answeredWithUserinfo(response(200, '<html>'), 'R')[0].received).toMatch(/not JSON/);
    expect(answeredWithUserinfo(response(200, [{ sub: 'a' }]), 'R')[0].expected).toBe('a JSON object');
    expect(answeredWithUserinfo(response(200, {}, { 'content-type': 'text/plain' }), 'R')[0].received).toBe('Content-Type text/plain');
  });
});

describe('consentedKindsServed', () => {
  it('wants each kind (a full name, an e-mail address, a phone number) served to someone, not everything to everyone', () => {
    expect(consentedKindsServed([{ name: 'Иванов Иван', email: 'a@b.ru', phone_number: '+79990000000' }], 'R')).toEqual([]);
    expect(
      consentedKindsServed(
        [
          { family_name: 'Иванов', given_name: 'Иван', email: 'a@b.ru' },
          { name: 'Петров Пётр', phone_number: '+7999' },
        ],
        'R',
      ),
    ).toEqual([]);
  });

  it('names the kinds nobody is served', () => {
    const f = consentedKindsServed(
      [
        { family_name: 'Иванов', email: 'a@b.ru' },
        { name: ' ', email: 'c@d.ru' },
      ],
      'R',
    );
    expect(f).toHaveLength(1);
    expect(f[0].received).toBe(
      'never served to any of 2 people: a full name (name, or family_name and given_name); a phone number (phone_number)',
    );
    expect(consentedKindsServed([], 'R')).toHaveLength(1);
  });
});

describe('refusedWithoutData', () => {
  it('takes every status but 2xx and 5xx as a refusal', () => {
    for (const status of [400, 401, 403, 404, 415, 422]) expect(refusedWithoutData(response(status, { errorCode: 'X' }), 'R')).toEqual([]);
    expect(refusedWithoutData(response(401, undefined, {}), 'R')).toEqual([]);
  });

  it('names an acceptance and a server error', () => {
    expect(refusedWithoutData(response(200, { errorCode: 'X' }), 'R')[0].received).toBe('accepted with 200');
    expect(refusedWithoutData(response(500), 'R')[0].received).toBe('server error 500');
  });

  it('fails a refusal that carries a phone number, an e-mail address or a date under a field of 2.2, at any depth', () => {
    const leaked = refusedWithoutData(response(403, { errorCode: 'CONSENT_REQUIRED', email: 'a@b.ru', phone_number: '+79990000000' }), 'R');
    expect(leaked).toHaveLength(1);
    expect(leaked[0].received).toBe('a 403 that carries email, phone_number with a value in the form of that data');
    expect(
      refusedWithoutData(response(403, { errorDetails: { user: { birthdate: '1990-01-31', email: 'иван@почта.рф' } } }), 'R')[0].received,
    ).toMatch(/^a 403 that carries birthdate, email /);
  });

  it('passes a refusal that only names fields of 2.2, whatever their number or depth', () => {
    expect(refusedWithoutData(response(400, { errorMessage: 'bad', name: 'BadRequest' }), 'R')).toEqual([]);
    const details = {
      errorDetails: {
        email: 'not consented',
        phone_number: 'scope phone required',
        birthdate: 'withheld',
        sub: 'withheld',
        gender: 'withheld',
      },
    };
    expect(refusedWithoutData(response(403, details), 'R')).toEqual([]);
    expect(refusedWithoutData(response(403, 'email and phone_number withheld', { 'content-type': 'text/plain' }), 'R')).toEqual([]);
  });

  it("carriesNoUserValues fails a refusal whose text holds the user's values, and does not take error words for data", () => {
    const known = userValues({ sub: 'sub-123456', email: 'ivan@example.ru', name: 'Иванов Иван', email_verified: true });
    expect(known).toEqual(['sub-123456', 'Иванов Иван', 'ivan@example.ru']);
    const f = carriesNoUserValues(response(403, { errorMessage: 'denied for ivan@example.ru' }), known, 'R');
    expect(f[0].received).toBe('a 403 whose body holds 1 value(s) that userinfo answers of this run showed');
    expect(JSON.stringify(f)).not.toContain('ivan@example.ru');
    // Escaped in the JSON text, another person's name is still there.
    const escaped = {
      ...response(403, {}),
      rawBody: '{"name":"\\u0418\\u0432\\u0430\\u043d\\u043e\\u0432 \\u0418\\u0432\\u0430\\u043d"}',
      json: { name: 'Иванов Иван' },
    };
    expect(carriesNoUserValues(escaped, known, 'R')).toHaveLength(1);
    expect(carriesNoUserValues(response(400, { errorMessage: 'email and phone_number are missing' }), known, 'R')).toEqual([]);
  });
});

describe('scopeFieldsServed', () => {
  it('wants every field of 2.2 that the scope brings served to at least one person', () => {
    expect(fieldsOfScope('phone')).toEqual(['phone_number', 'phone_number_verified']);
    expect(fieldsOfScope('profile')).toEqual(['name', 'family_name', 'given_name', 'middle_name', 'gender', 'birthdate']);
    expect(scopeFieldsServed([{ phone_number: '+7' }, { phone_number_verified: true }], 'phone', 'R')).toEqual([]);
    expect(scopeFieldsServed([{ phone_number: '+7' }, {}], 'phone', 'R')[0].received).toBe(
      'never served to any of 2 people: phone_number_verified',
    );
    expect(scopeFieldsServed([{}], 'email', 'R')[0].received).toMatch(/email, email_verified/);
  });
});

describe('nameHoldsFamilyAndGiven', () => {
  it('accepts both orders, a patronymic, other case and ё for е', () => {
    const base = { family_name: 'Фёдоров', given_name: 'Пётр' };
    for (const name of ['Фёдоров Пётр', 'Пётр Фёдоров', 'Фёдоров Пётр Ильич', 'ФЕДОРОВ ПЕТР', 'Федоров  Петр']) {
      expect(nameHoldsFamilyAndGiven({ ...base, name }, 'R'), name).toEqual([]);
    }
  });

  it('fails a name without the family name, and names what is missing', () => {
    const f = nameHoldsFamilyAndGiven({ name: 'Пётр Ильич', family_name: 'Фёдоров', given_name: 'Пётр' }, 'R');
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ at: '/name', expected: 'name holding family_name "Фёдоров"' });
  });

  it('says nothing unless all three are strings (absence is never a failure)', () => {
    expect(nameHoldsFamilyAndGiven({ name: 'X', given_name: 'Y' }, 'R')).toEqual([]);
    expect(nameHoldsFamilyAndGiven({ family_name: 'X', given_name: 'Y' }, 'R')).toEqual([]);
    expect(nameHoldsFamilyAndGiven(null, 'R')).toEqual([]);
  });
});

describe('followsScopeMapping', () => {
  const granted = ['openid', 'profile', 'phone', 'email'];
  it('accepts every claim of profile, phone and email, sub, and claims outside OpenID Connect', () => {
    const body = {
      sub: 's',
      name: 'n',
      nickname: 'k',
      birthdate: '1990-01-01',
      phone_number: '+7',
      email_verified: true,
      partner_segment: 'x',
    };
    expect(followsScopeMapping(body, granted, 'R')).toEqual([]);
  });

  it('fails the address claim without the address scope, and a phone claim without phone', () => {
    expect(followsScopeMapping({ address: { formatted: 'x' } }, granted, 'R')[0]).toMatchObject({ at: '/address' });
    expect(followsScopeMapping({ phone_number: '+7999' }, ['profile', 'email'], 'R')[0].expected).toMatch(/scope phone/);
    expect(followsScopeMapping({ address: {} }, [...granted, 'address'], 'R')).toEqual([]);
  });
});

describe('phoneIsE164 and isPhoneOf22', () => {
  it("reads 2.2's '+' and digits with separators, and E.164 as plain digits, at most 15, the first not 0", () => {
    for (const phone of ['+79161234567', '+7 916 123-45-67', '+1 (425) 555-1212', '+0123', '+7916123456789012'])
      expect(isPhoneOf22(phone), phone).toBe(true);
    for (const phone of ['79161234567', '+', '+7-', 'tel:+7916', '+7 916 x']) expect(isPhoneOf22(phone), phone).toBe(false);
    expect(phoneIsE164({ phone_number: '+79161234567' }, 'R')).toEqual([]);
    for (const phone_number of ['+7 916 123-45-67', '+0123', '+7916123456789012'])
      expect(phoneIsE164({ phone_number }, 'R'), phone_number).toHaveLength(1);
  });

  it("leaves what is not 2.2's form, and absence, to other checks", () => {
    expect(phoneIsE164({ phone_number: '79161234567' }, 'R')).toEqual([]);
    expect(phoneIsE164({}, 'R')).toEqual([]);
  });
});

describe('sameFieldsOf22', () => {
  it('compares the fields of 2.2 only, except those named', () => {
    expect(sameFieldsOf22({ sub: 'a', email: 'x@y.ru', trace: 1 }, { email: 'x@y.ru', sub: 'a', trace: 2 }, 'R')).toEqual([]);
    expect(sameFieldsOf22({ sub: 'a' }, { sub: 'b' }, 'R', ['sub'])).toEqual([]);
    const f = sameFieldsOf22({ sub: 'a', email: 'x@y.ru' }, { sub: 'a' }, 'R');
    expect(f[0]).toMatchObject({ received: 'email absent' });
    expect(f[0].expected).toMatch(/email "x@y.ru"$/);
  });
});

describe('hasSub, sameUser, hasRequestId', () => {
  it('hasSub wants a non-empty string', () => {
    expect(hasSub({ sub: 'x' }, 'R')).toEqual([]);
    expect(hasSub({}, 'R')[0].received).toBe('no sub');
    expect(hasSub({ sub: '' }, 'R')).toHaveLength(1);
    expect(hasSub({ sub: 42 }, 'R')).toHaveLength(1);
  });

  it('sameUser compares sub, or every claim when neither answer has one', () => {
    expect(sameUser({ sub: 'a', email: 'x' }, { sub: 'a', email: 'y' }, 'R')).toEqual([]);
    expect(sameUser({ sub: 'a' }, { sub: 'b' }, 'R')).toHaveLength(1);
    expect(sameUser({ sub: 'a' }, {}, 'R')).toHaveLength(1);
    expect(sameUser({ email: 'x', name: 'n' }, { name: 'n', email: 'x' }, 'R')).toEqual([]);
    expect(sameUser({ email: 'x' }, { email: 'y' }, 'R')).toHaveLength(1);
  });

  it('hasRequestId wants a non-empty X-Request-Id', () => {
    expect(hasRequestId(response(401, {}, { 'x-request-id': 'abc' }), 'R')).toEqual([]);
    expect(hasRequestId(response(401, {}, {}), 'R')[0].received).toBe('none');
    expect(hasRequestId(response(401, {}, { 'x-request-id': ' ' }), 'R')).toHaveLength(1);
  });
});
