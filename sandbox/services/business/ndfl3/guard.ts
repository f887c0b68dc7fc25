/**
 * What every 3-NDFL route checks before its own work, in this order: the bearer token (401), the
 * rate limit of the 3-NDFL methods or of the tax-form upload (429, ../rates.ts), and the tax request named in the path (400: the
 * vendor answers an unknown request with 400). Each check is a named rule (rules.ts); a refusal is
 * an answer as data, named by its rule.
 */
import { businessError } from '../errors.ts';
import type { BusinessRates } from '../rates.ts';
import type { Ndfl3Answer, Ndfl3Request, Ndfl3Rules } from './rules.ts';
import type { Ndfl3Store, TaxRequestRecord } from './store.ts';
import type { Broken } from './validate.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Entered<T> = T | { answer: Ndfl3Answer };

export interface Guard {
  /** The caller (its token), or the refusal. */
  authorised(request: Ndfl3Request): Entered<{ caller: string }>;
  /** The tax request of an authorised call within its limit, or the refusal. */
  enter(request: Ndfl3Request, group?: 'ndfl3' | 'upload'): Entered<{ record: TaxRequestRecord }>;
}

/** A refusal named by the rule that made it. */
const refusal = (rule: string, answer: Ndfl3Answer): { answer: Ndfl3Answer } => ({ answer: { ...answer, refusedBy: rule } });

/** The rate group (../rates.ts) of each of the guard's groups. */
const RATE_GROUP = { ndfl3: 'ndfl3', upload: 'ndfl3-upload' } as const;

export function makeGuard(token: string, store: Ndfl3Store, checks: Ndfl3Rules, rates: BusinessRates): Guard {
  const authorised = (request: Ndfl3Request): Entered<{ caller: string }> => {
    const sent = /^bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!checks['token.present'](sent))
      return refusal('token.present', businessError(401, 'UNAUTHORIZED', 'a bearer access token is required'));
    if (sent === undefined) return { caller: 'anonymous' };
    if (!checks['token.known'](sent, token))
      return refusal('token.known', businessError(401, 'UNAUTHORIZED', 'the access token is not valid'));
    return { caller: sent };
  };
  return {
    authorised,
    enter(request, group = 'ndfl3') {
      const caller = authorised(request);
      if ('answer' in caller) return caller;
      const verdict = rates.hitGroup(RATE_GROUP[group]);
      if (!verdict.allowed) {
        const seconds = String(verdict.retryAfterSeconds);
        return refusal(
          'rate',
          businessError(429, 'TOO_MANY_REQUESTS', `more than ${verdict.limit} requests per second`, undefined, {
            'retry-after': seconds,
            'x-ratelimit-reset': seconds,
          }),
        );
      }
      const id = request.params.taxRequestId ?? '';
      const record = checks['taxRequest.known'](id, store);
      if (record) return { record };
      if (UUID.test(id))
        return refusal(
          'taxRequest.known',
          businessError(400, 'REQUEST_NOT_FOUND', `tax request ${id} does not exist`, { taxRequestId: id }),
        );
      return refusal(
        'taxRequest.known',
        businessError(400, 'VALIDATION_ERROR', 'taxRequestId must be a uuid', { taxRequestId: 'must be a uuid' }),
      );
    },
  };
}

/** A route's work on the tax request the guard lets through; the guard's refusal otherwise. */
export function entered(guard: Guard, work: (request: Ndfl3Request, record: TaxRequestRecord) => Ndfl3Answer, group?: 'ndfl3' | 'upload') {
  return (request: Ndfl3Request): Ndfl3Answer => {
    const gate = guard.enter(request, group);
    return 'answer' in gate ? gate.answer : work(request, gate.record);
  };
}

/** A JSON answer, and the request's version in ETag when given. */
export function json(status: number, body: unknown, version?: string): Ndfl3Answer {
  return { status, headers: { 'content-type': 'application/json', ...(version !== undefined ? { etag: `"${version}"` } : {}) }, body };
}

/** A 400 for a request that breaks the document. */
export const invalid = (message: string, details?: Record<string, unknown>): Ndfl3Answer =>
  businessError(400, 'VALIDATION_ERROR', message, details);

/** The document's limit on If-Match (1 to 50 characters). */
const IF_MATCH_MAX = 50;

/** Why the If-Match header breaks the document's rule, or undefined (absent is the caller's business). */
export function ifMatchProblem(request: Ndfl3Request): string | undefined {
  const raw = request.headers['if-match'];
  return typeof raw === 'string' && raw.trim().length > IF_MATCH_MAX ? `must be at most ${IF_MATCH_MAX} characters` : undefined;
}

/** If-Match as sent, with a weak prefix and the quotes of an entity tag taken off; undefined when absent. */
export function ifMatchOf(request: Ndfl3Request): string | undefined {
  const raw = request.headers['if-match'];
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  return raw
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');
}

/**
 * The JSON body that `check` finds nothing wrong with, or the 400 that refuses it; with `ifMatch`, an
 * If-Match over the document's limit is refused too.
 */
export function checkedBody(
  request: Ndfl3Request,
  check: (body: unknown) => Broken | undefined,
  ifMatch = false,
): { value: unknown } | { answer: Ndfl3Answer } {
  const body = jsonBodyOf(request);
  if (!body.ok) return { answer: invalid(body.message) };
  const broken = check(body.value);
  if (broken) return { answer: invalid(`${broken.field} ${broken.message}`, { [broken.field]: broken.message }) };
  const tooLong = ifMatch ? ifMatchProblem(request) : undefined;
  if (tooLong) return { answer: invalid(`If-Match ${tooLong}`, { 'If-Match': tooLong }) };
  return { value: body.value };
}

export type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

/** The body as JSON: `undefined` when there is none; an error when it is not JSON. */
export function jsonBodyOf(request: Ndfl3Request): Parsed {
  const raw = request.body?.toString('utf8') ?? '';
  if (raw.trim() === '') return { ok: true, value: undefined };
  const type = String(request.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) return { ok: false, message: 'the body must be application/json' };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (error) {
    return { ok: false, message: `the body is not valid JSON: ${(error as Error).message}` };
  }
}
