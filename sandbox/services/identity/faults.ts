import type { Fault } from '../../faults/types.ts';

const f = (id: string, catches: string[], description: string): Fault => ({ id, area: 'identity', catches, description });

export const identityFaults: Fault[] = [
  f('idn-birthdate-ddmmyyyy', ['IDN-FMT-001', 'IDN-GEN-001'], 'birthdate is served as dd.mm.yyyy'),
  f('idn-birthdate-feb-30', ['IDN-FMT-001', 'IDN-GEN-001'], 'birthdate is served as 30 February of the birth year (a lenient date formatter)'),
  f('idn-phone-no-plus', ['IDN-FMT-001', 'IDN-GEN-001'], "phone_number is served without the leading '+'"),
  f('idn-email-no-at', ['IDN-FMT-001', 'IDN-GEN-001'], "email is served with ' at ' instead of '@'"),
  f('idn-email-verified-string', ['IDN-FMT-001', 'IDN-GEN-001'], 'email_verified and phone_number_verified are strings ("true"/"false"), not booleans'),
  f('idn-absent-as-null', ['IDN-FMT-001'], 'a missing middle name or e-mail is served as null instead of being left out'),
  f('idn-name-given-only', ['IDN-FMT-002', 'IDN-GEN-001'], 'name holds the given name and the patronymic, not the family name'),
  f('idn-content-type-text', ['IDN-RSP-001', 'IDN-GEN-001'], 'the 200 answer is labelled text/plain'),
  f('idn-sub-per-request', ['IDN-GEN-002'], 'sub is a fresh random value on every call'),
  f('idn-bearer-case-sensitive', ['IDN-GEN-001'], 'only the exact spelling "Bearer" of the auth scheme is accepted'),
  f('idn-form-order-dependent', ['IDN-GEN-001'], 'the form is read by position: client_id must come first'),
  f('idn-extra-field-rejected', ['IDN-GEN-001'], 'a form field other than client_id and client_secret is rejected with 400'),
  f('idn-phone-scope-unchecked', ['IDN-SCP-001'], 'a token without the phone scope is served'),
  f('idn-anonymous-default-user', ['IDN-AUT-001'], 'a request without an Authorization header is served the main development user'),
  f('idn-token-not-verified', ['IDN-AUT-002'], 'any bearer token is served as the main development user'),
  f('idn-client-secret-unchecked', ['IDN-CLI-001'], 'client_secret is not compared with the client\'s secret'),
  f('idn-client-id-optional', ['IDN-CLI-002'], 'a missing client_id is taken from the token'),
  f('idn-unknown-client-accepted', ['IDN-CLI-003'], 'an unknown client_id falls back to the client the token was issued to'),
  f('idn-non-partner-served', ['IDN-PRT-001'], 'a client outside the partner scenario is served'),
  f('idn-consent-unchecked', ['IDN-CNS-001'], 'the data of a user who has not consented is served'),
  f('idn-no-consent-leaks-data', ['IDN-CNS-001'], 'a user without consent is refused with 403, but the answer carries the user\'s data'),
  f('idn-error-body-oauth', ['IDN-ERR-001'], 'refusals carry an OAuth-style { error, error_description } body instead of the vendor error body'),
  f('idn-json-body-accepted', ['IDN-MED-001'], 'client_id and client_secret are also read from a JSON body'),
  f('idn-address-served', ['IDN-OID-001'], 'the address claim is served although the token has no address scope'),
  f('idn-sub-missing', ['IDN-OID-002'], 'sub is left out of the answer'),
];
