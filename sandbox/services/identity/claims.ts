/**
 * The userinfo answer of one person for the granted scopes, following the OpenID Connect scope
 * mapping (Core 1.0 section 5.4): profile gives the name, gender and birth fields, phone the phone
 * fields, email the e-mail fields; sub is always returned. Data the person lacks is left out.
 */
import type { Person } from './people.ts';

export type Claims = Record<string, unknown>;

const profileClaims = (p: Person): Claims => ({
  name: p.hasFullName ? `${p.familyName} ${p.givenName}` : undefined,
  family_name: p.familyName,
  given_name: p.givenName,
  middle_name: p.middleName,
  gender: p.gender,
  birthdate: p.birthdate,
});

const phoneClaims = (p: Person): Claims =>
  p.phoneNumber === undefined ? {} : { phone_number: p.phoneNumber, phone_number_verified: p.phoneNumberVerified };

const emailClaims = (p: Person): Claims => (p.email === undefined ? {} : { email: p.email, email_verified: p.emailVerified });

export function claimsOf(person: Person, scopes: readonly string[]): Claims {
  const claims: Claims = { sub: person.sub };
  if (scopes.includes('profile')) Object.assign(claims, profileClaims(person));
  if (scopes.includes('phone')) Object.assign(claims, phoneClaims(person));
  if (scopes.includes('email')) Object.assign(claims, emailClaims(person));
  return Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined));
}
