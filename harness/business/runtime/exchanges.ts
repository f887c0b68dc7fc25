/**
 * The exchanges the runtime suites judge, per operation: its valid requests, for a read one of a thing
 * that does not exist (its answer is judged like any other: the run's own identifiers leave no 404 to
 * see otherwise), its invalid ones, one without a token, and for an operation that needs a client
 * certificate one to the secured host without the certificate and one to the plain host (each sent by
 * send.ts). An operation's exchanges
 * are made once and shared by every test that judges them; `prefetch` starts all of them, so that
 * groups overlap.
 *
 * Valid requests carry identifiers that exist where the run can have them (identifiers.ts), and so do
 * the invalid, token-less and certificate-less ones built on them, except where the broken rule is: a
 * refusal is then judged next to a control that the target served with the same identifiers. A valid
 * or invalid request that draws a 5xx is sent once more, only to tell an intermittent 5xx from a steady
 * one: every answer is kept, and every 5xx counts.
 */
import { randomUUID } from 'node:crypto';
import type { InvalidRequest, GeneratedRequest } from './request.ts';
import { withFreshValue } from './fresh.ts';
import { locate, releaseTaxRequests, OWN, requestsFor, withIdentifiers, type Located } from './identifiers.ts';
import { pathParams } from './links.ts';
import { generatedFor, type OperationPlan, type RuntimePlan } from './plan.ts';
import { sendOperation, type OperationExchange, type OperationExchanges, type Variant } from './send.ts';

import { isSkip, isToolFailure, type ToolError } from '../../errors.ts';
import { PromiseMemo } from '../../test/memo.ts';
import { perScope } from '../../runner/run-scope.ts';

export interface AuthExchanges {
  unknownToken: OperationExchange;
  malformedToken: OperationExchange;
  /** Absent when the target file has no services.business.tokenWithoutScope. */
  noScope?: OperationExchange;
}

/** The invalid case built on the located request: its identifiers, except where the broken rule is. */
function onLocated(c: InvalidRequest, located: Located, op: OperationPlan): GeneratedRequest {
  const broken = c.at.split(/[.[]/).slice(0, 2).join('.');
  const kept = Object.entries(located.origins).filter(
    ([name, origin]) => origin !== 'generated' && broken !== `path.${name}` && broken !== `query.${name}`,
  );
  const body = (located.request.body ?? {}) as Record<string, unknown>;
  const values = Object.fromEntries(
    kept
      .filter(([name]) => broken !== `body.${name}`)
      .map(([name]) => [name, located.request.path[name] ?? located.request.query[name] ?? body[name]]),
  );
  // The version the located request carries in If-Match, unless If-Match is what the case breaks.
  const header = Object.fromEntries(
    Object.entries(located.request.header).filter(
      ([name]) => name.toLowerCase() === 'if-match' && broken !== `header.${name}` && name in c.request.header,
    ),
  );
  return withIdentifiers({ ...c.request, header: { ...c.request.header, ...header } }, values, op);
}

const locatedMade = perScope(() => new PromiseMemo<string, Located[]>('keep'));

/** The operation's valid requests with identifiers that exist where the run can have them (made once). */
function locatedValid(plan: RuntimePlan, op: OperationPlan): Promise<Located[]> {
  return locatedMade().get(op.row, () => {
    const count = generatedFor(plan, op).valid.length;
    return Promise.all(
      requestsFor(plan, op, count, OWN)
        .slice(0, count)
        .map((request) => locate(plan, op, request)),
    );
  });
}

async function make(plan: RuntimePlan, op: OperationPlan): Promise<OperationExchanges> {
  const { invalid } = generatedFor(plan, op);
  const located = await locatedValid(plan, op);
  const first = located[0].request;
  const jobs: Array<Promise<unknown>> = [];
  const out: OperationExchanges = { valid: [], invalid: [] };
  located.forEach(({ request, origins }, i) =>
    jobs.push(
      sendOperation(plan, op, request, 'valid', located.length > 1 ? `valid request ${i + 1}` : 'a valid request', {
        retryServerError: true,
      }).then((e) => (out.valid[i] = { ...e, origins })),
    ),
  );
  invalid.forEach((c, i) =>
    jobs.push(
      sendOperation(plan, op, onLocated(c, located[0], op), 'invalid', `${c.description} [${c.rule}]`, { retryServerError: true }).then(
        (e) => (out.invalid[i] = e),
      ),
    ),
  );
  const last = pathParams(op).at(-1);
  const unknown = op.model.method === 'GET' && last ? withFreshValue(plan, op, first, 'path', last) : undefined;
  if (unknown)
    jobs.push(
      sendOperation(plan, op, unknown, 'unknown-id', `the valid request for a ${last} that names nothing`, { retryServerError: true }).then(
        (e) => (out.unknown = e),
      ),
    );
  if (op.model.secured)
    jobs.push(
      sendOperation(plan, op, first, 'no-token', 'the valid request without a token', { token: null }).then((e) => (out.noToken = e)),
    );
  if (op.mtls)
    jobs.push(
      sendOperation(plan, op, first, 'no-certificate', 'the valid request to mtlsUrl without a client certificate', {
        host: 'secured-without-certificate',
      }).then((e) => (out.noCertificate = e)),
    );
  if (op.plainUrlProbe)
    jobs.push(
      sendOperation(plan, op, first, 'plain-url', 'the valid request to the plain url', { host: 'plain' }).then((e) => (out.plainUrl = e)),
    );
  try {
    await Promise.all(jobs);
  } finally {
    releaseTaxRequests(op);
  }
  return out;
}

const made = perScope(() => new PromiseMemo<string, OperationExchanges>('keep'));

export function exchangesOf(plan: RuntimePlan, op: OperationPlan): Promise<OperationExchanges> {
  return made().get(op.row, () => make(plan, op));
}

async function makeAuth(plan: RuntimePlan, op: OperationPlan): Promise<AuthExchanges> {
  const [{ request }] = await locatedValid(plan, op);
  const withToken = (variant: Variant, note: string, token: string) =>
    sendOperation(plan, op, request, variant, `the valid request with ${note}`, { token });
  const scopeless = plan.run.target.services.business?.tokenWithoutScope;
  const [unknownToken, malformedToken, noScope] = await Promise.all([
    withToken('bad-token', 'an unknown token', `pc-unknown-${randomUUID()}`),
    withToken('bad-token', 'a malformed token', 'not-a-token'),
    typeof scopeless === 'string' && scopeless !== '' ? withToken('no-scope', 'a token without the scope', scopeless) : undefined,
  ]);
  return { unknownToken, malformedToken, noScope };
}

const authMade = perScope(() => new PromiseMemo<string, AuthExchanges>('keep'));

/** The token checks of an operation that stands for its group. */
export function authExchangesOf(plan: RuntimePlan, op: OperationPlan): Promise<AuthExchanges> {
  return authMade().get(op.row, () => makeAuth(plan, op));
}

/**
 * Starts every operation's exchanges, one operation per turn of the event loop; each test still awaits
 * (and reports) its own. Generating every operation's requests in one go would hold the worker, and the
 * hook that calls this, for as long as all of them take on a busy machine (past the hook's timeout,
 * which skipped every row without a reason).
 */
export function prefetch(plan: RuntimePlan): void {
  const pending = [...plan.operations];
  const next = () => {
    const op = pending.shift();
    if (!op) return;
    exchangesOf(plan, op).catch(() => undefined);
    if (op.authProbe) authExchangesOf(plan, op).catch(() => undefined);
    setImmediate(next);
  };
  next();
}

/**
 * Every operation's exchanges that could be made, and the first tool error one ended with (a test out of
 * time, a target that stopped answering): a test over every operation that finds nothing to judge says
 * that error, never an inconclusive or a pass (an operation whose exchanges needed what the target
 * lacks is left out, as its own rows say).
 */
export async function everyOperation(
  plan: RuntimePlan,
): Promise<{ made: Array<{ op: OperationPlan; exchanges: OperationExchanges }>; toolError?: ToolError }> {
  const made: Array<{ op: OperationPlan; exchanges: OperationExchanges }> = [];
  let toolError: ToolError | undefined;
  for (const op of plan.operations) {
    try {
      made.push({ op, exchanges: await exchangesOf(plan, op) });
    } catch (error) {
      if (isToolFailure(error)) toolError ??= error;
      else if (!isSkip(error)) throw error;
    }
  }
  return { made, toolError };
}

/** Every exchange made so far that got an answer, with its operation (the certificate refusals and the plain host's answers too); and the first tool error of an operation's exchanges. */
export async function allAnswered(
  plan: RuntimePlan,
): Promise<{ answers: Array<{ op: OperationPlan; exchange: OperationExchange }>; toolError?: ToolError }> {
  const { made, toolError } = await everyOperation(plan);
  const answers: Array<{ op: OperationPlan; exchange: OperationExchange }> = [];
  for (const { op, exchanges } of made)
    for (const exchange of [
      ...exchanges.valid,
      exchanges.unknown,
      ...exchanges.invalid,
      exchanges.noToken,
      exchanges.noCertificate,
      exchanges.plainUrl,
    ])
      if (exchange?.response) answers.push({ op, exchange });
  return { answers, toolError };
}
