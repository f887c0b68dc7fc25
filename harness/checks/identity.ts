/**
 * Checks of the identity userinfo answer (spec 2.2, 4.2, 5.2) and of its refusals. Field types and
 * formats live in specs/schemas/identity/userinfo.json; these are the rules a schema cannot say.
 */
import type { CapturedResponse } from '../http.ts';
import { contentTypeIn, jsonBody } from './body.ts';
import { failure, type Failure } from './failure.ts';

/** Claims that are the user's personal data: an answer that refuses the request must carry none. */
export const PERSONAL_CLAIMS = ['family_name', 'given_name', 'middle_name', 'birthdate', 'phone_number', 'email'] as const;

/** OpenID Connect Core 1.0 section 5.4: the standard claims each scope asks for. `sub` belongs to every answer. */
export const OIDC_SCOPE_CLAIMS: Readonly<Record<string, readonly string[]>> = {
  profile: ['name', 'family_name', 'given_name', 'middle_name', 'nickname', 'preferred_username', 'profile', 'picture', 'website', 'gender', 'birthdate', 'zoneinfo', 'locale', 'updated_at'],
  email: ['email', 'email_verified'],
  address: ['address'],
  phone: ['phone_number', 'phone_number_verified'],
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Answered 200 with a JSON object (spec 4.2): what every check of the fields needs first. */
export function answeredWithObject(res: CapturedResponse, requirement: string): Failure[] {
  if (res.status !== 200) return [failure(requirement, 'status 200 with the userinfo fields', `status ${res.status}`)];
  const notJson = jsonBody(res, requirement);
  if (notJson.length) return notJson;
  return isObject(res.json) ? [] : [failure(requirement, 'a JSON object', JSON.stringify(res.json).slice(0, 120))];
}

/** Answered 200 with a JSON object labelled application/json (spec 4.2). */
export function answeredWithUserinfo(res: CapturedResponse, requirement: string): Failure[] {
  const answered = answeredWithObject(res, requirement);
  return answered.length ? answered : contentTypeIn(res, ['application/json'], requirement);
}

/**
 * Refused: a 4xx, and the answer carries none of the user's personal claims. 429 is not a refusal of
 * the request's content (the client has already waited out its retries when it still sees one).
 */
export function refusedWithoutData(res: CapturedResponse, requirement: string): Failure[] {
  if (res.status === 429) return [failure(requirement, 'a refusal with a 4xx on the request\'s merits', 'status 429 (rate limited even after retries), which says nothing about the request')];
  if (res.status < 400 || res.status >= 500) {
    const what = res.status < 300 ? 'accepted with' : res.status >= 500 ? 'server error' : 'status';
    return [failure(requirement, 'refused with a 4xx', `${what} ${res.status}`)];
  }
  if (!isObject(res.json)) return [];
  const leaked = PERSONAL_CLAIMS.filter((claim) => claim in (res.json as Record<string, unknown>));
  return leaked.length ? [failure(requirement, 'a refusal that carries none of the user\'s data', `a ${res.status} that carries ${leaked.join(', ')}`)] : [];
}

/** Case, ё/е and spacing do not make a different name. */
function normalised(text: string): string {
  return text.normalize('NFC').toLocaleLowerCase('ru').replace(/ё/g, 'е').replace(/\s+/g, ' ').trim();
}

/** When name, family_name and given_name are all present, name holds the other two (spec 2.2). */
export function nameHoldsFamilyAndGiven(body: unknown, requirement: string): Failure[] {
  if (!isObject(body)) return [];
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
  if (!isObject(body)) return [];
  const out: Failure[] = [];
  for (const [scope, claims] of Object.entries(OIDC_SCOPE_CLAIMS)) {
    if (granted.includes(scope)) continue;
    // A claim that a granted scope also maps stays allowed.
    const allowedElsewhere = (claim: string) => granted.some((g) => OIDC_SCOPE_CLAIMS[g]?.includes(claim));
    for (const claim of claims.filter((c) => c in body && !allowedElsewhere(c))) {
      out.push(failure(requirement, `no ${claim}: it belongs to the scope ${scope}, which the token lacks (granted: ${granted.join(' ')})`, JSON.stringify(body[claim]).slice(0, 120), `/${claim}`));
    }
  }
  return out;
}

/** `sub` is a non-empty string. */
export function hasSub(body: unknown, requirement: string): Failure[] {
  const sub = isObject(body) ? body.sub : undefined;
  return typeof sub === 'string' && sub !== '' ? [] : [failure(requirement, 'sub, a non-empty string', sub === undefined ? 'no sub' : JSON.stringify(sub), '/sub')];
}

/**
 * Two answers for one token describe one user: the same sub. When neither carries a sub, the same
 * claims (the data of one user does not change between two calls a moment apart).
 */
export function sameUser(first: unknown, second: unknown, requirement: string): Failure[] {
  const a = isObject(first) ? first : {};
  const b = isObject(second) ? second : {};
  if (a.sub !== undefined || b.sub !== undefined) {
    return a.sub === b.sub ? [] : [failure(requirement, `the same sub in both answers (first ${JSON.stringify(a.sub)})`, `second ${JSON.stringify(b.sub)}`, '/sub')];
  }
  const canonical = (o: Record<string, unknown>) => JSON.stringify(Object.keys(o).sort().map((k) => [k, o[k]]));
  return canonical(a) === canonical(b) ? [] : [failure(requirement, 'the same claims in both answers (neither has a sub)', `${canonical(a).slice(0, 120)} then ${canonical(b).slice(0, 120)}`)];
}

/** The response carries a non-empty X-Request-Id header (vendor convention). */
export function hasRequestId(res: CapturedResponse, requirement: string): Failure[] {
  const value = res.headers['x-request-id'];
  return value && value.trim() !== '' ? [] : [failure(requirement, 'an X-Request-Id response header', value === undefined ? 'none' : JSON.stringify(value))];
}
