/**
 * Who may read whose data (spec 4.2, 5.2): a bearer access token, issued to one client for one person
 * with a set of scopes, plus that client's client_id and client_secret as form fields. Only partner
 * clients are served, only for people who consented, only with the scopes profile, phone and email.
 */
import type { FaultSet } from '../../faults/types.ts';
import { MAIN_PERSON, POOL, UNCONSENTED_PERSON, type Person } from './people.ts';

export const REQUIRED_SCOPES = ['profile', 'phone', 'email'] as const;
const FULL_SCOPES = ['openid', ...REQUIRED_SCOPES];

export interface Client {
  id: string;
  secret: string;
  partner: boolean;
}

export interface Grant {
  person: Person;
  clientId: string;
  scopes: string[];
}

export interface Refusal {
  status: number;
  /** The vendor's errorCode, and the RFC 6750 / 6749 error name for the OAuth-style fault body. */
  code: string;
  oauthError: string;
  message: string;
  /** The person concerned, when the refusal is about their consent or their token's scopes. */
  person?: Person;
}

export interface AccessTable {
  clients: Map<string, Client>;
  tokens: Map<string, Grant>;
  main: Grant;
}

export function accessTable(c: Record<string, string>): AccessTable {
  const partner: Client = { id: c.clientId, secret: c.clientSecret, partner: true };
  const retail: Client = { id: c.nonPartnerClientId, secret: c.nonPartnerClientSecret, partner: false };
  const grant = (person: Person, scopes: string[], clientId = partner.id): Grant => ({ person, clientId, scopes });
  const without = (scope: string) => FULL_SCOPES.filter((s) => s !== scope);
  const main = grant(MAIN_PERSON, FULL_SCOPES);
  const tokens = new Map<string, Grant>([
    [c.accessToken, main],
    [c.tokenWithoutProfile, grant(MAIN_PERSON, without('profile'))],
    [c.tokenWithoutPhone, grant(MAIN_PERSON, without('phone'))],
    [c.tokenWithoutEmail, grant(MAIN_PERSON, without('email'))],
    [c.tokenWithoutConsent, grant(UNCONSENTED_PERSON, FULL_SCOPES)],
    [c.tokenNonPartner, grant(MAIN_PERSON, FULL_SCOPES, retail.id)],
  ]);
  peopleTokens(c).forEach((token, i) => tokens.set(token, grant(POOL[i], FULL_SCOPES)));
  return { clients: new Map([partner, retail].map((cl) => [cl.id, cl])), tokens, main };
}

export function peopleTokens(c: Record<string, string>): string[] {
  return POOL.map((_, i) => `${c.peopleTokenPrefix}-${String(i + 1).padStart(2, '0')}`);
}

const refuse = (status: number, code: string, oauthError: string, message: string, person?: Person): { refusal: Refusal } => ({
  refusal: { status, code, oauthError, message, person },
});

// RFC 6750 b64token after the scheme name.
const AUTHORIZATION = /^(\S+) +([A-Za-z0-9\-._~+/]+=*)\s*$/;

function grantOf(authorization: string | undefined, table: AccessTable, faults: FaultSet): { grant: Grant } | { refusal: Refusal } {
  if (authorization === undefined || authorization.trim() === '') {
    if (faults.has('idn-anonymous-default-user')) return { grant: table.main };
    return refuse(401, 'UNAUTHORIZED', 'invalid_request', 'an Authorization: Bearer <access token> header is required');
  }
  const m = AUTHORIZATION.exec(authorization);
  const schemeOk = m && (faults.has('idn-bearer-case-sensitive') ? m[1] === 'Bearer' : m[1].toLowerCase() === 'bearer');
  if (!m || !schemeOk) return refuse(401, 'UNAUTHORIZED', 'invalid_token', 'the Authorization header must be "Bearer <access token>"');
  const grant = table.tokens.get(m[2]) ?? (faults.has('idn-token-not-verified') ? table.main : undefined);
  if (!grant) return refuse(401, 'UNAUTHORIZED', 'invalid_token', 'the access token is unknown or expired');
  return { grant };
}

function clientOf(fields: Map<string, string>, grant: Grant, table: AccessTable, faults: FaultSet): { client: Client } | { refusal: Refusal } {
  let clientId = fields.get('client_id');
  const secret = fields.get('client_secret');
  if (clientId === undefined && faults.has('idn-client-id-optional')) clientId = grant.clientId;
  if (clientId === undefined || clientId === '') return refuse(400, 'VALIDATION_ERROR', 'invalid_request', 'the form field client_id is required');
  if (secret === undefined || secret === '') return refuse(400, 'VALIDATION_ERROR', 'invalid_request', 'the form field client_secret is required');
  let client = table.clients.get(clientId);
  if (!client && faults.has('idn-unknown-client-accepted')) client = table.clients.get(grant.clientId);
  if (!client) return refuse(401, 'UNAUTHORIZED', 'invalid_client', 'unknown client');
  if (client.secret !== secret && !faults.has('idn-client-secret-unchecked')) return refuse(401, 'UNAUTHORIZED', 'invalid_client', 'client authentication failed');
  return { client };
}

/** The grant to serve, or why the request is refused. */
export function authorize(authorization: string | undefined, fields: Map<string, string>, table: AccessTable, faults: FaultSet): { grant: Grant } | { refusal: Refusal } {
  const token = grantOf(authorization, table, faults);
  if ('refusal' in token) return token;
  const { grant } = token;
  const found = clientOf(fields, grant, table, faults);
  if ('refusal' in found) return found;
  const { client } = found;
  if (grant.clientId !== client.id) return refuse(403, 'FORBIDDEN', 'invalid_token', 'the access token was not issued to this client');
  if (!client.partner && !faults.has('idn-non-partner-served')) return refuse(403, 'FORBIDDEN', 'unauthorized_client', 'userinfo is available to partner clients only');
  const required = faults.has('idn-phone-scope-unchecked') ? REQUIRED_SCOPES.filter((s) => s !== 'phone') : REQUIRED_SCOPES;
  const lacking = required.filter((s) => !grant.scopes.includes(s));
  if (lacking.length) return refuse(403, 'FORBIDDEN', 'insufficient_scope', `the access token lacks the scope(s) ${lacking.join(', ')}`, grant.person);
  if (!grant.person.consented && !faults.has('idn-consent-unchecked')) {
    return refuse(403, 'CONSENT_REQUIRED', 'access_denied', 'the user has not consented to share full name, e-mail and phone number', grant.person);
  }
  return { grant };
}
