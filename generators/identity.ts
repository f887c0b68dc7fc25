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
import { schemaId } from '../harness/schemas.ts';
import { schemaArbitrary } from './schema-arbitrary.ts';

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
  /** Include the extra unknown form field variation (default true). */
  extraFields?: boolean;
}

export function requestVariation(constraints: RequestVariationConstraints = {}): fc.Arbitrary<RequestVariation> {
  const extra = fc.tuple(fc.constantFrom('pc_probe', 'x_conformance_trace', 'partner_note'), fc.stringMatching(/^[A-Za-z0-9]{1,12}$/));
  return fc.record({
    scheme: fc.constantFrom(...AUTH_SCHEMES),
    secretFirst: fc.boolean(),
    charset: fc.boolean(),
    percentEncodeAll: fc.boolean(),
    extraField: constraints.extraFields === false ? fc.constant(undefined) : fc.option(extra, { nil: undefined }),
  });
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

/** application/x-www-form-urlencoded text of the pairs, in their order. */
export function encodeForm(pairs: ReadonlyArray<readonly [string, string]>, encodeAll = false): string {
  const encode = encodeAll ? percentEncodeAll : (s: string) => new URLSearchParams([['', s]]).toString().slice(1);
  return pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
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
