/**
 * The generic handler of every business operation of the sandbox's document, in the order a real
 * gateway works: route (404 / 405), client certificate (403), token (401) and scope (403), request
 * rate (429), parameters and body (415 / 400 naming the field), then the operation's behaviour.
 * Every error answer is the business error body with an X-Request-Id.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FaultSet } from '../../../faults/types.ts';
import { clientCertified } from '../../../types.ts';
import { requestIdOf, sendBusinessError } from '../errors.ts';
import { ALL_SCOPES, bearerOf, groupOf, RateLimits, scopeOf } from './access.ts';
import { behaviourOf } from './behaviours.ts';
import { matchOperation, type Operation } from './operations.ts';
import { CARDS_LISTS, CHECKOUT_V1_CREATE, normalised, relaxed, ruleRefusal } from './rules.ts';
import { checkBody, checkParameters, type Problem } from './validate.ts';
import type { Answer, Input, World } from './world.ts';

export interface RuntimeState {
  world: World;
  faults: FaultSet;
  /** token -> scopes */
  tokens: Map<string, string[]>;
  rates: RateLimits;
  /** Answers of requests that carried an Idempotency-Key, replayed for a repeat. */
  replays: Map<string, Answer>;
  /** Valid requests seen by an intermittently failing operation (fault bus-run-intermittent-500). */
  flaky: number;
}

const CARDS_WITHOUT_CERTIFICATE = new Set(['GET /api/v1/card', 'GET /api/v3/card', 'GET /api/v1/card/{ucid}']);
const RECEIPT_ANSWERS = new Set(['POST /api/v1/self-employed/taxpayers/{inn}/receipts', 'GET /api/v1/self-employed/taxpayers/{inn}/receipts/{receiptId}']);
const CHECKOUT_V2_READ = 'GET /api/v2/checkout/order/{shopId}/by/{orderId}';
const BENEFICIARY_CREATE = 'POST /api/v1/nominal-accounts/beneficiaries';

function problemsAnswer(request: FastifyRequest, reply: FastifyReply, state: RuntimeState, problems: Problem[], op?: Operation) {
  const details = Object.fromEntries(problems.map((p) => [p.field, p.message]));
  const message = `request validation failed: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`;
  if (state.faults.has('bus-run-html-400')) {
    return reply.code(400).header('x-request-id', requestIdOf(request)).type('text/html; charset=utf-8').send(`<html><body><h1>400 Bad Request</h1><p>${message.replace(/[<>&]/g, '')}</p></body></html>`);
  }
  const enumOnly = problems.every((p) => p.message.startsWith('must be one of'));
  if (enumOnly && op && groupOf(op.template) === 'nominal-accounts' && state.faults.has('bus-err-enum-format')) {
    return sendBusinessError(request, reply, 400, 'INVALID_ENUM_VALUE', `unknown value of ${problems[0].field}`);
  }
  return sendBusinessError(request, reply, 400, 'VALIDATION_ERROR', message, details);
}

function answer(request: FastifyRequest, reply: FastifyReply, state: RuntimeState, op: Operation, result: Answer) {
  if (result.error) {
    if (result.status === 404 && state.faults.has('bus-run-error-body-shape')) {
      return reply.code(404).header('x-request-id', requestIdOf(request)).type('application/json').send({ message: result.error.message, code: 404 });
    }
    return sendBusinessError(request, reply, result.status, result.error.code, result.error.message, result.error.details);
  }
  let status = result.status;
  let body = result.body;
  const { faults } = state;
  if (op.key === CHECKOUT_V1_CREATE && status === 201 && faults.has('bus-chk-v1-create-200')) status = 200;
  if (isObject(body) && RECEIPT_ANSWERS.has(op.key) && faults.has('bus-se-receipt-new')) body = { ...body, status: 'NEW' };
  if (isObject(body) && RECEIPT_ANSWERS.has(op.key) && Array.isArray(body.operations) && faults.has('bus-se-error-message-not-string')) {
    body = { ...body, operations: body.operations.map((o) => (isObject(o) && typeof o.errorMessage === 'string' ? { ...o, errorMessage: { text: o.errorMessage } } : o)) };
  }
  if (isObject(body) && op.key === CHECKOUT_V2_READ && faults.has('bus-chk-read-without-items-amount')) body = Object.fromEntries(Object.entries(body).filter(([k]) => k !== 'itemsAmount'));
  if (op.key === 'GET /api/v1/company' && state.faults.has('bus-run-field-wrong-type') && body && typeof body === 'object') body = { ...body, name: 7_707_083_893 };
  if (op.key === 'GET /api/v1/individual/subscription' && state.faults.has('bus-run-undocumented-status')) status = 202;
  reply.code(status).header('x-request-id', requestIdOf(request));
  if (body === undefined || (op.key === 'GET /api/v1/individual/passport' && faults.has('bus-run-empty-success'))) return reply.send();
  const textPlain = CARDS_LISTS.has(op.key) && state.faults.has('bus-run-wrong-content-type');
  return reply.type(textPlain ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8').send(JSON.stringify(body));
}

/** The scopes the request's token carries, or the refusal to send. */
function authorise(request: FastifyRequest, state: RuntimeState, op: Operation): { scopes: string[] } | { status: 401 | 403; code: string; message: string } {
  const token = bearerOf(request.headers.authorization);
  const { faults } = state;
  if (!token) {
    if (groupOf(op.template) === 'counterparty' && faults.has('bus-run-missing-token-accepted')) return { scopes: ALL_SCOPES };
    if (op.template.includes('{') && faults.has('bus-run-identified-without-token')) return { scopes: ALL_SCOPES };
    if (faults.has('bus-run-no-token-403')) return { status: 403, code: 'FORBIDDEN', message: 'access denied' };
    return { status: 401, code: 'UNAUTHORIZED', message: 'a bearer token is required' };
  }
  const scopes = state.tokens.get(token) ?? (faults.has('bus-run-any-token-accepted') ? ALL_SCOPES : undefined);
  if (!scopes) return { status: 401, code: 'UNAUTHORIZED', message: 'the token is not valid' };
  return { scopes };
}

function certificateRefusal(request: FastifyRequest, state: RuntimeState, op: Operation): string | undefined {
  const { faults } = state;
  const needed = op.mtls || (CARDS_WITHOUT_CERTIFICATE.has(op.key) && faults.has('bus-run-cards-need-certificate'));
  if (!needed) return undefined;
  if (op.mtls && faults.has('bus-run-mtls-cert-refused')) return 'the client certificate is not accepted';
  if (clientCertified(request) || (op.mtls && faults.has('bus-run-mtls-not-enforced'))) return undefined;
  return 'a client certificate of the secured host is required';
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseBody(request: FastifyRequest, op: Operation): { body: unknown } | { status: 400 | 415; problems: Problem[] } {
  const raw = Buffer.isBuffer(request.body) ? request.body : undefined;
  if (!op.body) return { body: undefined };
  if (!raw || raw.length === 0) return op.body.required ? { status: 400, problems: [{ field: 'body', message: 'is required' }] } : { body: undefined };
  const type = String(request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) return { status: 415, problems: [{ field: 'header.Content-Type', message: `must be application/json, got "${type || 'none'}"` }] };
  try {
    return { body: JSON.parse(raw.toString('utf8')) };
  } catch (error) {
    return { status: 400, problems: [{ field: 'body', message: `is not valid JSON (${(error as Error).message})` }] };
  }
}

function cardsLimitProblems(op: Operation, raw: unknown, problems: Problem[], input: Input, faults: FaultSet): Problem[] {
  if (!CARDS_LISTS.has(op.key)) return problems;
  const sent = Number(raw);
  if (faults.has('bus-run-cards-limit-5000') && Number.isInteger(sent) && sent >= 1 && sent <= 5000) {
    input.query.limit = sent;
    return problems.filter((p) => p.field !== 'query.limit');
  }
  if (faults.has('bus-run-cards-limit-1000-refused') && input.query.limit === 1000) return [...problems, { field: 'query.limit', message: 'must be < 1000' }];
  return problems;
}

export async function handle(request: FastifyRequest, reply: FastifyReply, state: RuntimeState) {
  const { faults } = state;
  const prefix = (request.routeOptions.url ?? '/*').replace(/\/\*$/, '');
  const rawPath = (request.raw.url ?? '/').split('?')[0].slice(prefix.length) || '/';
  const match = matchOperation(request.method, rawPath);
  if (match.kind === 'none') return sendBusinessError(request, reply, 404, 'NOT_FOUND', `no operation ${request.method} ${rawPath}`);
  if (match.kind === 'method-not-allowed') {
    reply.header('allow', match.allow.join(', '));
    return sendBusinessError(request, reply, 405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${rawPath}`);
  }
  const op = match.operation;
  const refused = certificateRefusal(request, state, op);
  if (refused) return sendBusinessError(request, reply, 403, 'FORBIDDEN', 'wrong TLS certificate', { reason: refused });
  if (op.secured) {
    const access = authorise(request, state, op);
    if ('status' in access) {
      if (access.status === 401) reply.header('www-authenticate', 'Bearer realm="business"');
      return sendBusinessError(request, reply, access.status, access.code, access.message);
    }
    const scope = scopeOf(op.template);
    if (!access.scopes.includes(scope) && !faults.has('bus-run-scope-ignored')) {
      if (faults.has('bus-err-403-bare')) return sendBusinessError(request, reply, 403, 'FORBIDDEN', 'Forbidden');
      return sendBusinessError(request, reply, 403, 'FORBIDDEN', 'the token lacks the scope of this operation', { scope: `${scope} is required` });
    }
  }
  const verdict = state.rates.hit(op.template, bearerOf(request.headers.authorization) ?? request.ip);
  if (verdict) {
    reply.header('x-ratelimit-limit', String(verdict.limit)).header('x-ratelimit-remaining', String(verdict.remaining));
    if (!verdict.allowed) {
      reply.header('retry-after', String(verdict.retryAfterSeconds)).header('x-ratelimit-reset', String(verdict.retryAfterSeconds));
      return sendBusinessError(request, reply, 429, 'TOO_MANY_REQUESTS', `more than ${verdict.limit} requests per second to this group`);
    }
  }
  const query = request.query as Record<string, unknown>;
  const checked = checkParameters(op, { params: match.params, query, headers: request.headers }, faults.has('bus-run-query-not-validated'));
  const input: Input = { op, path: checked.values.path, query: checked.values.query, header: checked.values.header, body: undefined };
  const problems = relaxed(op, cardsLimitProblems(op, query.limit, checked.problems, input, faults), undefined, query, faults);
  if (problems.length) {
    if (faults.has('bus-run-path-param-crash') && problems.some((p) => p.field.startsWith('path.'))) throw new Error('cannot parse identifier');
    return problemsAnswer(request, reply, state, problems, op);
  }
  const parsed = parseBody(request, op);
  if ('problems' in parsed) {
    if (parsed.status === 415) return sendBusinessError(request, reply, 415, 'UNSUPPORTED_MEDIA_TYPE', parsed.problems[0].message);
    if (faults.has('bus-err-malformed-json-text')) return reply.code(400).header('x-request-id', requestIdOf(request)).type('text/plain; charset=utf-8').send('Bad Request');
    return problemsAnswer(request, reply, state, parsed.problems, op);
  }
  input.body = parsed.body;
  const bodyProblems = faults.has('bus-run-body-not-validated') || parsed.body === undefined ? [] : relaxed(op, checkBody(op, parsed.body), parsed.body, {}, faults);
  if (bodyProblems.length) return problemsAnswer(request, reply, state, bodyProblems, op);
  const broken = faults.has('bus-run-body-not-validated') ? undefined : ruleRefusal(op, parsed.body, faults);
  if (broken) return answer(request, reply, state, op, broken);
  input.body = normalised(op, parsed.body);
  if (op.key === 'POST /api/v1/invoice/send' && faults.has('bus-run-500-on-valid')) throw new Error('invoice renderer unavailable');
  if (op.key === 'GET /api/v1/company' && faults.has('bus-run-intermittent-500') && state.flaky++ % 2 === 0) throw new Error('company registry timed out');
  if (op.key === 'GET /api/v1/individual/blacklist/status' && faults.has('bus-run-valid-token-refused')) return sendBusinessError(request, reply, 401, 'UNAUTHORIZED', 'the token is not valid');
  if (op.key === 'POST /api/v1/delivery/tasks' && faults.has('bus-run-valid-rejected')) return problemsAnswer(request, reply, state, [{ field: 'body.priority', message: 'is required' }]);
  const keyIgnored = op.key === BENEFICIARY_CREATE && faults.has('bus-ben-idempotency-ignored');
  const idempotencyKey = typeof input.header['Idempotency-Key'] === 'string' && !keyIgnored ? `${op.key} ${bearerOf(request.headers.authorization)} ${input.header['Idempotency-Key']}` : undefined;
  const replayed = idempotencyKey ? state.replays.get(idempotencyKey) : undefined;
  const result = replayed ?? behaviourOf(op.key)(state.world, input, faults);
  if (idempotencyKey && !replayed && result.status < 300) state.replays.set(idempotencyKey, result);
  return answer(request, reply, state, op, result);
}
