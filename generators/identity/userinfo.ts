/**
 * Identity userinfo generators. The suite cannot make a target create people, so "property-based over
 * generated people" has two halves:
 * - requestVariation: equivalent encodings of one userinfo request (form field order, a charset
 *   parameter, the case of the auth scheme, percent-encoding every byte, an extra unknown form field);
 *   the suite runs them over the pool of people the target file lists, and each must get the same answer.
 * - userinfoBody: userinfo answers of generated, self-consistent people (Russian names from faker),
 *   which the selftests feed to the checks and the schema.
 */
import fc from 'fast-check';
import { schemaId } from '../../harness/schemas.ts';
import { schemaArbitrary } from '../schema-arbitrary.ts';

export const USERINFO = schemaId('identity/userinfo');
export const IDENTITY_ERROR = schemaId('identity/error');

export const AUTH_SCHEMES = ['Bearer', 'bearer', 'BEARER', 'bEARER'] as const;

export interface RequestVariation {
  /** The auth scheme's spelling: scheme names are case-insensitive (RFC 9110 section 11.1). */
  scheme: string;
  /** client_secret before client_id in the form. */
  secretFirst: boolean;
  /** `; charset=UTF-8` after application/x-www-form-urlencoded. */
  charset: boolean;
  /** Every byte of every name and value written as %XX, which a form decoder reads as the same text. */
  percentEncodeAll: boolean;
  /** A form field the operation does not define. */
  extraField?: [string, string];
}

export const CANONICAL_REQUEST: Readonly<RequestVariation> = Object.freeze({ scheme: 'Bearer', secretFirst: false, charset: false, percentEncodeAll: false });

export interface RequestVariationConstraints {
  /** The extra unknown form field: sometimes (true, the default) or never (false). */
  extraFields?: boolean;
  /** The auth scheme in any letter case (true, the default), or always "Bearer" (false). */
  schemeCase?: boolean;
  /**
   * Only variations beyond the form's own equivalences of 4.2: another scheme case or an extra field
   * (that both leave the request the same is a reading of ours, RFC 9110 and a policy).
   */
  beyondTheForm?: boolean;
}

export function requestVariation(constraints: RequestVariationConstraints = {}): fc.Arbitrary<RequestVariation> {
  const extra = fc.tuple(fc.constantFrom('pc_probe', 'x_conformance_trace', 'partner_note'), fc.stringMatching(/^[A-Za-z0-9]{1,12}$/));
  const variations = fc.record({
    scheme: constraints.schemeCase === false ? fc.constant('Bearer') : fc.constantFrom(...AUTH_SCHEMES),
    secretFirst: fc.boolean(),
    charset: fc.boolean(),
    percentEncodeAll: fc.boolean(),
    extraField: constraints.extraFields === false ? fc.constant(undefined) : fc.option(extra, { nil: undefined }),
  });
  return constraints.beyondTheForm ? variations.filter((v) => v.scheme !== 'Bearer' || v.extraField !== undefined) : variations;
}

export function describeVariation(v: RequestVariation): string {
  const parts = [`scheme "${v.scheme}"`, v.secretFirst ? 'client_secret first' : 'client_id first'];
  if (v.charset) parts.push('charset parameter');
  if (v.percentEncodeAll) parts.push('every byte percent-encoded');
  if (v.extraField) parts.push(`extra field ${v.extraField[0]}`);
  return parts.join(', ');
}

/** Every byte as %XX (upper-case hex). */
export function percentEncodeAll(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/** An escape, or a character a form encoder leaves plain. */
const TOKEN = /%[0-9A-Fa-f]{2}|[A-Za-z0-9._~*-]/g;

/**
 * Encoded form text made different on every call without changing what it says: each plain character
 * percent-encoded with probability one half, and every escape in a random hex case. A form decoder
 * reads the same text (application/x-www-form-urlencoded); the bytes are new (for a value of n plain
 * characters, two calls collide with a probability of about 2^-n).
 */
export function freshlyEncoded(encoded: string, random: () => number = Math.random): string {
  const hexCase = (hex: string) => (random() < 0.5 ? hex.toUpperCase() : hex.toLowerCase());
  return encoded.replace(TOKEN, (t) => {
    if (t.startsWith('%')) return `%${hexCase(t.slice(1))}`;
    return random() < 0.5 ? `%${hexCase(t.charCodeAt(0).toString(16).padStart(2, '0'))}` : t;
  });
}

/**
 * application/x-www-form-urlencoded text of the pairs, in their order. The value of `freshField`, when
 * given, is `freshlyEncoded`: no two requests of a run then carry the same bytes, so a target (or a
 * cache before it) that answers a repeated request otherwise than a new one cannot hide a failure
 * behind a repeat, such as a 5xx the first time a request is seen.
 */
export function encodeForm(pairs: ReadonlyArray<readonly [string, string]>, encodeAll = false, freshField?: string): string {
  const encode = encodeAll ? percentEncodeAll : (s: string) => new URLSearchParams([['', s]]).toString().slice(1);
  return pairs.map(([k, v]) => `${encode(k)}=${k === freshField ? freshlyEncoded(encode(v)) : encode(v)}`).join('&');
}

/** The form pairs of a userinfo request under a variation; `undefined` leaves a field out. */
export function formPairs(clientId: string | undefined, clientSecret: string | undefined, v: RequestVariation = CANONICAL_REQUEST): Array<[string, string]> {
  const id: Array<[string, string]> = clientId === undefined ? [] : [['client_id', clientId]];
  const secret: Array<[string, string]> = clientSecret === undefined ? [] : [['client_secret', clientSecret]];
  const pairs = v.secretFirst ? [...secret, ...id] : [...id, ...secret];
  if (v.extraField) pairs.splice(1, 0, v.extraField);
  return pairs;
}

export type Userinfo = Record<string, unknown>;

/**
 * Userinfo answers a conforming service could give: schema-valid, any subset of the fields, and the
 * person self-consistent (name = family name and given name, sometimes with the patronymic).
 */
export function userinfoBody(): fc.Arbitrary<Userinfo> {
  return fc.tuple(schemaArbitrary<Userinfo>(USERINFO), fc.boolean()).map(([u, withPatronymic]) => {
    if (typeof u.family_name !== 'string' || typeof u.given_name !== 'string') return u;
    const parts = [u.family_name, u.given_name, ...(withPatronymic && typeof u.middle_name === 'string' ? [u.middle_name] : [])];
    return 'name' in u ? { ...u, name: parts.join(' ') } : u;
  });
}
