/**
 * How the business suites send one request of an operation (generated from the served document) and
 * keep what came back: the catalog's side-effect class and the operation's rate group on every
 * request, at most two requests of a group at a time (the pacer spaces them), the host the operation
 * needs (plain, or secured with or without the client certificate), and every 5xx recorded for the
 * run (harness/request/server-errors.ts). A valid request that draws a 5xx may be sent once more, only to tell
 * an intermittent 5xx from a steady one: every answer is kept, and every 5xx counts.
 */
import { ToolError } from '../../errors.ts';
import type { CapturedResponse, RequestSpec } from '../../request/http.ts';
import { mtlsDispatcher, mtlsUrl } from '../mtls.ts';
import { recordServerError } from '../../request/server-errors.ts';
import { credentialOf, serviceOf } from '../../config/target.ts';
import { toWire, type GeneratedRequest } from './request.ts';
import type { OperationPlan, RuntimePlan } from './plan.ts';
import { ScopedMap } from '../../runner/run-scope.ts';
import { currentHolder } from '../../request/pace-hold.ts';

export type Variant = 'valid' | 'unknown-id' | 'invalid' | 'no-token' | 'bad-token' | 'no-scope' | 'no-certificate' | 'plain-url';
export type Host = 'own' | 'plain' | 'secured-without-certificate';

/** Where an identifier a request carries came from. */
export type Origin = 'named' | 'created' | 'found' | 'generated';

export interface OperationExchange {
  variant: Variant;
  /** Where it was sent: the certificate a refusal can be about (harness/business/runtime/certificate.ts). */
  host: Host;
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

/** What an operation's runtime tests send and judge: its valid requests, and each kind of request it must refuse. */
export interface OperationExchanges {
  valid: OperationExchange[];
  /** A read whose last path identifier names nothing: what the target answers for a thing it does not have. */
  unknown?: OperationExchange;
  invalid: OperationExchange[];
  noToken?: OperationExchange;
  noCertificate?: OperationExchange;
  plainUrl?: OperationExchange;
}

/**
 * At most `size` requests of a rate group in flight per worker, the rest queued here in order, so that a
 * group's many exchanges do not take every slot of the service ahead of the other groups and files. A
 * queued request waits for its group's pace: whoever it works for is held meanwhile (harness/request/pace-hold.ts).
 */
export class Gate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly size: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) {
      const queued = currentHolder()?.holdOpen();
      await new Promise<void>((r) => this.waiting.push(r)).finally(queued);
    }
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
 * any request of the operation is also recorded for the whole run (harness/request/server-errors.ts), so that
 * no worker counts a later answer of that operation as evidence.
 */
const serverErrors = new ScopedMap<string, Array<{ note: string; res: CapturedResponse }>>();

export function serverErrorsOf(op: OperationPlan): Array<{ note: string; res: CapturedResponse }> {
  return serverErrors.get(op.row) ?? [];
}

const gates = new ScopedMap<string, Gate>();
const gateOf = (key: string) => gates.get(key) ?? (gates.set(key, new Gate(2)), gates.get(key)!);

export interface SendOptions {
  /** The bearer token; null sends none. Default: services.business.token. */
  token?: string | null;
  host?: Host;
  /** Send again once after a 5xx, to tell an intermittent 5xx from a steady one (both answers are kept). */
  retryServerError?: boolean;
}

/** Whether a request of the operation sent to `host` goes to the plain url (an operation that needs no certificate always does). */
export const onPlainUrl = (op: OperationPlan, host: Host): boolean => host === 'plain' || !op.mtls;

export function baseUrl(plan: RuntimePlan, op: OperationPlan, host: Host): { url: string; dispatcher?: RequestSpec['dispatcher'] } {
  const { target } = plan.run;
  if (onPlainUrl(op, host)) return { url: serviceOf(target, 'business').url.replace(/\/+$/, '') };
  return { url: mtlsUrl(target), dispatcher: mtlsDispatcher(target, host === 'own' ? 'with-certificate' : 'without-certificate') };
}

/** Sends one generated request of the operation; only the no-certificate variant keeps a transport error (in `error`). */
export async function sendOperation(
  plan: RuntimePlan,
  op: OperationPlan,
  request: GeneratedRequest,
  variant: Variant,
  note: string,
  options: SendOptions = {},
): Promise<OperationExchange> {
  const { client, target } = plan.run;
  const wire = toWire(op.model, request);
  const token = options.token === undefined ? credentialOf(target, 'business', 'token') : options.token;
  const host = options.host ?? 'own';
  const { url, dispatcher } = baseUrl(plan, op, host);
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
      // A read of an unknown thing is a valid request too: its 5xx is one.
      if (variant === 'valid' || variant === 'unknown-id') serverErrors.set(op.row, [...serverErrorsOf(op), { note, res }]);
      recordServerError(op.row, `${note} answered HTTP ${res.status}: ${res.curl}`);
    }
    return { variant, host, note, response: attempts[0], attempts };
  } catch (error) {
    // Only a connection the secured host refused or broke can be its answer to a missing certificate; a timeout stays a tool error.
    if (variant !== 'no-certificate' || !(error instanceof ToolError) || error.code !== 'TARGET_UNREACHABLE') throw error;
    return { variant, host, note, attempts: [], error: (error as Error).message };
  }
}
