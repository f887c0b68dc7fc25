/**
 * The identity latitudes: the mirror of faults.ts. Each entry changes the sandbox's answers *within what the
 * spec allows*, quotes the spec's words that allow it (`allows`), and says how, as an edit around the
 * handler (sandbox/faults/modifiers.ts). While one is on, no test of a `spec` or `configuration`
 * requirement may fail (selftest/latitude-run.ts).
 */
import { createHash, randomUUID } from 'node:crypto';
import { asProblem, withCharset, withoutHeader } from '../../faults/answer-edits.ts';
import { editBody, latitudesOf, withHeader, withoutBody, type ModifierLatitude } from '../../faults/modifiers.ts';
import type { Grant } from './access.ts';
import { refusalAnswer, type UserinfoAnswer } from './answers.ts';
import type { UserinfoShape } from './handler.ts';
import { POOL } from './people.ts';

type Node = Record<string, unknown>;

const latitude = latitudesOf<UserinfoShape>('identity');

const NOT_A_FIXED_LIST = 'The set of fields depends on the granted scopes and is not a fixed list.';
const WITH_THE_FIELDS = '200 application/json with the fields of 2.2';
const ERRORS_NOT_SHOWN =
  'Error bodies and code values of the business-banking operations, and errors of the speech and userinfo calls: not shown.';

const served = (a: UserinfoAnswer) => a.status === 200 && a.facts?.grant !== undefined;
const refused = (a: UserinfoAnswer) => a.facts?.refusal !== undefined;
/** An edit of the claims of a 200, with the grant they were served for. */
const claims = (edit: (body: Node, grant: Grant) => Node | void) => ({
  answer: editBody<UserinfoAnswer, Node>(served, (body, a) => edit(body, a.facts!.grant!)),
});
const without = (body: Node, ...fields: string[]) => fields.forEach((f) => delete body[f]);

/** The first person of tokens.people: the one the pool's latitudes change. */
const FIRST_OF_POOL = POOL[0];

/** A pairwise subject identifier (OpenID Connect Core 8.1): the same person is another opaque string for every client. */
const pairwise = (sub: string, clientId: string) => createHash('sha256').update(`${clientId}:${sub}`).digest('base64url');

/** "+79161234567" as a person writes it: "+7 916 123-45-67". */
const grouped = (phone: string) => phone.replace(/^\+(\d)(\d{3})(\d{3})(\d{2})(\d{2})$/, '+$1 $2 $3-$4-$5');

export const identityLatitudes: ModifierLatitude<UserinfoShape>[] = [
  latitude(
    'idn-lat-person-without-phone',
    [NOT_A_FIXED_LIST, 'The user must have consented to full name, e-mail and phone number.'],
    'the first person of tokens.people has no phone number on file: served without phone_number and phone_number_verified',
    claims((body, { person }) => (person === FIRST_OF_POOL ? without(body, 'phone_number', 'phone_number_verified') : undefined)),
    '4.2 asks for consent to the phone number; a person who consented may still have none, and the set of fields is not fixed.',
  ),
  latitude(
    'idn-lat-extra-fields',
    [NOT_A_FIXED_LIST],
    'every answer carries fields beyond 2.2: locale, updated_at, a partner segment and a per-request trace id',
    claims((body) => ({ ...body, locale: 'ru-RU', updated_at: 1700000000, x_partner_segment: 'retail', trace_id: randomUUID() })),
  ),
  latitude(
    'idn-lat-key-order',
    [WITH_THE_FIELDS],
    'the fields of every answer come in reverse order (sub last)',
    claims((body) => Object.fromEntries(Object.entries(body).reverse())),
    'A JSON object is an unordered set of members (RFC 8259 section 4).',
  ),
  latitude(
    'idn-lat-profile-minimal',
    [NOT_A_FIXED_LIST],
    'the profile brings family_name and given_name only: no name, middle_name, gender or birthdate for anyone',
    claims((body) => without(body, 'name', 'middle_name', 'gender', 'birthdate')),
  ),
  latitude(
    'idn-lat-verified-flags-absent',
    [
      'email_verified | boolean | appears in a sample response',
      'phone_number_verified | boolean | appears in a sample response',
      NOT_A_FIXED_LIST,
    ],
    'email_verified and phone_number_verified are never served',
    claims((body) => without(body, 'email_verified', 'phone_number_verified')),
  ),
  latitude(
    'idn-lat-cyrillic-email',
    ['email | string | e-mail address'],
    'e-mail addresses are on a Cyrillic domain (почта.рф), and the first person of the pool has a Cyrillic local part too',
    claims((body, { person }) => {
      if (typeof body.email !== 'string') return;
      const local = person === FIRST_OF_POOL ? person.familyName.toLowerCase() : body.email.split('@')[0];
      body.email = `${local}@почта.рф`;
    }),
    'An internationalised address (RFC 6531) is an e-mail address.',
  ),
  latitude(
    'idn-lat-phone-grouped',
    ["phone_number | string | '+' followed by country code and subscriber number"],
    'phone numbers are written grouped, as people write them: +7 916 123-45-67',
    claims((body) => void (typeof body.phone_number === 'string' && (body.phone_number = grouped(body.phone_number)))),
    'The country code and the subscriber number are still there after the +; OpenID Connect writes +1 (425) 555-1212.',
  ),
  latitude(
    'idn-lat-refusal-403',
    [ERRORS_NOT_SHOWN],
    'every refusal that would be 401 is 403, with no WWW-Authenticate challenge',
    {
      answer: (a) => {
        if (!refused(a) || a.status !== 401) return a;
        const { 'www-authenticate': _challenge, ...headers } = a.headers;
        return { ...a, status: 403, headers };
      },
    },
    'Part 7 shows no userinfo error, so no refusal status is fixed.',
  ),
  latitude(
    'idn-lat-refusal-no-body',
    [ERRORS_NOT_SHOWN],
    'every refusal has no body and no Content-Type',
    { answer: (a) => (refused(a) ? withoutBody(a) : a) },
    'Part 7 shows no userinfo error body.',
  ),
  latitude(
    'idn-lat-refusal-plain-text',
    [ERRORS_NOT_SHOWN],
    'every refusal is a line of plain text (text/plain)',
    {
      answer: (a) =>
        refused(a)
          ? { ...withHeader(a, 'content-type', 'text/plain; charset=utf-8'), body: `${a.status} ${a.facts!.refusal!.message}\n` }
          : a,
    },
    'Part 7 shows no userinfo error body; part 4 makes the bodies it describes JSON, and this is not one of them.',
  ),
  latitude(
    'idn-lat-error-names-fields',
    [ERRORS_NOT_SHOWN],
    'every refusal says in errorDetails which fields of 2.2 it withholds, by name: { "name": "withheld", "email": "withheld", "phone_number": "withheld", ... }',
    {
      answer: editBody<UserinfoAnswer, Node>(refused, (body) => ({
        ...body,
        errorDetails: Object.fromEntries(['sub', 'name', 'gender', 'birthdate', 'email', 'phone_number'].map((f) => [f, 'withheld'])),
      })),
    },
    'What a refusal carries is not shown; naming a field is no data of the user.',
  ),
  latitude(
    'idn-lat-json-charset',
    [WITH_THE_FIELDS],
    'every JSON answer is labelled application/json; charset=utf-8',
    { answer: (a) => withCharset(a) },
    'A charset parameter does not change the media type (RFC 8259 section 11: the parameter has no effect, and many frameworks write it).',
  ),
  latitude(
    'idn-lat-person-without-email',
    [NOT_A_FIXED_LIST, 'The user must have consented to full name, e-mail and phone number.'],
    'the first person of tokens.people has no e-mail address on file: served without email and email_verified',
    claims((body, { person }) => (person === FIRST_OF_POOL ? without(body, 'email', 'email_verified') : undefined)),
    '4.2 asks for consent to the e-mail; a person who consented may still have no address on file, and the set of fields is not fixed.',
  ),
  latitude(
    'idn-lat-pairwise-sub',
    ['sub | string | identifier of the authorized user'],
    'sub is a pairwise identifier: an opaque base64url string derived from the person and the client, never a uuid',
    claims((body, grant) => void (body.sub = pairwise(grant.person.sub, grant.clientId))),
    '2.2 gives sub as a string that identifies the user; OpenID Connect lets a provider give each client its own identifier for one person (pairwise, Core section 8.1).',
  ),
  latitude(
    'idn-lat-name-given-first',
    ['name | string | family name and given name'],
    'the combined name puts the given name first (Иван Петров), as a Western form writes it',
    claims(
      (body) =>
        void (
          typeof body.name === 'string' &&
          typeof body.given_name === 'string' &&
          typeof body.family_name === 'string' &&
          (body.name = `${body.given_name} ${body.family_name}`)
        ),
    ),
    '2.2 says what name is made of, not in which order its parts come.',
  ),
  latitude(
    'idn-lat-gender-coded',
    ['gender | string | gender'],
    'gender is written as a one-letter code: M or F',
    claims((body) => void (typeof body.gender === 'string' && (body.gender = body.gender === 'female' ? 'F' : 'M'))),
    "2.2 gives gender as a string and names no values (OpenID Connect's male and female are a convention, not the spec's).",
  ),
  latitude(
    'idn-lat-client-refusal-400',
    [ERRORS_NOT_SHOWN],
    'a client that does not authenticate (unknown client_id, wrong client_secret) is refused 400 invalid_client, with no challenge',
    {
      answer: (a) => {
        const r = a.facts?.refusal;
        return r?.oauthError === 'invalid_client' && a.status === 401
          ? refusalAnswer(a.refusedBy!, { ...r, status: 400 }, withoutHeader(a, 'www-authenticate').headers)
          : a;
      },
    },
    'Part 7 shows no userinfo error; RFC 6749 section 5.2 answers invalid_client with 400 unless the client authenticated through the Authorization header.',
  ),
  latitude(
    'idn-lat-no-challenge',
    [ERRORS_NOT_SHOWN],
    'a 401 carries no WWW-Authenticate challenge',
    { answer: (a) => (a.status === 401 ? withoutHeader(a, 'www-authenticate') : a) },
    "Part 7 shows no userinfo error; how a refusal is written (RFC 6750's challenge included) is not stated.",
  ),
  latitude(
    'idn-lat-refusal-problem-json',
    [ERRORS_NOT_SHOWN],
    'every refusal is RFC 9457 problem details (application/problem+json)',
    { answer: (a) => (refused(a) ? asProblem({ ...a, body: { message: a.facts!.refusal!.message } }, a.facts!.refusal!.code) : a) },
    'Part 7 shows no userinfo error body; problem details are JSON (a +json media type).',
  ),
];
