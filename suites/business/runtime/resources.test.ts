/**
 * Spec 4.5, stateful: what a 2xx create answers can be read, and what a 2xx DELETE removed is gone.
 * Create and read operations are paired from the served document (_links.ts); identifiers a create
 * needs for itself come from another create or from a list. Every resource is fresh for this run.
 */
import { describe } from 'vitest';
import { failure } from '../../../harness/checks/failure.ts';
import { ToolError } from '../../../harness/errors.ts';
import type { CapturedResponse } from '../../../harness/http.ts';
import { requirementTest } from '../../../harness/suite.ts';
import type { GeneratedRequest } from '../../../generators/openapi.ts';
import { meetingRules } from '../rules/_fit.ts';
import { send } from './_exchanges.ts';
import { deletePairs, readLinks, sourcesOf, type ReadLink } from './_links.ts';
import { runtimePlan, skippedRow, unusableRow, type OperationPlan, type RuntimePlan } from './_runtime.ts';

const plan = await runtimePlan();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pathParams = (op: OperationPlan) => op.model.parameters.filter((p) => p.in === 'path').map((p) => p.name);
const ok = (res: CapturedResponse | undefined) => res !== undefined && res.status >= 200 && res.status < 300;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function withPath(request: GeneratedRequest, values: Record<string, unknown>, op: OperationPlan): GeneratedRequest {
  const path = { ...request.path };
  for (const name of pathParams(op)) if (values[name] !== undefined) path[name] = values[name];
  return { ...request, path };
}

/**
 * Fresh valid requests for an operation: a few, so that a business-rule refusal of one does not end the
 * test; for operations with known rules of 2.6, requests that meet them (rules/_fit.ts).
 */
function requestsFor(p: RuntimePlan, op: OperationPlan, count = 3): GeneratedRequest[] {
  const generated = p.requests.valid(op.model, { seed: op.seed + 7, count });
  const fitted = generated.map((request, i) => meetingRules(op, request, i));
  // The generated ones stay as fallbacks, for a target whose document the fitted bodies do not match.
  return [...fitted, ...generated.filter((request, i) => fitted[i] !== request)];
}

interface Created {
  response: CapturedResponse;
  /** Identifiers known after the create: its path values and its answer's top-level properties. */
  values: Record<string, unknown>;
}

/**
 * An existing value for a path identifier the operation needs, from a create that answers it or a list
 * that shows it (nearest first, at most `depth` levels up), valid where the operation takes it.
 */
async function existing(p: RuntimePlan, op: OperationPlan, name: string, known: Record<string, unknown>, base: GeneratedRequest, depth: number): Promise<unknown> {
  for (const source of depth > 0 ? sourcesOf(p.raw, p.operations, name, op) : []) {
    const value = await valueFrom(p, source.kind, source.op, name, known, depth - 1).catch((error) => {
      if (error instanceof ToolError && error.code === 'PRECONDITION_MISSING') return undefined;
      throw error;
    });
    if (value !== undefined && p.requests.validOnWire(op.model, withPath(base, { ...known, [name]: value }, op))) return value;
  }
  return undefined;
}

async function valueFrom(p: RuntimePlan, kind: 'create' | 'list', op: OperationPlan, name: string, known: Record<string, unknown>, depth: number): Promise<unknown> {
  if (kind === 'create') return (await create(p, op, known, depth)).values[name];
  // Only the required query parameters: an optional filter could hide what the list holds.
  const generated = requestsFor(p, op, 1)[0];
  const required = new Set(op.model.parameters.filter((q) => q.in === 'query' && q.required).map((q) => q.name));
  const request = { ...generated, query: Object.fromEntries(Object.entries(generated.query).filter(([q]) => required.has(q))) };
  const res = (await send(p, op, withPath(request, known, op), 'valid', `a list for ${name}`)).response;
  if (!ok(res) || res?.json === undefined) return undefined;
  const has = (item: unknown): item is Record<string, unknown> => isObject(item) && item[name] !== undefined && item[name] !== null;
  const lists = Array.isArray(res.json) ? [res.json] : Object.values(res.json as Record<string, unknown>).filter(Array.isArray);
  return lists.flat().find(has)?.[name];
}

/**
 * A 2xx create with a JSON object answer, or a PRECONDITION_MISSING skip naming what came back. Path
 * identifiers are generated first; only when the create answers 404 (a parent that does not exist)
 * are they looked up among existing resources.
 */
async function create(p: RuntimePlan, op: OperationPlan, known: Record<string, unknown>, depth = 3): Promise<Created> {
  const values = { ...known };
  let last: CapturedResponse | undefined;
  for (const request of requestsFor(p, op)) {
    last = (await send(p, op, withPath(request, values, op), 'valid', 'a create')).response;
    if (last?.status === 404) {
      for (const name of pathParams(op).filter((n) => known[n] === undefined)) values[name] = await existing(p, op, name, values, request, depth);
      if (pathParams(op).some((n) => values[n] === undefined)) throw new ToolError('PRECONDITION_MISSING', `${op.row} answered 404, and no create or list of the document gave an existing ${pathParams(op).filter((n) => values[n] === undefined).join(', ')}`);
      last = (await send(p, op, withPath(request, values, op), 'valid', 'a create')).response;
    }
    if (ok(last) && isObject(last!.json)) {
      const path = Object.fromEntries(pathParams(op).map((n) => [n, withPath(request, values, op).path[n]]));
      return { response: last!, values: { ...path, ...(last!.json as Record<string, unknown>) } };
    }
  }
  throw new ToolError('PRECONDITION_MISSING', `only after a 2xx create: ${op.row} answered ${last?.status} to ${requestsFor(p, op).length} valid requests`);
}

async function read(p: RuntimePlan, op: OperationPlan, values: Record<string, unknown>, note: string): Promise<CapturedResponse> {
  return (await send(p, op, withPath(requestsFor(p, op, 1)[0], values, op), 'valid', note)).response!;
}

function createThenRead(link: ReadLink): void {
  requirementTest('BUS-STA-001', { row: `${link.create.row} then ${link.read.row}`, timeoutMs: 120_000 }, async (t) => {
    const created = await create(plan, link.create, {});
    let res = await read(plan, link.read, created.values, 'the read after the create');
    // Eventual consistency: a store may need a moment before a new resource is visible.
    for (let retry = 0; retry < 2 && (res.status === 404 || res.status === 410); retry++) {
      await sleep(300);
      res = await read(plan, link.read, created.values, 'the read after the create');
    }
    const failures = res.status === 404 || res.status === 410 ? [failure(t.id, `${link.read.row} finds what ${link.create.row} created (not 404 or 410)`, `status ${res.status}`)] : [];
    t.expectNone(failures, res, `created with ${created.response.status}: ${created.response.rawBody.slice(0, 200)}`);
  });
}

describe.concurrent('business runtime: resources (4.5)', () => {
  if (plan.notApplicable || plan.unusable) {
    for (const id of ['BUS-STA-001', 'BUS-STA-002']) {
      if (plan.unusable) unusableRow(id, plan.unusable);
      else skippedRow(id, 'created and deleted resources', plan.notApplicable!);
    }
    return;
  }
  const links = readLinks(plan.raw, plan.operations);
  for (const link of links) createThenRead(link);

  for (const pair of deletePairs(plan.operations, links)) {
    const row = `${pair.remove.row}, then ${pair.read.row}`;
    if (!pair.link) {
      skippedRow('BUS-STA-002', row, `no operation of the served document creates what ${pair.read.row} reads, and deleting existing data is not this test's business`);
      continue;
    }
    const { link } = pair;
    requirementTest('BUS-STA-002', { row, timeoutMs: 120_000 }, async (t) => {
      const created = await create(plan, link.create, {});
      const before = await read(plan, pair.read, created.values, 'the read before the DELETE');
      if (!ok(before)) throw new ToolError('PRECONDITION_MISSING', `the new resource was not readable before the DELETE (status ${before.status})`);
      const removed = (await send(plan, pair.remove, withPath(requestsFor(plan, pair.remove, 1)[0], created.values, pair.remove), 'valid', 'the DELETE')).response!;
      if (!ok(removed)) throw new ToolError('PRECONDITION_MISSING', `only after a 2xx DELETE: it answered ${removed.status}`);
      const after = await read(plan, pair.read, created.values, 'the read after the DELETE');
      const failures = after.status === 404 || after.status === 410 ? [] : [failure(t.id, `${pair.read.row} after a ${removed.status} DELETE: 404 or 410`, `status ${after.status}`)];
      t.expectNone(failures, after, 'the resource was created, read (2xx), deleted (2xx), then read again');
    });
  }
});
