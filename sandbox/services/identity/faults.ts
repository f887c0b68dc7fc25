/**
 * The identity faults: each entry names what it breaks and says how, as an edit around the handler
 * (sandbox/faults/modifiers.ts): the claims or the refusals of the answer edited, the request edited,
 * or a rule of access replaced. The handler (handler.ts) and the claims (claims.ts) know none of them.
 */
import { randomUUID } from 'node:crypto';
import type { Incoming } from '../../exchange.ts';
import { editBody, faultsOf, never, onRefusal, withHeader } from '../../faults/modifiers.ts';
import { REQUIRED_SCOPES, type AccessTable, type Grant } from './access.ts';
import { bearerScheme, CLIENT_RULES, LOOKUP_RULES, scopesRequired, type Asked } from './access-rules.ts';
import { refusalAnswer, type Refusal, type UserinfoAnswer } from './answers.ts';
import { claimsOf } from './claims.ts';
import { POOL } from './people.ts';
import { FORM, invalid, KNOWN_FIELDS } from './form.ts';
import type { UserinfoShape } from './handler.ts';

type Node = Record<string, unknown>;

const f = faultsOf<UserinfoShape>('identity');

const served = (a: UserinfoAnswer) => a.status === 200 && a.facts?.grant !== undefined;
const refused = (a: UserinfoAnswer) => a.facts?.refusal !== undefined;
/** An edit of the claims of a 200, with the grant they were served for. */
const claims = (edit: (body: Node, grant: Grant) => Node | void) => ({
  answer: editBody<UserinfoAnswer, Node>(served, (body, a) => edit(body, a.facts!.grant!)),
});
/** An edit of the body of every refusal, with the refusal. */
const refusals = (edit: (body: Node, refusal: Refusal) => Node | void) => ({
  answer: editBody<UserinfoAnswer, Node>(refused, (body, a) => edit(body, a.facts!.refusal!)),
});
const birthdate = (write: (y: string, m: string, d: string) => string) =>
  claims((body) => {
    if (typeof body.birthdate !== 'string') return;
    const [y, m, d] = body.birthdate.split('-');
    body.birthdate = write(y, m, d);
  });
const VERIFIED_FLAGS = ['email_verified', 'phone_number_verified'];
const lookupToken = LOOKUP_RULES['token.lookup'];
const lookupClient = LOOKUP_RULES['client.lookup'];

/** A JSON object body read as the form it stands for (each value as String(value)); any other body is left as it is. */
function jsonAsForm(request: Incoming): Incoming {
  if (request.contentType !== 'application/json') return request;
  let parsed: unknown;
  try {
    parsed = JSON.parse(request.text);
  } catch {
    return request;
  }
  const pairs = Object.entries(parsed ?? {}).map(([k, v]): [string, string] => [k, String(v)]);
  return { ...request, contentType: FORM, text: new URLSearchParams(pairs).toString() };
}

/** The form as a hand-rolled reader sees it: client_id only in first place, client_secret only in second. */
function byPosition(request: Incoming): Incoming {
  if (request.contentType !== FORM) return request;
  const pairs = [...new URLSearchParams(request.text)];
  // A repeated field is refused before the reader runs.
  if (new Set(pairs.map(([name]) => name)).size !== pairs.length) return request;
  const kept = [pairs[0]?.[0] === 'client_id' ? pairs[0] : undefined, pairs[1]?.[0] === 'client_secret' ? pairs[1] : undefined].filter(
    (p) => p !== undefined,
  );
  return { ...request, text: new URLSearchParams(kept).toString() };
}

export const identityFaults = [
  f(
    'idn-birthdate-ddmmyyyy',
    ['IDN-FMT-001'],
    'birthdate is served as dd.mm.yyyy',
    birthdate((y, m, d) => `${d}.${m}.${y}`),
  ),
  f(
    'idn-birthdate-feb-30',
    ['IDN-FMT-001'],
    'birthdate is served as 30 February of the birth year (a lenient date formatter)',
    birthdate((y) => `${y}-02-30`),
  ),
  f(
    'idn-phone-no-plus',
    ['IDN-FMT-001'],
    "phone_number is served without the leading '+'",
    claims((body) => void (body.phone_number &&= (body.phone_number as string).slice(1))),
  ),
  f(
    'idn-phone-extension-appended',
    ['IDN-FMT-003'],
    'phone_number carries the office extension appended as digits (+7 and 15 more digits)',
    claims((body) => void (body.phone_number &&= `${body.phone_number as string}01234`)),
  ),
  f(
    'idn-email-no-at',
    ['IDN-FMT-001'],
    "email is served with ' at ' instead of '@'",
    claims((body) => void (body.email &&= (body.email as string).replace('@', ' at '))),
  ),
  f(
    'idn-email-verified-string',
    ['IDN-FMT-001'],
    'email_verified and phone_number_verified are strings ("true"/"false"), not booleans',
    claims((body) => VERIFIED_FLAGS.filter((k) => k in body).forEach((k) => (body[k] = String(body[k])))),
  ),
  f(
    'idn-absent-as-null',
    ['IDN-FMT-001'],
    'a missing middle name or e-mail is served as null instead of being left out',
    claims((body, { person, scopes }) => {
      if (scopes.includes('email') && person.email === undefined) body.email = null;
      if (!scopes.includes('profile') || person.middleName !== undefined) return body;
      // In its place, after given_name.
      return Object.fromEntries(
        Object.entries(body).flatMap(([k, v]) =>
          k === 'given_name'
            ? [
                [k, v],
                ['middle_name', null],
              ]
            : [[k, v]],
        ),
      );
    }),
  ),
  f(
    'idn-name-given-only',
    ['IDN-FMT-002'],
    'name holds the given name and the patronymic, not the family name',
    claims((body, { person }) => void ('name' in body && (body.name = [person.givenName, person.middleName].filter(Boolean).join(' ')))),
  ),
  f('idn-content-type-text', ['IDN-RSP-001'], 'the 200 answer is labelled text/plain', {
    answer: (a) => (served(a) ? withHeader(a, 'content-type', 'text/plain; charset=utf-8') : a),
  }),
  f(
    'idn-sub-per-request',
    ['IDN-GEN-002'],
    'sub is a fresh random value on every call',
    claims((body) => void (body.sub = randomUUID())),
  ),
  f('idn-bearer-case-sensitive', ['IDN-GEN-003'], 'only the exact spelling "Bearer" of the auth scheme is accepted', {
    checks: { 'authorization.bearer': bearerScheme((scheme) => scheme === 'Bearer') },
  }),
  f('idn-form-order-dependent', ['IDN-GEN-001'], 'the form is read by position: client_id must come first', { request: byPosition }),
  f('idn-extra-field-rejected', ['IDN-GEN-003'], 'a form field other than client_id and client_secret is rejected with 400', {
    checks: {
      'form.known': ({ pairs }) => {
        const unknown = pairs.find(([name]) => !KNOWN_FIELDS.includes(name));
        return unknown ? invalid(400, 'VALIDATION_ERROR', `unknown form field ${unknown[0]}`) : undefined;
      },
    },
  }),
  f('idn-phone-scope-unchecked', ['IDN-SCP-001'], 'a token without the phone scope is served', {
    checks: { scopes: scopesRequired(REQUIRED_SCOPES.filter((s) => s !== 'phone')) },
  }),
  f('idn-anonymous-default-user', ['IDN-AUT-001'], 'a request without an Authorization header is served the main development user', {
    checks: {
      'authorization.present': never,
      'token.lookup': (table: AccessTable, token: string | undefined) => (token === undefined ? table.main : lookupToken(table, token)),
    },
  }),
  f('idn-token-not-verified', ['IDN-AUT-002'], 'any bearer token is served as the main development user', {
    checks: { 'token.lookup': (table: AccessTable, token: string | undefined) => lookupToken(table, token) ?? table.main },
  }),
  f('idn-client-secret-unchecked', ['IDN-CLI-001'], "client_secret is not compared with the client's secret", {
    checks: { 'client.secret': never },
  }),
  f('idn-client-id-optional', ['IDN-CLI-002'], 'a missing client_id is taken from the token', {
    checks: {
      'client_id.required': (asked: Asked) => (asked.clientId === undefined ? undefined : CLIENT_RULES['client_id.required'](asked)),
      'client.lookup': (table: AccessTable, clientId: string | undefined, grant: Grant) =>
        lookupClient(table, clientId ?? grant.clientId, grant),
    },
  }),
  f('idn-unknown-client-accepted', ['IDN-CLI-003'], 'an unknown client_id falls back to the client the token was issued to', {
    checks: {
      'client.lookup': (table: AccessTable, clientId: string | undefined, grant: Grant) =>
        lookupClient(table, clientId, grant) ?? table.clients.get(grant.clientId),
    },
  }),
  f('idn-non-partner-served', ['IDN-PRT-001'], 'a client outside the partner scenario is served', { checks: { 'client.partner': never } }),
  f('idn-consent-unchecked', ['IDN-CNS-001'], 'the data of a user who has not consented is served', { checks: { consent: never } }),
  f('idn-no-consent-leaks-data', ['IDN-CNS-001'], "a user without consent is refused with 403, but the answer carries the user's data", {
    answer: onRefusal(
      'consent',
      editBody<UserinfoAnswer, Node>(refused, (body, a) => ({ ...body, ...claimsOf(a.facts!.refusal!.person!, REQUIRED_SCOPES) })),
    ),
  }),
  f(
    'idn-error-body-oauth',
    ['IDN-ERR-001'],
    'refusals carry an OAuth-style { error, error_description } body instead of the vendor error body',
    refusals(({ errorId: _id, errorMessage: _message, errorCode: _code, ...extra }, refusal) => ({
      error: refusal.oauthError,
      error_description: refusal.message,
      ...extra,
    })),
  ),
  f('idn-json-body-accepted', ['IDN-MED-001'], 'client_id and client_secret are also read from a JSON body', {
    request: jsonAsForm,
    // A JSON body that reaches the form check did not parse: the reader refused it as invalid (400).
    answer: onRefusal('body.form', (a: UserinfoAnswer, request: Incoming) =>
      request.contentType === 'application/json'
        ? refusalAnswer('body.json', invalid(400, 'VALIDATION_ERROR', 'the body is not valid JSON'), {
            'x-request-id': a.headers['x-request-id'],
          })
        : a,
    ),
  }),
  f(
    'idn-address-served',
    ['IDN-OID-001'],
    'the address claim is served although the token has no address scope',
    claims((body, { person }) => void (body.address = { formatted: person.address })),
  ),
  f(
    'idn-sub-missing',
    ['IDN-OID-002'],
    'sub is left out of the answer',
    claims((body) => void delete body.sub),
  ),
  f(
    'idn-phone-left-out',
    ['IDN-SCP-002'],
    'phone_number is never served, although the token has the phone scope and the user consented',
    claims((body) => void ['phone_number', 'phone_number_verified'].forEach((k) => delete body[k])),
  ),
  f(
    'idn-verified-flags-dropped',
    ['IDN-OID-003'],
    'email_verified and phone_number_verified are never served',
    claims((body) => void VERIFIED_FLAGS.forEach((k) => delete body[k])),
  ),
  f('idn-refusal-carries-sub', ['IDN-SCP-001'], 'a token lacking a scope is refused 403, but the answer names the user: sub and gender', {
    answer: onRefusal(
      'scopes',
      editBody<UserinfoAnswer, Node>(refused, (body, a) => ({
        ...body,
        sub: a.facts!.refusal!.person!.sub,
        gender: a.facts!.refusal!.person!.gender,
      })),
    ),
  }),
  f(
    'idn-refusal-names-other-user',
    ['IDN-SCP-001'],
    'a token lacking a scope is refused 403, but the refusal carries the full name of another person of the pool (an answer object reused across requests)',
    {
      answer: onRefusal(
        'scopes',
        editBody<UserinfoAnswer, Node>(refused, (body) => ({ ...body, name: claimsOf(POOL[0], ['profile']).name })),
      ),
    },
  ),
  f(
    'idn-phone-country-code-only',
    ['IDN-FMT-001'],
    'phone_number is served as its country code alone (+7): the subscriber number is kept in a column of its own and left out',
    claims((body) => void (body.phone_number &&= '+7')),
  ),
  f('idn-refusal-html', ['IDN-ERR-002'], 'refusals are an HTML error page (text/html) instead of JSON', {
    answer: (a) => {
      if (!refused(a)) return a;
      const { status, message } = a.facts!.refusal!;
      return {
        ...withHeader(a, 'content-type', 'text/html; charset=utf-8'),
        body: `<html><body><h1>${status}</h1><p>${message}</p></body></html>`,
      };
    },
  }),
];
