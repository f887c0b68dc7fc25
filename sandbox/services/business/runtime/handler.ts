/**
 * The generic handler of every business operation of the sandbox's document, in the order a real
 * gateway works: route (404 / 405), client certificate (403), token (401) and scope (403), request
 * rate (429), parameters and body (415 / 400 naming the field), the business rules of 2.6 (422), then
 * the operation's behaviour. Every error answer is the business error body; the route adds the
 * X-Request-Id (index.ts). The handler knows no fault: each decision it takes by name is a rule of
 * `RuntimeRules`, which a fault may replace, and its answer is data a fault may edit (fault-modifiers.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Answer as ExchangeAnswer } from '../../../exchange.ts';
import { clientCertified } from '../../../types.ts';
import { businessError } from '../errors.ts';
import { rateGroupOf, type BusinessRates } from '../rates.ts';
import { ALL_SCOPES, bearerOf, scopeOf } from './access.ts';
import { behaviourOf, type BehaviourSettings } from './behaviours.ts';
import { matchOperation, type Operation } from './operations.ts';
import { BUSINESS_RULES, normalised, ruleRefusal, type BusinessRules } from './rules.ts';
import { checkBody, checkParameters, type Problem, type RawRequest, type ValidParameters } from './validate.ts';
import type { WorldAnswer, Input, World } from './world.ts';

export interface RuntimeState {
  world: World;
  /** token -> scopes */
  tokens: Map<string, string[]>;
  rates: BusinessRates;
  /** Answers of requests that carried an Idempotency-Key, replayed for a repeat. */
  replays: Map<string, WorldAnswer>;
}

/** The HTTP request as the handler reads it. */
export interface RuntimeRequest {
  method: string;
  /** The path after the service's prefix, without the query. */
  path: string;
  query: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  body: Buffer | undefined;
  ip: string;
  /** Whether the request came with a client certificate the mTLS listener verified. */
  certified: boolean;
}

export interface RuntimeFacts {
  op: Operation;
  /** Set on the operation's own answer (its behaviour's): 'success' or 'error'. */
  outcome?: 'success' | 'error';
  /** The problems a 400 answer names. */
  problems?: Problem[];
}

export type RuntimeAnswer = ExchangeAnswer<RuntimeFacts>;

export const CERTIFICATE_REQUIRED = 'a client certificate of the secured host is required';
export const TOKEN_REQUIRED = 'a bearer token is required';

/** The handler's named decisions, as the specification makes them (and the business rules of 2.6). */
export type RuntimeRules = BusinessRules & {
  /** Why the request's client certificate does not do for the operation, if it does not. */
  certificate(op: Operation, request: RuntimeRequest): string | undefined;
  /** Why a request without a token is refused, if it is (it is served with every scope otherwise). */
  'token.present'(op: Operation): string | undefined;
  /** The scopes of a token, undefined for a token not known. */
  'token.known'(token: string, tokens: Map<string, string[]>): string[] | undefined;
  /** The scope the operation needs and the token lacks, if it lacks one. */
  scope(scopes: string[], op: Operation): string | undefined;
  /** Path, query and header parameters coerced and checked against the document. */
  parameters(op: Operation, raw: RawRequest): { values: ValidParameters; problems: Problem[] };
  /** The body checked against the operation's schema. */
  'body.schema'(op: Operation, body: unknown): Problem[];
  /** Whether a repeated Idempotency-Key is answered with the first answer. */
  idempotency(op: Operation): boolean;
};

export const RUNTIME_RULES: RuntimeRules = {
  ...BUSINESS_RULES,
  certificate: (op, request) => (op.mtls && !request.certified ? CERTIFICATE_REQUIRED : undefined),
  'token.present': () => TOKEN_REQUIRED,
  'token.known': (token, tokens) => tokens.get(token),
  scope: (scopes, op) => (scopes.includes(scopeOf(op.template)) ? undefined : scopeOf(op.template)),
  parameters: (op, raw) => checkParameters(op, raw),
  'body.schema': (op, body) => checkBody(op, body),
  idempotency: () => true,
};

/** The rule names of the 400 answers for a request that breaks the document. */
export const VALIDATION_REFUSALS = new Set(['parameters', 'body.parse', 'body.schema']);

const WWW_AUTHENTICATE = { 'www-authenticate': 'Bearer realm="business"' };

export function runtimeRequestOf(request: FastifyRequest): RuntimeRequest {
  const prefix = (request.routeOptions.url ?? '/*').replace(/\/\*$/, '');
  return {
    method: request.method,
    path: (request.raw.url ?? '/').split('?')[0].slice(prefix.length) || '/',
    query: request.query as Record<string, unknown>,
    headers: request.headers,
    body: Buffer.isBuffer(request.body) ? request.body : undefined,
    ip: request.ip,
    certified: clientCertified(request),
  };
}

function parseBody(request: RuntimeRequest, op: Operation): { body: unknown } | { status: 400 | 415; problems: Problem[] } {
  const raw = request.body;
  if (!op.body) return { body: undefined };
  if (!raw || raw.length === 0)
    return op.body.required ? { status: 400, problems: [{ field: 'body', message: 'is required' }] } : { body: undefined };
  const type = String(request.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json'))
    return { status: 415, problems: [{ field: 'header.Content-Type', message: `must be application/json, got "${type || 'none'}"` }] };
  try {
    return { body: JSON.parse(raw.toString('utf8')) };
  } catch (error) {
    return { status: 400, problems: [{ field: 'body', message: `is not valid JSON (${(error as Error).message})` }] };
  }
}

/** The behaviour's answer as sent: an error as the business error body, a success as JSON. */
function served(op: Operation, result: WorldAnswer, headers: Record<string, string>): RuntimeAnswer {
  if (result.error)
    return {
      ...businessError(result.status, result.error.code, result.error.message, result.error.details, headers),
      facts: { op, outcome: 'error' },
    };
  const json: Record<string, string> = result.body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' };
  return { status: result.status, headers: { ...headers, ...json }, body: result.body, facts: { op, outcome: 'success' } };
}

export function runtimeHandler(state: RuntimeState, checks: RuntimeRules, settings: BehaviourSettings) {
  return (request: RuntimeRequest): RuntimeAnswer => {
    const match = matchOperation(request.method, request.path);
    if (match.kind === 'none') return businessError(404, 'NOT_FOUND', `no operation ${request.method} ${request.path}`);
    if (match.kind === 'method-not-allowed')
      return businessError(405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${request.path}`, undefined, {
        allow: match.allow.join(', '),
      });
    const op = match.operation;
    let headers: Record<string, string> = {};
    const refuse = (
      rule: string,
      status: number,
      code: string,
      message: string,
      details?: Record<string, unknown>,
      extra: Record<string, string> = {},
    ): RuntimeAnswer => ({
      ...businessError(status, code, message, details, { ...headers, ...extra }),
      refusedBy: rule,
      facts: { op },
    });
    const invalid = (rule: string, problems: Problem[]): RuntimeAnswer => {
      const details = Object.fromEntries(problems.map((p) => [p.field, p.message]));
      const answer = refuse(
        rule,
        400,
        'VALIDATION_ERROR',
        `request validation failed: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`,
        details,
      );
      return { ...answer, facts: { op, problems } };
    };

    const certificate = checks.certificate(op, request);
    if (certificate) return refuse('certificate', 403, 'FORBIDDEN', 'wrong TLS certificate', { reason: certificate });
    const token = bearerOf(request.headers.authorization);
    if (op.secured) {
      let scopes = ALL_SCOPES;
      if (!token) {
        const missing = checks['token.present'](op);
        if (missing) return refuse('token.present', 401, 'UNAUTHORIZED', missing, undefined, WWW_AUTHENTICATE);
      } else {
        const known = checks['token.known'](token, state.tokens);
        if (!known) return refuse('token.known', 401, 'UNAUTHORIZED', 'the token is not valid', undefined, WWW_AUTHENTICATE);
        scopes = known;
      }
      const lacking = checks.scope(scopes, op);
      if (lacking)
        return refuse('scope', 403, 'FORBIDDEN', 'the token lacks the scope of this operation', { scope: `${lacking} is required` });
    }
    const verdict = state.rates.hitGroup(rateGroupOf(op.template));
    headers = { 'x-ratelimit-limit': String(verdict.limit), 'x-ratelimit-remaining': String(verdict.remaining) };
    if (!verdict.allowed) {
      const wait = String(verdict.retryAfterSeconds);
      return refuse('rate', 429, 'TOO_MANY_REQUESTS', `more than ${verdict.limit} requests per second to this group`, undefined, {
        'retry-after': wait,
        'x-ratelimit-reset': wait,
      });
    }

    const checked = checks.parameters(op, { params: match.params, query: request.query, headers: request.headers });
    if (checked.problems.length) return invalid('parameters', checked.problems);
    const parsed = parseBody(request, op);
    if ('problems' in parsed) {
      if (parsed.status === 415) return refuse('body.media-type', 415, 'UNSUPPORTED_MEDIA_TYPE', parsed.problems[0].message);
      return invalid('body.parse', parsed.problems);
    }
    const bodyProblems = parsed.body === undefined ? [] : checks['body.schema'](op, parsed.body);
    if (bodyProblems.length) return invalid('body.schema', bodyProblems);
    const broken = ruleRefusal(checks, op, parsed.body);
    if (broken) return { ...served(op, broken.answer, headers), refusedBy: broken.rule, facts: { op } };

    const input: Input = {
      op,
      path: checked.values.path,
      query: checked.values.query,
      header: checked.values.header,
      body: normalised(op, parsed.body),
    };
    const sentKey = input.header['Idempotency-Key'];
    const idempotencyKey = typeof sentKey === 'string' && checks.idempotency(op) ? `${op.key} ${token} ${sentKey}` : undefined;
    const replayed = idempotencyKey ? state.replays.get(idempotencyKey) : undefined;
    const result = replayed ?? behaviourOf(op.key)(state.world, input, settings);
    if (idempotencyKey && !replayed && result.status < 300) state.replays.set(idempotencyKey, result);
    return served(op, result, headers);
  };
}
