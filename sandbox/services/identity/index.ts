/**
 * Identity userinfo (spec 2.2, 4.2, 5.2): POST {id_url}/userinfo/userinfo with a bearer access token
 * and the form fields client_id and client_secret (application/x-www-form-urlencoded). 200 with the
 * person's claims for the granted scopes; refusals carry the vendor error body
 * { errorId, errorMessage, errorCode } and every answer an X-Request-Id header (public facts).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FaultSet } from '../../faults/types.ts';
import type { SandboxService, ServiceContext } from '../../types.ts';
import { accessTable, authorize, peopleTokens, type Refusal } from './access.ts';
import { claimsOf } from './claims.ts';

export const IDENTITY_PREFIX = '/identity';
export const USERINFO_PATH = '/userinfo/userinfo';
const FORM = 'application/x-www-form-urlencoded';
const KNOWN_FIELDS = ['client_id', 'client_secret'];

export { identityFaults as faults } from './faults.ts';

/** Fixed development credentials (documented in README.md next to this file). */
export const credentials = {
  accessToken: 'dev-idn-token-main-profile-phone-email',
  clientId: 'dev-idn-partner-client',
  clientSecret: 'dev-idn-partner-client-secret',
  nonPartnerClientId: 'dev-idn-retail-client',
  nonPartnerClientSecret: 'dev-idn-retail-client-secret',
  tokenWithoutProfile: 'dev-idn-token-main-phone-email',
  tokenWithoutPhone: 'dev-idn-token-main-profile-email',
  tokenWithoutEmail: 'dev-idn-token-main-profile-phone',
  tokenWithoutConsent: 'dev-idn-token-unconsented-user',
  tokenNonPartner: 'dev-idn-token-retail-client',
  /** The pool's tokens are this prefix plus -01 to -08 (one key, so that an override renames them all). */
  peopleTokenPrefix: 'dev-idn-token-person',
};

function sendRefusal(reply: FastifyReply, refusal: Refusal, faults: FaultSet, extra: Record<string, unknown> = {}) {
  if (refusal.status === 401) reply.header('www-authenticate', `Bearer error="${refusal.oauthError}"`);
  if (faults.has('idn-refusal-html')) return reply.code(refusal.status).type('text/html; charset=utf-8').send(`<html><body><h1>${refusal.status}</h1><p>${refusal.message}</p></body></html>`);
  const body = faults.has('idn-error-body-oauth')
    ? { error: refusal.oauthError, error_description: refusal.message, ...extra }
    : { errorId: randomUUID(), errorMessage: refusal.message, errorCode: refusal.code, ...extra };
  return reply.code(refusal.status).type('application/json').send(body);
}

const refusal = (status: number, code: string, message: string): Refusal => ({ status, code, oauthError: 'invalid_request', message });

/** The request's form fields, or why they cannot be read. */
function formFields(request: FastifyRequest, faults: FaultSet): Map<string, string> | Refusal {
  const media = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const raw = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
  if (media === 'application/json' && faults.has('idn-json-body-accepted')) {
    try {
      const parsed = JSON.parse(raw) as Record<string, unknown>;
      return new Map(Object.entries(parsed ?? {}).map(([k, v]) => [k, String(v)]));
    } catch {
      return refusal(400, 'VALIDATION_ERROR', 'the body is not valid JSON');
    }
  }
  if (media !== FORM) return refusal(415, 'UNSUPPORTED_MEDIA_TYPE', `the body must be ${FORM}`);
  const pairs = [...new URLSearchParams(raw)];
  const fields = new Map<string, string>();
  for (const [name, value] of pairs) {
    if (fields.has(name)) return refusal(400, 'VALIDATION_ERROR', `the form field ${name} is given more than once`);
    fields.set(name, value);
  }
  if (faults.has('idn-extra-field-rejected')) {
    const unknown = [...fields.keys()].find((k) => !KNOWN_FIELDS.includes(k));
    if (unknown) return refusal(400, 'VALIDATION_ERROR', `unknown form field ${unknown}`);
  }
  if (faults.has('idn-form-order-dependent')) {
    // A hand-rolled reader that expects "client_id=...&client_secret=..." in that order.
    const byPosition = new Map<string, string>();
    if (pairs[0]?.[0] === 'client_id') byPosition.set('client_id', pairs[0][1]);
    if (pairs[1]?.[0] === 'client_secret') byPosition.set('client_secret', pairs[1][1]);
    return byPosition;
  }
  return fields;
}

export const service: SandboxService = {
  area: 'identity',
  prefix: IDENTITY_PREFIX,

  register(app, ctx: ServiceContext) {
    const { faults } = ctx;
    const table = accessTable(ctx.credentials.identity);

    app.post(USERINFO_PATH, async (request: FastifyRequest, reply: FastifyReply) => {
      const sent = request.headers['x-request-id'];
      const requestId = typeof sent === 'string' && sent.trim() !== '' ? sent : randomUUID();
      reply.header('x-request-id', requestId);
      const fields = formFields(request, faults);
      if (!(fields instanceof Map)) return sendRefusal(reply, fields, faults);
      const verdict = authorize(request.headers.authorization, fields, table, faults);
      if ('refusal' in verdict) {
        const { person } = verdict.refusal;
        const scopeRefusal = verdict.refusal.oauthError === 'insufficient_scope';
        const leaked = person && !scopeRefusal && faults.has('idn-no-consent-leaks-data') ? claimsOf(person, ['profile', 'phone', 'email'], faults)
          : person && scopeRefusal && faults.has('idn-refusal-carries-sub') ? { sub: person.sub, gender: person.gender } : {};
        return sendRefusal(reply, verdict.refusal, faults, leaked);
      }
      const body = claimsOf(verdict.grant.person, verdict.grant.scopes, faults);
      const type = faults.has('idn-content-type-text') ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8';
      return reply.code(200).header('cache-control', 'no-store').type(type).send(JSON.stringify(body));
    });
  },

  targetSection(urls, ctx) {
    const c = ctx.credentials.identity;
    return {
      url: `${urls.http}${IDENTITY_PREFIX}`,
      accessToken: c.accessToken,
      clientId: c.clientId,
      clientSecret: c.clientSecret,
      nonPartnerClientId: c.nonPartnerClientId,
      nonPartnerClientSecret: c.nonPartnerClientSecret,
      tokens: {
        people: peopleTokens(c),
        withoutProfile: c.tokenWithoutProfile,
        withoutPhone: c.tokenWithoutPhone,
        withoutEmail: c.tokenWithoutEmail,
        withoutConsent: c.tokenWithoutConsent,
        nonPartner: c.tokenNonPartner,
      },
    };
  },
};
