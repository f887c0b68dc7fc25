/**
 * Checks of the identity userinfo answer (spec 2.2, 4.2, 5.2) and of its refusals. Field types and
 * formats live in specs/schemas/identity/userinfo.json; these are the rules a schema cannot say.
 */
import type { CapturedResponse } from '../request/http.ts';
import { isSuccess, noServerError, isServerError } from '../checks/answer.ts';
import { contentTypeIn, jsonBody, valueConformsTo } from '../checks/body.ts';
import { failure, type Failure } from '../checks/failure.ts';
import { isJsonObject } from '../text/json.ts';
import { schemaId } from '../spec/schemas.ts';

/** Every field of 2.2. */
export const USERINFO_FIELDS = [
  'sub',
  'name',
  'gender',
  'birthdate',
  'family_name',
  'given_name',
  'middle_name',
  'phone_number',
  'email',
  'email_verified',
  'phone_number_verified',
] as const;

/** OpenID Connect Core 1.0 section 5.4: the standard claims each scope asks for. `sub` belongs to every answer. */
export const OIDC_SCOPE_CLAIMS: Readonly<Record<string, readonly string[]>> = {
  profile: [
    'name',
    'family_name',
    'given_name',
    'middle_name',
    'nickname',
    'preferred_username',
    'profile',
    'picture',
    'website',
    'gender',
    'birthdate',
    'zoneinfo',
    'locale',
    'updated_at',
  ],
  email: ['email', 'email_verified'],
  address: ['address'],
  phone: ['phone_number', 'phone_number_verified'],
};

const nonEmpty = (v: unknown) => typeof v === 'string' && v.trim() !== '';

/** A field of 2.2 in the answer, with a value (null counts as none). */
const present = (b: Record<string, unknown>, field: string) => b[field] !== undefined && b[field] !== null;

/**
 * Answered as 4.2 says: 200, Content-Type application/json, a JSON object "with the fields of 2.2" (at
 * least one of them: `{}` is no userinfo answer). What every check of the fields needs first.
 */
export function answeredWithUserinfo(res: CapturedResponse, requirement: string): Failure[] {
  if (res.status !== 200)
    return [
      failure(requirement, 'status 200 with the userinfo fields', `${isServerError(res.status) ? 'server error' : 'status'} ${res.status}`),
    ];
  const notJson = jsonBody(res, requirement);
  if (notJson.length) return notJson;
  if (!isJsonObject(res.json)) return [failure(requirement, 'a JSON object', JSON.stringify(res.json).slice(0, 120))];
  const wrongType = contentTypeIn(res, ['application/json'], requirement);
  if (wrongType.length) return wrongType;
  const body = res.json;
  if (!USERINFO_FIELDS.some((f) => present(body, f)))
    return [
      failure(
        requirement,
        `a JSON object with the fields of 2.2 (${USERINFO_FIELDS.join(', ')})`,
        `an object with ${Object.keys(body).join(', ') || 'no field'}`,
      ),
    ];
  return [];
}

/** Whether the answer is the userinfo of 4.2 (the precondition of every check of its fields). */
export const isUserinfoAnswer = (res: CapturedResponse): boolean => answeredWithUserinfo(res, '').length === 0;

/** The kinds of data a person consents to in 4.2 (full name, e-mail, phone number), and the fields of 2.2 that carry each. */
export const CONSENTED_KINDS: ReadonlyArray<{ kind: string; scope: string; served: (b: Record<string, unknown>) => boolean }> = [
  {
    kind: 'a full name (name, or family_name and given_name)',
    scope: 'profile',
    served: (b) => nonEmpty(b.name) || (nonEmpty(b.family_name) && nonEmpty(b.given_name)),
  },
  { kind: 'an e-mail address (email)', scope: 'email', served: (b) => nonEmpty(b.email) },
  { kind: 'a phone number (phone_number)', scope: 'phone', served: (b) => nonEmpty(b.phone_number) },
];

/**
 * Each kind of consented data (4.2: full name, e-mail and phone number) is served to at least one of
 * the people asked. A person may lack some of it ("not a fixed list"), so no single answer must hold
 * all three; a pool in which nobody is served one kind has not shown it.
 */
export function consentedKindsServed(bodies: readonly unknown[], requirement: string, kinds = CONSENTED_KINDS): Failure[] {
  const never = kinds.filter((k) => !bodies.some((b) => isJsonObject(b) && k.served(b))).map((k) => k.kind);
  return never.length
    ? [
        failure(
          requirement,
          'each kind of consented data served to at least one person of the pool',
          `never served to any of ${bodies.length} people: ${never.join('; ')}`,
        ),
      ]
    : [];
}

const USERINFO_SCHEMA = schemaId('identity/userinfo');

/** The value has the form 2.2 gives `field` (specs/schemas/identity/userinfo.json). */
const inFormOf22 = (field: string, value: unknown) => valueConformsTo({ [field]: value }, USERINFO_SCHEMA, '').length === 0;

/** The fields of 2.2 whose values have a form of their own, so that a value in that form is the user's data wherever it appears. */
const DATA_FIELDS = ['phone_number', 'email', 'birthdate'];

/** Fields of 2.2 at any depth of a JSON value whose values have the form of the data (a phone number, an e-mail address, a date). */
function userDataIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) userDataIn(v, found);
  else if (isJsonObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'string' && DATA_FIELDS.includes(k) && inFormOf22(k, v.trim())) found.add(k);
      userDataIn(v, found);
    }
  }
  return found;
}

/**
 * Refused: neither 2xx nor 5xx (the spec fixes no status for userinfo errors), carrying none of the
 * user's data: no field of 2.2 whose value is a phone number, an e-mail address or a date, at any
 * depth. A field's name alone is no data (`errorDetails: { email: "not consented" }` says why); the
 * values a successful answer showed are carriesNoUserValues' to find.
 */
export function refusedWithoutData(res: CapturedResponse, requirement: string): Failure[] {
  if (isSuccess(res.status)) return [failure(requirement, 'refused (neither 2xx nor 5xx)', `accepted with ${res.status}`)];
  const out = noServerError(res, requirement);
  const fields = [...userDataIn(res.json)];
  if (fields.length)
    out.push(
      failure(
        requirement,
        "a refusal that carries none of the user's data",
        `a ${res.status} that carries ${fields.join(', ')} with a value in the form of that data`,
      ),
    );
  return out;
}

/**
 * None of `knownValues` (users' data as successful answers showed it) anywhere in the answer: in its
 * text, or in a string of its JSON (where escapes such as \u0418 write it otherwise). The values are
 * never printed.
 */
export function carriesNoUserValues(res: CapturedResponse, knownValues: readonly string[], requirement: string): Failure[] {
  const strings = stringsIn(res.json);
  const values = knownValues.filter((v) => v.length >= 5 && (res.rawBody.includes(v) || strings.some((s) => s.includes(v))));
  return values.length
    ? [
        failure(
          requirement,
          "a refusal that carries none of the user's data",
          `a ${res.status} whose body holds ${values.length} value(s) that userinfo answers of this run showed`,
        ),
      ]
    : [];
}

/** Every string of a JSON value, keys aside. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  return isJsonObject(value) ? Object.values(value).flatMap(stringsIn) : [];
}

/** The user's string values in a successful answer, for the leak check of refusals. */
export function userValues(body: unknown): string[] {
  if (!isJsonObject(body)) return [];
  return USERINFO_FIELDS.map((k) => body[k]).filter((v): v is string => typeof v === 'string');
}

/** Case, ё/е and spacing do not make a different name. */
function normalised(text: string): string {
  return text.normalize('NFC').toLocaleLowerCase('ru').replace(/ё/g, 'е').replace(/\s+/g, ' ').trim();
}

/** When name, family_name and given_name are all present, name holds the other two (spec 2.2). */
export function nameHoldsFamilyAndGiven(body: unknown, requirement: string): Failure[] {
  if (!isJsonObject(body)) return [];
  const { name, family_name: family, given_name: given } = body;
  if (typeof name !== 'string' || typeof family !== 'string' || typeof given !== 'string') return [];
  const missing = [
    ...(normalised(name).includes(normalised(family)) ? [] : [`family_name ${JSON.stringify(family)}`]),
    ...(normalised(name).includes(normalised(given)) ? [] : [`given_name ${JSON.stringify(given)}`]),
  ];
  return missing.length ? [failure(requirement, `name holding ${missing.join(' and ')}`, `name ${JSON.stringify(name)}`, '/name')] : [];
}

/** No standard claim of a scope the token was not granted (OpenID Connect scope mapping). */
export function followsScopeMapping(body: unknown, granted: readonly string[], requirement: string): Failure[] {
  if (!isJsonObject(body)) return [];
  const out: Failure[] = [];
  for (const [scope, claims] of Object.entries(OIDC_SCOPE_CLAIMS)) {
    if (granted.includes(scope)) continue;
    // A claim that a granted scope also maps stays allowed.
    const allowedElsewhere = (claim: string) => granted.some((g) => OIDC_SCOPE_CLAIMS[g]?.includes(claim));
    for (const claim of claims.filter((c) => c in body && !allowedElsewhere(c))) {
      out.push(
        failure(
          requirement,
          `no ${claim}: it belongs to the scope ${scope}, which the token lacks (granted: ${granted.join(' ')})`,
          JSON.stringify(body[claim]).slice(0, 120),
          `/${claim}`,
        ),
      );
    }
  }
  return out;
}

/** The fields of 2.2 that the OpenID Connect mapping gives `scope`. */
export function fieldsOfScope(scope: string): string[] {
  return (OIDC_SCOPE_CLAIMS[scope] ?? []).filter((c) => (USERINFO_FIELDS as readonly string[]).includes(c));
}

/**
 * Every field of 2.2 that `scope` brings is served to at least one of the people asked (data a person
 * lacks may be absent, so one answer alone cannot demand it).
 */
export function scopeFieldsServed(bodies: readonly unknown[], scope: string, requirement: string): Failure[] {
  const never = fieldsOfScope(scope).filter((field) => !bodies.some((b) => isJsonObject(b) && b[field] !== undefined && b[field] !== null));
  return never.length
    ? [
        failure(
          requirement,
          `every field the scope ${scope} brings, for at least one person: ${fieldsOfScope(scope).join(', ')}`,
          `never served to any of ${bodies.length} people: ${never.join(', ')}`,
        ),
      ]
    : [];
}

/** `sub` is a non-empty string. */
export function hasSub(body: unknown, requirement: string): Failure[] {
  const sub = isJsonObject(body) ? body.sub : undefined;
  return typeof sub === 'string' && sub !== ''
    ? []
    : [failure(requirement, 'sub, a non-empty string', sub === undefined ? 'no sub' : JSON.stringify(sub), '/sub')];
}

/**
 * Two answers for one token describe one user: the same sub. When neither carries a sub, the same
 * claims (the data of one user does not change between two calls a moment apart).
 */
export function sameUser(first: unknown, second: unknown, requirement: string): Failure[] {
  const a = isJsonObject(first) ? first : {};
  const b = isJsonObject(second) ? second : {};
  if (a.sub !== undefined || b.sub !== undefined) {
    return a.sub === b.sub
      ? []
      : [failure(requirement, `the same sub in both answers (first ${JSON.stringify(a.sub)})`, `second ${JSON.stringify(b.sub)}`, '/sub')];
  }
  const canonical = (o: Record<string, unknown>) =>
    JSON.stringify(
      Object.keys(o)
        .sort()
        .map((k) => [k, o[k]]),
    );
  return canonical(a) === canonical(b)
    ? []
    : [
        failure(
          requirement,
          'the same claims in both answers (neither has a sub)',
          `${canonical(a).slice(0, 120)} then ${canonical(b).slice(0, 120)}`,
        ),
      ];
}

/** The response carries a non-empty X-Request-Id header (vendor convention). */
export function hasRequestId(res: CapturedResponse, requirement: string): Failure[] {
  const value = res.headers['x-request-id'];
  return value && value.trim() !== ''
    ? []
    : [failure(requirement, 'an X-Request-Id response header', value === undefined ? 'none' : JSON.stringify(value))];
}

/** '+' followed by country code and subscriber number (2.2), as specs/schemas/identity/userinfo.json reads it: what is not is IDN-FMT-001's. */
export const isPhoneOf22 = (phone: unknown): phone is string => typeof phone === 'string' && inFormOf22('phone_number', phone);

/** ITU-T E.164 as OpenID Connect recommends it: '+', a country code that does not start with 0, at most 15 digits, nothing else. */
const E164 = /^\+[1-9][0-9]{1,14}$/;

/** phone_number, when present, in E.164 form (a policy: 2.2 says only "'+' followed by country code and subscriber number"). */
export function phoneIsE164(body: unknown, requirement: string): Failure[] {
  const phone = isJsonObject(body) ? body.phone_number : undefined;
  if (!isPhoneOf22(phone) || E164.test(phone)) return [];
  return [
    failure(
      requirement,
      "phone_number in E.164 form: '+', 2 to 15 digits, the first not 0, no separators",
      JSON.stringify(phone),
      '/phone_number',
    ),
  ];
}

/**
 * Two answers give the same data: every field of 2.2 but `except` has the same value in both (fields
 * beyond 2.2, such as a per-request trace id, may differ).
 */
export function sameFieldsOf22(expected: unknown, received: unknown, requirement: string, except: readonly string[] = []): Failure[] {
  const a = isJsonObject(expected) ? expected : {};
  const b = isJsonObject(received) ? received : {};
  const differing = USERINFO_FIELDS.filter((f) => !except.includes(f) && JSON.stringify(a[f]) !== JSON.stringify(b[f]));
  if (!differing.length) return [];
  const show = (o: Record<string, unknown>) =>
    differing.map((f) => `${f} ${o[f] === undefined ? 'absent' : JSON.stringify(o[f])}`).join(', ');
  return [failure(requirement, `the same fields of 2.2 as the request of 4.2 for the same person: ${show(a)}`, show(b))];
}
