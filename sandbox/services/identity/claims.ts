/**
 * The userinfo answer of one person for the granted scopes, following the OpenID Connect scope
 * mapping (Core 1.0 section 5.4): profile gives the name, gender and birth fields, phone the phone
 * fields, email the e-mail fields; sub is always returned. Data the person lacks is left out.
 */
import { randomUUID } from 'node:crypto';
import type { FaultSet } from '../../faults/types.ts';
import type { Person } from './people.ts';

export type Claims = Record<string, unknown>;

function birthdateOf(date: string, faults: FaultSet): string {
  const [y, m, d] = date.split('-');
  if (faults.has('idn-birthdate-ddmmyyyy')) return `${d}.${m}.${y}`;
  if (faults.has('idn-birthdate-feb-30')) return `${y}-02-30`;
  return date;
}

function flag(value: boolean, faults: FaultSet): boolean | string {
  return faults.has('idn-email-verified-string') ? String(value) : value;
}

/** A claim the person lacks: left out, or null under the fault that serves nulls. */
function absent(faults: FaultSet): Claims[string] | undefined {
  return faults.has('idn-absent-as-null') ? null : undefined;
}

function profileClaims(p: Person, faults: FaultSet): Claims {
  const name = faults.has('idn-name-given-only') ? [p.givenName, p.middleName].filter(Boolean).join(' ') : `${p.familyName} ${p.givenName}`;
  return {
    name: p.hasFullName ? name : undefined,
    family_name: p.familyName,
    given_name: p.givenName,
    middle_name: p.middleName ?? absent(faults),
    gender: p.gender,
    birthdate: p.birthdate === undefined ? undefined : birthdateOf(p.birthdate, faults),
  };
}

/** A *_verified flag: left out when the person has none, or under the fault that drops them. */
function verifiedFlag(value: boolean | undefined, faults: FaultSet): boolean | string | undefined {
  return value === undefined || faults.has('idn-verified-flags-dropped') ? undefined : flag(value, faults);
}

function phoneClaims(p: Person, faults: FaultSet): Claims {
  if (p.phoneNumber === undefined || faults.has('idn-phone-left-out')) return {};
  return {
    phone_number: faults.has('idn-phone-no-plus') ? p.phoneNumber.slice(1) : p.phoneNumber,
    phone_number_verified: verifiedFlag(p.phoneNumberVerified, faults),
  };
}

function emailClaims(p: Person, faults: FaultSet): Claims {
  if (p.email === undefined) return { email: absent(faults) };
  return {
    email: faults.has('idn-email-no-at') ? p.email.replace('@', ' at ') : p.email,
    email_verified: verifiedFlag(p.emailVerified, faults),
  };
}

export function claimsOf(person: Person, scopes: readonly string[], faults: FaultSet): Claims {
  const claims: Claims = {};
  if (!faults.has('idn-sub-missing')) claims.sub = faults.has('idn-sub-per-request') ? randomUUID() : person.sub;
  if (scopes.includes('profile')) Object.assign(claims, profileClaims(person, faults));
  if (scopes.includes('phone')) Object.assign(claims, phoneClaims(person, faults));
  if (scopes.includes('email')) Object.assign(claims, emailClaims(person, faults));
  if (faults.has('idn-address-served')) claims.address = { formatted: person.address };
  return Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined));
}
