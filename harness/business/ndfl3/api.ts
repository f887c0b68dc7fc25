/**
 * The 3-NDFL calls of spec 4.5 and 3.1 as the suites send them: bearer token, a fresh X-Request-Id,
 * the side-effect class from the business catalog, and the rate groups of specs/rate-limits.yaml (vendor:
 * 3-NDFL methods 10/s, tax-form upload 1/s; the client paces at half), whose budgets every business
 * suite shares. Where the state and the version live in an answer is configuration (config.ts).
 */
import { randomUUID } from 'node:crypto';
import { inconclusive, ToolError } from '../../errors.ts';
import type { CapturedResponse, HttpClient, RequestSpec } from '../../request/http.ts';
import { isJsonAnswer } from '../../request/media-type.ts';
import { catalogOperations } from '../openapi/catalog.ts';
import { operationKey } from '../openapi/paths.ts';
import type { SideEffect } from '../../request/safety.ts';
import { credentialOf, serviceOf, type Target } from '../../config/target.ts';
import { businessRateGroup } from '../../request/rate-groups.ts';
import { recordServerError, serverErrorOf } from '../../request/server-errors.ts';
import { ndfl3Config, valueAt, type Ndfl3Config } from './config.ts';
import { SetupError, stateReadFailures } from './state.ts';
import type { State, WorkflowOperation } from './workflow.ts';

const PRIVATE = '/api/private/ndfl3/requests/{taxRequestId}';
const V1 = '/api/v1/ndfl-3/requests/{taxRequestId}';

/** The 3-NDFL operations other than the workflow calls, as "METHOD /path" of the catalog. */
export const NDFL3 = {
  request: `GET ${PRIVATE}`,
  structure: `GET ${PRIVATE}/declaration/structure`,
  declaration: `GET ${PRIVATE}/declaration`,
  editDeclaration: `PUT ${PRIVATE}/declaration`,
  chat: `GET ${PRIVATE}/chat`,
  sendChat: `POST ${PRIVATE}/chat/send`,
  form: `GET ${V1}/info/form`,
  attachment: `GET ${V1}/info/form/attachments/{attachmentId}`,
  documentData: `POST ${V1}/info/document-data`,
  upload: `POST ${V1}/tax-form/upload`,
} as const;

export interface CallOptions {
  /** Bearer token; null sends none. Default: services.business.token. */
  token?: string | null;
  json?: unknown;
  headers?: Record<string, string>;
  /** Path parameters besides taxRequestId. */
  params?: Record<string, string>;
}

/** A tax request a test holds: its id and the state and version last read. */
export interface Held {
  id: string;
  state: string;
  version?: string;
}

export interface Snapshot {
  response: CapturedResponse;
  state?: string;
  version?: string;
}

/** A read whose state is one of 3.1's (harness/business/ndfl3/state.ts). */
export interface StateRead extends Snapshot {
  state: State;
}

let sideEffects: Map<string, SideEffect> | undefined;

export function sideEffectOf(operation: string): SideEffect {
  sideEffects ??= new Map(catalogOperations().map((row) => [operationKey(row.method, row.path), row.sideEffect]));
  const [method, path] = operation.split(' ');
  const found = sideEffects.get(operationKey(method, path));
  if (!found) throw new Error(`${operation} is not in specs/catalog/business-operations.yaml`);
  return found;
}

export class Ndfl3Api {
  readonly config: Ndfl3Config;
  /** Requests known to exist: the pool and what provisioning made (calls on them count as valid). */
  private readonly existing = new Set<string>();

  constructor(
    readonly target: Target,
    readonly client: HttpClient,
  ) {
    this.config = ndfl3Config(target);
    for (const id of this.config.pool) this.existing.add(id);
  }

  private base(): string {
    return serviceOf(this.target, 'business').url.replace(/\/+$/, '');
  }

  async call(operation: string, taxRequestId: string, options: CallOptions = {}): Promise<CapturedResponse> {
    const [method, template] = operation.split(' ') as [RequestSpec['method'], string];
    const params: Record<string, string> = { taxRequestId, ...(options.params ?? {}) };
    const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));
    const token = options.token === undefined ? credentialOf(this.target, 'business', 'token') : options.token;
    const headers: Record<string, string> = { accept: 'application/json', 'x-request-id': randomUUID(), ...(options.headers ?? {}) };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const res = await this.client.send({
      area: 'business',
      operation,
      sideEffect: sideEffectOf(operation),
      method,
      url: `${this.base()}${path}`,
      headers,
      json: options.json,
      rateGroup: businessRateGroup(template),
    });
    // Every 5xx counts: once the operation failed a call on an existing request, a later answer of it
    // that looks right proves nothing (a flaky target may serve a repeat).
    const earlier = serverErrorOf(operation);
    if (res.status >= 500 && this.existing.has(taxRequestId) && options.token === undefined)
      recordServerError(operation, `a call on request ${taxRequestId} answered HTTP ${res.status}: ${res.curl}`);
    else if (earlier && res.status < 500)
      throw inconclusive(
        'PRECONDITION_MISSING',
        `${operation} answered a call on an existing request with a 5xx earlier in this run (${earlier}); an answer of it now proves nothing`,
      );
    return res;
  }

  /** A workflow call with If-Match (null sends none). */
  transition(taxRequestId: string, op: WorkflowOperation, ifMatch: string | null, options: CallOptions = {}): Promise<CapturedResponse> {
    const headers = { ...(options.headers ?? {}), ...(ifMatch === null ? {} : { 'if-match': ifMatch }) };
    return this.call(op.operation, taxRequestId, { ...options, headers });
  }

  /**
   * A workflow call on a request a test holds, then the request read back, the holder updated with
   * what the target now says: the answer, the state and version before, and the read-back snapshot.
   */
  async step(
    held: Held,
    op: WorkflowOperation,
    ifMatch: string | null = held.version ?? null,
    options: CallOptions = {},
  ): Promise<{ res: CapturedResponse; before: { state: string; version?: string }; after: StateRead }> {
    const before = { state: held.state, version: held.version };
    const res = await this.transition(held.id, op, ifMatch, options);
    const after = await this.read(held.id, `reading request ${held.id} back after ${op.name} from ${before.state}`);
    Object.assign(held, { state: after.state, version: after.version });
    return { res, before, after };
  }

  /** GET request data as it came back, with the state and the version where the target file says they are. */
  async snapshot(taxRequestId: string): Promise<Snapshot> {
    const response = await this.call(NDFL3.request, taxRequestId);
    return { response, state: this.stateOf(response), version: this.versionOf(response) };
  }

  /**
   * GET request data whose state the caller takes as given: a read without one of the ten states of
   * 3.1 throws a SetupError naming NDF-REQ-001 (harness/business/ndfl3/state.ts), `why` saying what it was for.
   */
  async read(taxRequestId: string, why = `reading the state of request ${taxRequestId}`): Promise<StateRead> {
    const snap = await this.snapshot(taxRequestId);
    const field = this.config.stateField ?? '(no stateField)';
    const failures = stateReadFailures(snap.response, field);
    if (failures.length)
      throw new SetupError(failures, {
        title: `${why}: GET request data should answer 200 with one of the ten states of 3.1 at "${field}"`,
        response: snap.response,
        redactor: this.target.redactor,
      });
    return snap as StateRead;
  }

  /** The state where the target file says it is, read only from a JSON answer (spec 4: bodies are JSON). */
  stateOf(res: CapturedResponse): string | undefined {
    if (!this.config.stateField || res.status !== 200 || !isJsonAnswer(res)) return undefined;
    const value = valueAt(res.json, this.config.stateField);
    return typeof value === 'string' ? value : undefined;
  }

  /** The version as the next If-Match must carry it: the ETag as sent, or the body field. */
  versionOf(res: CapturedResponse): string | undefined {
    if (res.status < 200 || res.status > 299) return undefined;
    if (this.config.versionFrom === 'header') return res.headers.etag || undefined;
    if (!isJsonAnswer(res)) return undefined;
    const value = valueAt(res.json, this.config.versionField);
    return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
  }

  /**
   * A fresh request through the sandbox-only provisioning call: its id, and its state and version
   * when the answer carries them where GET request data does (the caller reads them otherwise).
   */
  async provision(): Promise<{ id: string; state?: string; version?: string }> {
    const path = this.config.provisioningPath;
    if (!path)
      throw new ToolError(
        'CREDENTIAL_MISSING',
        `the target ${this.target.name} offers no provisioning (kind sandbox and services.business.ndfl3.provisioning)`,
      );
    const res = await this.client.send({
      area: 'business',
      operation: `POST ${path}`,
      sideEffect: 'write',
      method: 'POST',
      url: `${this.base()}${path}`,
      // A sandbox's own call, in no group of the vendor's: paced by the service's limit its target file declares.
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${credentialOf(this.target, 'business', 'token')}`,
        'x-request-id': randomUUID(),
      },
    });
    const id = valueAt(res.json, 'taxRequestId');
    if (res.status < 200 || res.status > 299 || typeof id !== 'string') {
      // The call is outside the contract: its failure is no contract result and no transport problem,
      // only the absence of the request a test needs.
      throw inconclusive(
        'PRECONDITION_MISSING',
        `the sandbox's provisioning call POST ${path} (outside the contract) answered HTTP ${res.status} without a taxRequestId (${res.rawBody.slice(0, 200)}), so no tax request could be made`,
      );
    }
    this.existing.add(id);
    const state = this.config.stateField ? valueAt(res.json, this.config.stateField) : undefined;
    return { id, state: typeof state === 'string' ? state : undefined, version: this.versionOf(res) };
  }
}
