/**
 * Who may read whose data (spec 4.2, 5.2), as named rules in the order they are checked: a bearer
 * access token the sandbox knows, then the client_id and client_secret of the client it was issued to
 * (form fields), a partner client, the scopes profile, phone and email, and the person's consent. The
 * rule makers and lookups are exported so that a fault can build a variant.
 */
import { namedRules } from '../../faults/modifiers.ts';
import { REQUIRED_SCOPES, type AccessTable, type Client, type Grant } from './access.ts';
import { refuse, type Refusal } from './answers.ts';

// RFC 6750 b64token after the scheme name.
const AUTHORIZATION = /^(\S+) +([A-Za-z0-9\-._~+/]+=*)\s*$/;

const blank = (authorization: string | undefined) => authorization === undefined || authorization.trim() === '';

/** What the Authorization header presents: its scheme and token, when it has that shape, and what the token grants. */
export interface Presented {
  authorization?: string;
  scheme?: string;
  token?: string;
  grant?: Grant;
}

export function presentedBy(authorization: string | undefined, grantOf: (token: string | undefined) => Grant | undefined): Presented {
  const m = authorization === undefined ? null : AUTHORIZATION.exec(authorization);
  return { authorization, scheme: m?.[1], token: m?.[2], grant: grantOf(m?.[2]) };
}

/** How the handler finds what a token grants, and which client a client_id names. */
export type TokenLookup = (table: AccessTable, token: string | undefined) => Grant | undefined;
export type ClientLookup = (table: AccessTable, clientId: string | undefined, grant: Grant) => Client | undefined;

export const LOOKUP_RULES = {
  'token.lookup': ((table, token) => (token === undefined ? undefined : table.tokens.get(token))) as TokenLookup,
  'client.lookup': ((table, clientId) => (clientId === undefined ? undefined : table.clients.get(clientId))) as ClientLookup,
};

/** The rule on the scheme: present and not blank, it must be one `isBearer` takes (RFC 9110: any case). */
export const bearerScheme =
  (isBearer: (scheme: string) => boolean) =>
  ({ authorization, scheme }: Presented): Refusal | undefined =>
    !blank(authorization) && (scheme === undefined || !isBearer(scheme))
      ? refuse(401, 'UNAUTHORIZED', 'invalid_token', 'the Authorization header must be "Bearer <access token>"')
      : undefined;

export const TOKEN_RULES = namedRules<(presented: Presented) => Refusal | undefined>()({
  'authorization.present': ({ authorization }) =>
    blank(authorization)
      ? refuse(401, 'UNAUTHORIZED', 'invalid_request', 'an Authorization: Bearer <access token> header is required')
      : undefined,
  'authorization.bearer': bearerScheme((scheme) => scheme.toLowerCase() === 'bearer'),
  'token.known': ({ grant }) =>
    grant === undefined ? refuse(401, 'UNAUTHORIZED', 'invalid_token', 'the access token is unknown or expired') : undefined,
});

/** The client a request names with its form fields, and the grant of its token. */
export interface Asked {
  grant: Grant;
  clientId?: string;
  secret?: string;
  client?: Client;
}

const fieldRequired = (name: 'client_id' | 'client_secret', value: (asked: Asked) => string | undefined) => (asked: Asked) =>
  value(asked) === undefined || value(asked) === ''
    ? refuse(400, 'VALIDATION_ERROR', 'invalid_request', `the form field ${name} is required`)
    : undefined;

/** The rule on the token's scopes: each of `required` must be granted. */
export const scopesRequired =
  (required: readonly string[]) =>
  ({ grant }: Asked): Refusal | undefined => {
    const lacking = required.filter((s) => !grant.scopes.includes(s));
    return lacking.length
      ? refuse(403, 'FORBIDDEN', 'insufficient_scope', `the access token lacks the scope(s) ${lacking.join(', ')}`, grant.person)
      : undefined;
  };

export const CLIENT_RULES = namedRules<(asked: Asked) => Refusal | undefined>()({
  'client_id.required': fieldRequired('client_id', (a) => a.clientId),
  'client_secret.required': fieldRequired('client_secret', (a) => a.secret),
  'client.known': ({ client }) => (client === undefined ? refuse(401, 'UNAUTHORIZED', 'invalid_client', 'unknown client') : undefined),
  'client.secret': ({ client, secret }) =>
    client!.secret !== secret ? refuse(401, 'UNAUTHORIZED', 'invalid_client', 'client authentication failed') : undefined,
  'token.client': ({ client, grant }) =>
    grant.clientId !== client!.id ? refuse(403, 'FORBIDDEN', 'invalid_token', 'the access token was not issued to this client') : undefined,
  'client.partner': ({ client }) =>
    !client!.partner ? refuse(403, 'FORBIDDEN', 'unauthorized_client', 'userinfo is available to partner clients only') : undefined,
  scopes: scopesRequired(REQUIRED_SCOPES),
  consent: ({ grant }) =>
    !grant.person.consented
      ? refuse(
          403,
          'CONSENT_REQUIRED',
          'access_denied',
          'the user has not consented to share full name, e-mail and phone number',
          grant.person,
        )
      : undefined,
});
