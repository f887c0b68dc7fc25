/**
 * What every 3-NDFL route checks before its own work, in this order: the bearer token (401), the
 * vendor's rate limit for 3-NDFL methods (429), and the tax request named in the path (400: the
 * vendor answers an unknown request with 400).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SlidingWindowLimiter } from '../../../rate-limiter.ts';
import type { ServiceContext } from '../../../types.ts';
import { requestIdOf, sendBusinessError } from '../errors.ts';
import type { Ndfl3Store, TaxRequestRecord } from './store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Guard {
  /** The token, or undefined once an error answer has been sent. */
  authorised(request: FastifyRequest, reply: FastifyReply): string | undefined;
  /** False once a 429 has been sent. */
  withinLimit(token: string, request: FastifyRequest, reply: FastifyReply, group?: 'ndfl3' | 'upload'): boolean;
  /** The request named by :taxRequestId, or undefined once a 400 has been sent. */
  taxRequest(request: FastifyRequest, reply: FastifyReply): TaxRequestRecord | undefined;
  /** All three, in that order: the tax request of an authorised call within its limit, or undefined once an error answer has been sent. */
  enter(request: FastifyRequest, reply: FastifyReply, group?: 'ndfl3' | 'upload'): TaxRequestRecord | undefined;
}

export function makeGuard(ctx: ServiceContext, store: Ndfl3Store): Guard {
  const { faults } = ctx;
  // Vendor facts: 3-NDFL methods 10 requests per second, the tax-form upload 1 per second.
  const limiters = { ndfl3: new SlidingWindowLimiter(10, 1000), upload: new SlidingWindowLimiter(1, 1000) };
  return {
    authorised(request, reply) {
      const token = /^bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
      if (token === ctx.credentials.business.token) return token;
      if (!token && faults.has('ndf-no-auth')) return 'anonymous';
      const status = token && faults.has('ndf-bad-token-403') ? 403 : 401;
      sendBusinessError(request, reply, status, status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN', token ? 'the access token is not valid' : 'a bearer access token is required');
      return undefined;
    },
    withinLimit(token, request, reply, group = 'ndfl3') {
      const verdict = limiters[group].hit(token);
      if (verdict.allowed) return true;
      const seconds = String(Math.max(1, Math.ceil(verdict.resetMs / 1000)));
      reply.header('retry-after', seconds).header('x-ratelimit-reset', seconds);
      sendBusinessError(request, reply, 429, 'TOO_MANY_REQUESTS', `more than ${limiters[group].limit} requests per second`);
      return false;
    },
    taxRequest(request, reply) {
      const id = (request.params as { taxRequestId?: string }).taxRequestId ?? '';
      const found = UUID.test(id) ? store.requests.get(id.toLowerCase()) : undefined;
      if (found) return found;
      if (faults.has('ndf-unknown-request-500')) {
        sendBusinessError(request, reply, 500, 'INTERNAL_ERROR', 'unexpected error');
      } else if (faults.has('ndf-unknown-request-404')) {
        sendBusinessError(request, reply, 404, 'NOT_FOUND', `tax request ${id} not found`);
      } else if (UUID.test(id)) {
        sendBusinessError(request, reply, 400, 'REQUEST_NOT_FOUND', `tax request ${id} does not exist`, { taxRequestId: id });
      } else {
        sendBusinessError(request, reply, 400, 'VALIDATION_ERROR', 'taxRequestId must be a uuid', { taxRequestId: 'must be a uuid' });
      }
      return undefined;
    },
    enter(request, reply, group = 'ndfl3') {
      const token = this.authorised(request, reply);
      if (!token || !this.withinLimit(token, request, reply, group)) return undefined;
      return this.taxRequest(request, reply);
    },
  };
}

/** A JSON answer with X-Request-Id, and the request's version in ETag when given. */
export function sendJson(request: FastifyRequest, reply: FastifyReply, status: number, body: unknown, version?: string) {
  reply.code(status).header('x-request-id', requestIdOf(request)).type('application/json');
  if (version !== undefined) reply.header('etag', `"${version}"`);
  return reply.send(body);
}

/** The document's limit on If-Match (1 to 50 characters). */
const IF_MATCH_MAX = 50;

/** Why the If-Match header breaks the document's rule, or undefined (absent is the caller's business). */
export function ifMatchProblem(request: FastifyRequest): string | undefined {
  const raw = request.headers['if-match'];
  return typeof raw === 'string' && raw.trim().length > IF_MATCH_MAX ? `must be at most ${IF_MATCH_MAX} characters` : undefined;
}

/** If-Match as sent, with a weak prefix and the quotes of an entity tag taken off; undefined when absent. */
export function ifMatchOf(request: FastifyRequest): string | undefined {
  const raw = request.headers['if-match'];
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  return raw.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
}

export type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

/** The body as JSON: `undefined` when there is none; an error when it is not JSON. */
export function jsonBodyOf(request: FastifyRequest): Parsed {
  const raw = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
  if (raw.trim() === '') return { ok: true, value: undefined };
  const type = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) return { ok: false, message: 'the body must be application/json' };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (error) {
    return { ok: false, message: `the body is not valid JSON: ${(error as Error).message}` };
  }
}
