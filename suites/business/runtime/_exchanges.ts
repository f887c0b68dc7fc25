/**
 * How the runtime suites send what the plan generated, and the exchanges they keep: per operation,
 * its valid requests, its invalid ones, one without a token, and for an operation that needs a client
 * certificate one to the secured host without the certificate and one to the plain host. Every
 * request carries the catalog's side-effect class and the operation's rate group; each group sends at
 * most two requests at a time (the pacer spaces them). An operation's exchanges are made once and
 * shared by every test that judges them; `prefetch` starts all of them, so that groups overlap.
 *
 * Valid requests carry identifiers that exist where the run can have them (_identifiers.ts), and so do
 * the invalid, token-less and certificate-less ones built on them, except where the broken rule is: a
 * refusal is then judged next to a control that the target served with the same identifiers. A valid
 * or invalid request that draws a 5xx is sent once more, only to tell an intermittent 5xx from a steady
 * one: every answer is kept, and every 5xx counts.
 */
import { randomUUID } from 'node:crypto';
import { ToolError } from '../../../harness/errors.ts';
import type { CapturedResponse, RequestSpec } from '../../../harness/http.ts';
import { mtlsDispatcher, mtlsUrl } from '../../../harness/mtls.ts';
import { recordServerError } from '../../../harness/server-errors.ts';
import { credentialOf, serviceOf } from '../../../harness/target.ts';
import { toWire, type GeneratedRequest, type InvalidRequest } from '../../../generators/openapi.ts';
import { locate, releaseTaxRequests, requestsFor, withIdentifiers, type Located, type Origin } from './_identifiers.ts';
import { generatedFor, type OperationPlan, type RuntimePlan } from './_runtime.ts';

export type Variant = 'valid' | 'invalid' | 'no-token' | 'bad-token' | 'no-scope' | 'no-certificate' | 'plain-url';
export type Host = 'own' | 'plain' | 'secured-without-certificate';

export interface Exchange {
  variant: Variant;
  /** What was sent: "a valid request", "query.limit of 1001 (maximum 1000)". */
  note: string;
  /** The first answer: the one the checks judge (a retry never stands in for it). */
  response?: CapturedResponse;
  /** Every answer, in order: a 5xx and the answer of its one retry, which only tells intermittent from steady. */
  attempts: CapturedResponse[];
  /** The transport error, when no answer came (a TLS refusal, a reset connection). */
  error?: string;
  /** Where each identifier of the request came from. */
  origins?: Record<string, Origin>;
}

export interface AuthExchanges {
  unknownToken: Exchange;
  malformedToken: Exchange;
  /** Absent when the target file has no services.business.tokenWithoutScope. */
  noScope?: Exchange;
}

export interface OperationExchanges {
  valid: Exchange[];
  invalid: Exchange[];
  noToken?: Exchange;
  noCertificate?: Exchange;
  plainUrl?: Exchange;
}

class Gate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly size: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((r) => this.waiting.push(r));
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}

/**
 * Every 5xx a valid request of an operation drew in this worker (the generated valid requests, their
 * retries, and the creates and lists that found identifiers), for BUS-RUN-001 to report. Every 5xx of
 * any request of the operation is also recorded for the whole run (harness/server-errors.ts), so that
 * no worker counts a later answer of that operation as evidence.
 */
const serverErrors = new Map<string, Array<{ note: string; res: CapturedResponse }>>();

export function serverErrorsOf(op: OperationPlan): Array<{ note: string; res: CapturedResponse }> {
  return serverErrors.get(op.row) ?? [];
}

const gates = new Map<string, Gate>();
const gateOf = (key: string) => gates.get(key) ?? (gates.set(key, new Gate(2)), gates.get(key)!);

export interface SendOptions {
  /** The bearer token; null sends none. Default: services.business.token. */
  token?: string | null;
  host?: Host;
  /** Send again once after a 5xx, to tell an intermittent 5xx from a steady one (both answers are kept). */
  retryServerError?: boolean;
}

export function baseUrl(plan: RuntimePlan, op: OperationPlan, host: Host): { url: string; dispatcher?: RequestSpec['dispatcher'] } {
  const { target } = plan.run;
  if (host === 'plain' || !op.mtls) return { url: serviceOf(target, 'business').url.replace(/\/+$/, '') };
  return { url: mtlsUrl(target), dispatcher: mtlsDispatcher(target, host === 'own' ? 'with-certificate' : 'without-certificate') };
}

/** Sends one generated request of the operation; only the no-certificate variant keeps a transport error (in `error`). */
export async function send(plan: RuntimePlan, op: OperationPlan, request: GeneratedRequest, variant: Variant, note: string, options: SendOptions = {}): Promise<Exchange> {
  const { client, target } = plan.run;
  const wire = toWire(op.model, request);
  const token = options.token === undefined ? credentialOf(target, 'business', 'token') : options.token;
  const { url, dispatcher } = baseUrl(plan, op, options.host ?? 'own');
  const headers: Record<string, string> = { ...wire.headers };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const spec: RequestSpec = {
    area: 'business',
    operation: op.row,
    sideEffect: op.catalog.sideEffect,
    method: op.model.method as RequestSpec['method'],
    url: `${url}${wire.path}${wire.search}`,
    headers,
    ...(wire.body !== undefined ? { json: wire.body } : {}),
    rateGroup: op.rateGroup,
    // On the plain host a redirect is one of the ways to refuse (BUS-MTL-004 judges it); anywhere else it is a tool error.
    ...(variant === 'plain-url' ? { redirects: 'capture' as const } : {}),
    dispatcher,
  };
  const once = () => gateOf(spec.rateGroup!.key).run(() => client.send(spec));
  try {
    const attempts = [await once()];
    if (options.retryServerError && attempts[0].status >= 500) attempts.push(await once());
    for (const res of attempts.filter((r) => r.status >= 500)) {
      if (variant === 'valid') serverErrors.set(op.row, [...serverErrorsOf(op), { note, res }]);
      recordServerError(op.row, `${note} answered HTTP ${res.status}: ${res.curl}`);
    }
    return { variant, note, response: attempts[0], attempts };
  } catch (error) {
    // Only a connection the secured host refused or broke can be its answer to a missing certificate; a timeout stays a tool error.
    if (variant !== 'no-certificate' || !(error instanceof ToolError) || error.code !== 'TARGET_UNREACHABLE') throw error;
    return { variant, note, attempts: [], error: (error as Error).message };
  }
}

/** The invalid case built on the located request: its identifiers, except where the broken rule is. */
function onLocated(c: InvalidRequest, located: Located, op: OperationPlan): GeneratedRequest {
  const broken = c.at.split(/[.[]/).slice(0, 2).join('.');
  const kept = Object.entries(located.origins).filter(([name, origin]) => origin !== 'generated' && broken !== `path.${name}` && broken !== `query.${name}`);
  const body = (located.request.body ?? {}) as Record<string, unknown>;
  const values = Object.fromEntries(kept.filter(([name]) => broken !== `body.${name}`).map(([name]) => [name, located.request.path[name] ?? located.request.query[name] ?? body[name]]));
  // The version the located request carries in If-Match, unless If-Match is what the case breaks.
  const header = Object.fromEntries(Object.entries(located.request.header).filter(([name]) => name.toLowerCase() === 'if-match' && broken !== `header.${name}` && name in c.request.header));
  return withIdentifiers({ ...c.request, header: { ...c.request.header, ...header } }, values, op);
}

const locatedMade = new Map<string, Promise<Located[]>>();

/** The operation's valid requests with identifiers that exist where the run can have them (made once). */
function locatedValid(plan: RuntimePlan, op: OperationPlan): Promise<Located[]> {
  let pending = locatedMade.get(op.row);
  if (!pending) {
    const count = generatedFor(plan, op).valid.length;
    locatedMade.set(op.row, (pending = Promise.all(requestsFor(plan, op, count, 0).slice(0, count).map((request) => locate(plan, op, request)))));
  }
  return pending;
}

async function make(plan: RuntimePlan, op: OperationPlan): Promise<OperationExchanges> {
  const { invalid } = generatedFor(plan, op);
  const located = await locatedValid(plan, op);
  const first = located[0].request;
  const jobs: Array<Promise<unknown>> = [];
  const out: OperationExchanges = { valid: [], invalid: [] };
  located.forEach(({ request, origins }, i) =>
    jobs.push(send(plan, op, request, 'valid', located.length > 1 ? `valid request ${i + 1}` : 'a valid request', { retryServerError: true }).then((e) => (out.valid[i] = { ...e, origins }))),
  );
  invalid.forEach((c, i) => jobs.push(send(plan, op, onLocated(c, located[0], op), 'invalid', `${c.description} [${c.rule}]`, { retryServerError: true }).then((e) => (out.invalid[i] = e))));
  if (op.model.secured) jobs.push(send(plan, op, first, 'no-token', 'the valid request without a token', { token: null }).then((e) => (out.noToken = e)));
  if (op.mtls) jobs.push(send(plan, op, first, 'no-certificate', 'the valid request to mtlsUrl without a client certificate', { host: 'secured-without-certificate' }).then((e) => (out.noCertificate = e)));
  if (op.plainUrlProbe) jobs.push(send(plan, op, first, 'plain-url', 'the valid request to the plain url', { host: 'plain' }).then((e) => (out.plainUrl = e)));
  try {
    await Promise.all(jobs);
  } finally {
    releaseTaxRequests(op);
  }
  return out;
}

const made = new Map<string, Promise<OperationExchanges>>();

export function exchangesOf(plan: RuntimePlan, op: OperationPlan): Promise<OperationExchanges> {
  let pending = made.get(op.row);
  if (!pending) made.set(op.row, (pending = make(plan, op)));
  return pending;
}

async function makeAuth(plan: RuntimePlan, op: OperationPlan): Promise<AuthExchanges> {
  const [{ request }] = await locatedValid(plan, op);
  const withToken = (variant: Variant, note: string, token: string) => send(plan, op, request, variant, `the valid request with ${note}`, { token });
  const scopeless = plan.run.target.services.business?.tokenWithoutScope;
  const [unknownToken, malformedToken, noScope] = await Promise.all([
    withToken('bad-token', 'an unknown token', `pc-unknown-${randomUUID()}`),
    withToken('bad-token', 'a malformed token', 'not-a-token'),
    typeof scopeless === 'string' && scopeless !== '' ? withToken('no-scope', 'a token without the scope', scopeless) : undefined,
  ]);
  return { unknownToken, malformedToken, noScope };
}

const authMade = new Map<string, Promise<AuthExchanges>>();

/** The token checks of an operation that stands for its group. */
export function authExchangesOf(plan: RuntimePlan, op: OperationPlan): Promise<AuthExchanges> {
  let pending = authMade.get(op.row);
  if (!pending) authMade.set(op.row, (pending = makeAuth(plan, op)));
  return pending;
}

/** Starts every operation's exchanges at once; each test still awaits (and reports) its own. */
export function prefetch(plan: RuntimePlan): void {
  for (const op of plan.operations) {
    exchangesOf(plan, op).catch(() => undefined);
    if (op.authProbe) authExchangesOf(plan, op).catch(() => undefined);
  }
}

/** Every exchange made so far that got an answer, with its operation. */
export async function allAnswered(plan: RuntimePlan): Promise<Array<{ op: OperationPlan; exchange: Exchange }>> {
  const out: Array<{ op: OperationPlan; exchange: Exchange }> = [];
  for (const op of plan.operations) {
    const exchanges = await exchangesOf(plan, op).catch(() => undefined);
    if (!exchanges) continue;
    for (const exchange of [...exchanges.valid, ...exchanges.invalid, exchanges.noToken]) if (exchange?.response) out.push({ op, exchange });
  }
  return out;
}
