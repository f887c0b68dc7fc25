/**
 * The sandbox's development access (spec 4.2, 5.2): each access token is issued to one client for one
 * person with a set of scopes; a client has a secret and is a partner or not. Who may read whose data
 * is decided by the rules of access-rules.ts.
 */
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
