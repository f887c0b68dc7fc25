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
import { schemaId } from '../../harness/spec/schemas.ts';
import { schemaArbitrary } from '../schema-arbitrary.ts';
import type { RequestVariation } from '../../harness/identity/requests.ts';

export const USERINFO = schemaId('identity/userinfo');
export const IDENTITY_ERROR = schemaId('identity/error');

export const AUTH_SCHEMES = ['Bearer', 'bearer', 'BEARER', 'bEARER'] as const;

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
