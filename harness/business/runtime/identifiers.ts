/**
 * Identifiers that exist, for the requests of the runtime suites: a request with a generated identifier
 * mostly meets a 404, which proves nothing about the operation. Where an operation's path (or a required
 * query parameter named like an identifier) needs one, it comes, in this order, from
 *   1. the target file: services.business.fixtures of the operation, else identifiers.<name> (the
 *      target's own test data; a destructive operation takes only a disposable set: fixtures.ts);
 *   2. a 3-NDFL tax request of the target file's pool, or one the sandbox provisions (taxRequestId), walked
 *      to a state the call is allowed from (a destructive call only on one this run provisioned);
 *   3. this run: a create that answers it or a list that shows it (links.ts), nearest first; a
 *      create's identifier is fresh for an operation that changes what it names, and shared by reads.
 * Each value keeps where it came from: an operation that answers 404 to identifiers named by the target
 * file, or made by a create whose path the operation continues, breaks the contract; a 404 to an
 * identifier found elsewhere (a list, a distant create) may only mean it names another kind of thing.
 * Destructive operations never get an identifier the run did not make or the target file did not mark
 * disposable: deleting existing data is not the suite's business.
 *
 * A create whose body names the new thing (an order number a read then takes by path) gets a fresh
 * value in every request (fresh.ts): a generated one may be blank or repeat within the run, and a
 * repeat is refused as a duplicate.
 */
import { ToolError, isSkip } from '../../errors.ts';
import type { CapturedResponse } from '../../request/http.ts';
import { Ndfl3Api } from '../ndfl3/api.ts';
import { RequestSource, type Goal, type Handle } from '../ndfl3/requests.ts';
import { SetupError } from '../ndfl3/state.ts';
import { workflow } from '../ndfl3/workflow.ts';
import { operationKey } from '../openapi/paths.ts';
import type { GeneratedRequest } from './request.ts';
import { isJsonObject } from '../../text/json.ts';
import { isSuccess } from '../../checks/answer.ts';
import { PromiseMemo } from '../../test/memo.ts';
import { seedFor } from '../../text/seeds.ts';
import { disposableSet, namedValue } from './fixtures.ts';
import { meetingRules } from './fit.ts';
import { freshIdentifiers } from './fresh.ts';
import { served } from './judge.ts';
import { pathParams, requiredInBody, sourcesOf } from './links.ts';
import { validRequests, type OperationPlan, type RuntimePlan } from './plan.ts';
import { sendOperation, type Origin } from './send.ts';
import { perScope, ScopedMap, ScopedSet } from '../../runner/run-scope.ts';

/** Where an identifier came from: named by the target file, made in this run, found in a list or a distant create, or generated. */

export interface Located {
  request: GeneratedRequest;
  /** Origin of each identifier the request carries. */
  origins: Record<string, Origin>;
}

export interface Created {
  response: CapturedResponse;
  /** Identifiers known after the create: its path values and its answer's top-level properties. */
  values: Record<string, unknown>;
}

export const ok = (res: CapturedResponse | undefined): res is CapturedResponse => res !== undefined && isSuccess(res.status);
const ID_LIKE = /(^id$|Id$|Number$|^inn$|^ucid$)/;
/** Required query parameters named like identifiers (a result read by its correlationId). */
const queryIdentifiers = (op: OperationPlan) =>
  op.model.parameters.filter((p) => p.in === 'query' && p.required && ID_LIKE.test(p.name)).map((p) => p.name);
const changes = (op: OperationPlan) => op.model.method !== 'GET' && op.model.method !== 'HEAD';

/**
 * Required top-level body properties of a call that creates nothing (a read, a payment, a deletion
 * sent as POST) named like an identifier the document reads by path (paymentRegistryId): the body
 * names an existing thing. A create's body identifiers stay as generated (a shop names its new order).
 */
function bodyIdentifiers(p: RuntimePlan, op: OperationPlan): string[] {
  if (op.model.method !== 'POST' || !['read', 'money', 'destructive'].includes(op.catalog.sideEffect)) return [];
  const required = [...requiredInBody(p.raw, op)];
  const byPath = new Set(p.operations.flatMap((other) => pathParams(other)));
  return required.filter((name) => ID_LIKE.test(name) && byPath.has(name));
}

/** The request with these identifier values in its path and its required identifier query parameters. */
export function withIdentifiers(request: GeneratedRequest, values: Record<string, unknown>, op: OperationPlan): GeneratedRequest {
  const path = { ...request.path };
  const query = { ...request.query };
  for (const name of pathParams(op)) if (values[name] !== undefined) path[name] = values[name];
  for (const name of queryIdentifiers(op)) if (values[name] !== undefined) query[name] = values[name];
  // Body identifiers (bodyIdentifiers) only ever reach `values` for operations that take them.
  const body = isJsonObject(request.body) ? { ...request.body } : request.body;
  if (isJsonObject(body))
    for (const name of Object.keys(body))
      if (values[name] !== undefined && !pathParams(op).includes(name) && bodyNames.get(op)?.includes(name)) body[name] = values[name];
  return { ...request, path, query, ...(request.body !== undefined ? { body } : {}) };
}

/** Body identifiers per operation, as locate found them needed (withIdentifiers has no plan). */
const bodyNames = new WeakMap<OperationPlan, string[]>();

/**
 * Fresh valid requests for an operation: a few, so that a business-rule refusal of one does not end a
 * create; for operations with known rules of 2.6, requests that meet them (fit.ts), kept only
 * where they are valid against the served document, the generated ones after them as fallbacks.
 */
/** The purpose of the operation's own valid requests: the seed generatedFor uses, so its invalid cases are built on them. */
export const OWN = 'own';
export function requestsFor(p: RuntimePlan, op: OperationPlan, count = 3, purpose = 'create'): GeneratedRequest[] {
  const generated = validRequests(p, op, purpose === OWN ? op.seed : seedFor(op.seed, purpose), count);
  const fitted = generated
    .map((request, i) => meetingRules(op, request, i))
    .filter((request, i) => request !== generated[i] && p.requests.validOnWire(op.model, request));
  return [...fitted, ...generated].map((request) => freshIdentifiers(p, op, request));
}

/** The runtime suites' share of the 3-NDFL requests, per target. */
const ndfl3Source = perScope((): { source?: RequestSource } => ({}));
/** Tax requests held for an operation's exchanges: walked to a state its call is allowed from, given back after them. */
const heldTaxRequests = new ScopedMap<string, Handle[]>();

/**
 * The state a call on a tax request needs, from the target file's table (sourceStates): a workflow
 * call one it is allowed from (a request already in its target state would only be a repeat), any
 * other call that changes the request a state from which the workflow still leads somewhere (a final
 * declaration is filed). Without the table, or for a read, any request does.
 */
function goalOf(source: RequestSource, op: OperationPlan): Goal | undefined {
  const machine = source.machine;
  if (!machine || !changes(op)) return undefined;
  const call = workflow().operations.find((w) => operationKey(w.method, w.path) === operationKey(op.model.method, op.catalog.path));
  if (call) return { describe: `a state ${call.name} is allowed from`, accepts: (s) => machine.expectation(s, call) === 'allowed' };
  return { describe: 'a state that is not final', accepts: (s) => !machine.isTerminal(s) };
}

/**
 * A tax request of the pool (its share for the runtime suites) or one the sandbox provisions, in the
 * state the call needs where the target file's table says which, with the version its If-Match carries.
 */
async function taxRequest(p: RuntimePlan, op: OperationPlan): Promise<{ id: string; version?: string } | undefined> {
  const source = (ndfl3Source().source ??= new RequestSource(new Ndfl3Api(p.run.target, p.run.client), 'runtime'));
  const goal = goalOf(source, op);
  // A destructive call (cancel, decline) only on a request this run made: never on the target's pool.
  const destructive = op.catalog.sideEffect === 'destructive';
  if (destructive && (!goal || !source.api.config.provisioningPath)) return undefined;
  try {
    if (goal) {
      const handle = await source.acquire(goal, { fresh: destructive });
      heldTaxRequests.set(op.row, [...(heldTaxRequests.get(op.row) ?? []), handle]);
      return { id: handle.id, version: handle.version };
    }
  } catch (error) {
    // No request reaches that state here (or the walk was refused: the workflow suites judge that): any request, as before.
    if (!isSkip(error) && !(error instanceof SetupError)) throw error;
  }
  if (destructive) return undefined;
  return source.someId().then(
    (id) => ({ id }),
    (error) => {
      if (isSkip(error)) return undefined;
      throw error;
    },
  );
}

/** Gives back the tax requests held for the operation's exchanges, their state now unknown (the exchanges may have moved them). */
export function releaseTaxRequests(op: OperationPlan): void {
  for (const handle of heldTaxRequests.get(op.row) ?? []) ndfl3Source().source?.release(handle);
  heldTaxRequests.delete(op.row);
}

/** The request's If-Match header parameter, if the document gives it one: it carries the version the caller last saw. */
const ifMatchOf = (op: OperationPlan) => op.model.parameters.find((q) => q.in === 'header' && q.name.toLowerCase() === 'if-match')?.name;

/**
 * 3-NDFL attachment ids name attachments of the tax request: a generated one names none, so an
 * optional list of them is left out of a valid request rather than sent to be refused.
 */
function withoutForeignAttachments(p: RuntimePlan, op: OperationPlan, request: GeneratedRequest): GeneratedRequest {
  const body = request.body;
  if (op.catalog.area !== 'ndfl3' || !isJsonObject(body) || !('attachmentIds' in body)) return request;
  const { attachmentIds: _dropped, ...rest } = body;
  const trimmed = { ...request, body: rest };
  return p.requests.validOnWire(op.model, trimmed) ? trimmed : request;
}

/** Whether the read continues the create's path (or its parent's, for an action path such as .../create). */
function continues(create: OperationPlan, op: OperationPlan): boolean {
  const path = create.model.path;
  const last = path.split('/').pop() ?? '';
  const parent = path.replace(/\/[^/{}]+$/, '');
  return op.model.path.startsWith(`${path}/`) || (/^(create|send|issue)$/.test(last) && op.model.path.startsWith(`${parent}/`));
}

const shared = perScope(() => new PromiseMemo<string, Created | undefined>('keep'));
/**
 * Sources that could not give an identifier once (a create not answered as documented, an empty list):
 * not asked again, so that a target that refuses everything costs a handful of requests, not one
 * search per operation.
 */
const barren = new ScopedSet<string>();

/** A 2xx create of `op` with these known identifiers, shared by every caller that only reads what it makes. */
function sharedCreate(p: RuntimePlan, op: OperationPlan, known: Record<string, unknown>, depth: number): Promise<Created | undefined> {
  const key = `${op.row} ${JSON.stringify(known)} ${depth}`;
  return shared().get(key, () => create(p, op, known, depth).catch(absentOnPrecondition));
}

function absentOnPrecondition(error: unknown): undefined {
  if (isSkip(error)) return undefined;
  throw error;
}

/**
 * An existing value for an identifier the operation needs, with every other identifier the same source
 * gave, and where they came from: a create that answers it or a list that shows it (nearest first, at
 * most `depth` levels up), valid where the operation takes it. Only the nearest create, when the
 * operation continues its path, makes identifiers known to exist ('created'); a destructive operation
 * takes no other.
 */
async function existing(
  p: RuntimePlan,
  op: OperationPlan,
  name: string,
  known: Record<string, unknown>,
  base: GeneratedRequest,
  depth: number,
): Promise<{ values: Record<string, unknown>; origin: Origin } | undefined> {
  const sources = depth > 0 ? sourcesOf(p.raw, p.operations, name, op) : [];
  const nearestCreate = sources.find((s) => s.kind === 'create');
  for (const source of sources) {
    const strong = source === nearestCreate && continues(source.op, op);
    // Barren at this depth: a search cut short by the depth says nothing about a deeper one.
    const where = `${source.kind} ${source.op.row} ${depth}`;
    if ((op.catalog.sideEffect === 'destructive' && !strong) || barren.has(where)) continue;
    let values: Record<string, unknown> | undefined;
    if (source.kind === 'create') {
      const made = changes(op)
        ? await create(p, source.op, known, depth - 1).catch(absentOnPrecondition)
        : await sharedCreate(p, source.op, known, depth - 1);
      values = made?.values;
    } else {
      const value = await listed(p, source.op, name, known, depth - 1);
      values = value === undefined ? undefined : { [name]: value };
    }
    if (values === undefined) barren.add(where);
    if (values?.[name] !== undefined && p.requests.validOnWire(op.model, withIdentifiers(base, { ...known, [name]: values[name] }, op)))
      return { values, origin: strong ? 'created' : 'found' };
  }
  return undefined;
}

const lists = perScope(() => new PromiseMemo<string, unknown>('keep'));

/** The first value of `name` a list shows (only its required query parameters sent: a filter could hide what it holds). */
function listed(p: RuntimePlan, op: OperationPlan, name: string, known: Record<string, unknown>, depth: number): Promise<unknown> {
  const key = `${op.row} ${name} ${JSON.stringify(known)} ${depth}`;
  return lists().get(key, () =>
    (async () => {
      const generated = requestsFor(p, op, 1)[0];
      const required = new Set(op.model.parameters.filter((q) => q.in === 'query' && q.required).map((q) => q.name));
      const bare = { ...generated, query: Object.fromEntries(Object.entries(generated.query).filter(([q]) => required.has(q))) };
      const { request } = await locate(p, op, bare, { known, depth });
      const res = (await sendOperation(p, op, request, 'valid', `a list for ${name}`)).response;
      if (!ok(res) || res.json === undefined) return undefined;
      const has = (item: unknown): item is Record<string, unknown> => isJsonObject(item) && item[name] !== undefined && item[name] !== null;
      if (has(res.json)) return res.json[name];
      const arrays = Array.isArray(res.json) ? [res.json] : Object.values(res.json as Record<string, unknown>).filter(Array.isArray);
      return arrays.flat().find(has)?.[name];
    })().catch(absentOnPrecondition),
  );
}

/**
 * The request with an existing value for every identifier the operation needs and `known` lacks, where
 * one can be had; the rest stay as generated. `known` values count as made in this run.
 */
export async function locate(
  p: RuntimePlan,
  op: OperationPlan,
  request: GeneratedRequest,
  options: { known?: Record<string, unknown>; depth?: number } = {},
): Promise<Located> {
  const values: Record<string, unknown> = { ...(options.known ?? {}) };
  const origins: Record<string, Origin> = Object.fromEntries(Object.keys(values).map((k) => [k, 'created' as Origin]));
  const inBody = bodyIdentifiers(p, op);
  if (inBody.length) bodyNames.set(op, inBody);
  const needed = [...pathParams(op), ...queryIdentifiers(op), ...inBody];
  const fitsAs = (name: string, value: unknown) =>
    value !== undefined && p.requests.validOnWire(op.model, withIdentifiers(request, { ...values, [name]: value }, op));
  const destructive = op.catalog.sideEffect === 'destructive';
  // The target's own data reaches an operation that destroys what it names only as a disposable set, one per request.
  if (destructive && needed.some((name) => values[name] === undefined)) {
    const { set } = await disposableSet(p, op);
    for (const [name, value] of Object.entries(set ?? {}))
      if (needed.includes(name) && values[name] === undefined && fitsAs(name, value)) [values[name], origins[name]] = [value, 'named'];
  }
  for (const name of needed) {
    if (values[name] !== undefined) continue;
    const fits = (value: unknown) => fitsAs(name, value);
    const fromFile = namedValue(p, op, name);
    if (fits(fromFile)) {
      [values[name], origins[name]] = [fromFile, 'named'];
      continue;
    }
    if (name === 'taxRequestId' && op.catalog.area === 'ndfl3') {
      const held = await taxRequest(p, op);
      if (fits(held?.id)) {
        [values[name], origins[name]] = [held!.id, destructive ? 'created' : 'named'];
        const ifMatch = ifMatchOf(op);
        const versioned =
          ifMatch && held!.version !== undefined ? { ...request, header: { ...request.header, [ifMatch]: held!.version } } : request;
        if (versioned !== request && p.requests.validOnWire(op.model, withIdentifiers(versioned, values, op))) request = versioned;
        continue;
      }
    }
    const found = await existing(p, op, name, values, request, options.depth ?? 3);
    if (!found) {
      origins[name] = 'generated';
      continue;
    }
    // Identifiers of one thing come from one source: an order's shop and its id from the same create.
    for (const [other, value] of Object.entries(found.values)) {
      if (values[other] === undefined && needed.includes(other) && (other === name || fitsAs(other, value)))
        [values[other], origins[other]] = [value, found.origin];
    }
  }
  return { request: withIdentifiers(withoutForeignAttachments(p, op, request), values, op), origins };
}

/**
 * Whether the request names identifiers and every one is known to exist (named by the target file, or
 * made in this run for this operation). A request without any cannot tell a missing route from a
 * missing thing its body refers to.
 */
export function identifiersExist(origins: Record<string, Origin>): boolean {
  const all = Object.values(origins);
  return all.length > 0 && all.every((o) => o === 'named' || o === 'created');
}

/**
 * A create answered with its documented success (a JSON object), or a PRECONDITION_MISSING skip naming
 * what came back. JsonPath
 * identifiers are generated first; only when the create answers 404 (a parent that does not exist)
 * are they looked up among existing resources.
 */
export async function create(p: RuntimePlan, op: OperationPlan, known: Record<string, unknown>, depth = 3): Promise<Created> {
  const values = { ...known };
  let last: CapturedResponse | undefined;
  const requests = requestsFor(p, op);
  for (const request of requests) {
    last = (await sendOperation(p, op, withIdentifiers(request, values, op), 'valid', 'a create')).response;
    if (last?.status === 404) {
      const located = await locate(p, op, request, { known: values, depth });
      Object.assign(values, Object.fromEntries(pathParams(op).map((n) => [n, located.request.path[n]])));
      if (pathParams(op).some((n) => located.origins[n] === 'generated')) {
        throw new ToolError(
          'PRECONDITION_MISSING',
          `${op.row} answered 404, and no create or list of the document gave an existing ${pathParams(op)
            .filter((n) => located.origins[n] === 'generated')
            .join(', ')}`,
        );
      }
      last = (await sendOperation(p, op, located.request, 'valid', 'a create')).response;
    }
    if (served(p, op, last) && isJsonObject(last!.json)) {
      const path = Object.fromEntries(pathParams(op).map((n) => [n, withIdentifiers(request, values, op).path[n]]));
      return { response: last!, values: { ...path, ...(last!.json as Record<string, unknown>) } };
    }
    // Only a business refusal (400, 409, 422) may go away with another body.
    if (!last || ![400, 409, 422].includes(last.status)) break;
  }
  throw new ToolError(
    'PRECONDITION_MISSING',
    `only after a create answered as documented: ${op.row} answered ${last?.status} to a valid request`,
  );
}
