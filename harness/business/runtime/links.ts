/**
 * Which operation reads what another creates, read from the served document alone (it declares no
 * OpenAPI `links`), by a conservative rule:
 *   a POST C with a 2xx JSON answer is linked to the GET R whose path continues C's (or C's parent's,
 *   for an action path such as .../create), that has a path identifier C does not already take, and
 *   whose every path identifier C's own path or C's answer (a top-level property of that name) gives.
 *   Of several, the nearest (fewest literal segments after the shared prefix) wins.
 * An identifier a money-moving or destructive POST must name in its body is taken as existing, not
 * created (pay a registry). A DELETE D is paired with the GET on the same template. Identifiers C needs for itself (the
 * beneficiary of a bank-details create) come from another create, or else from a list that shows them.
 */
import { resolvePointer } from '../openapi/refs.ts';
import { templateKey } from '../openapi/paths.ts';
import { jsonBodyOf, jsonMediaOf } from '../openapi/operation-model.ts';
import { isJsonObject, type JsonObject } from '../../text/json.ts';
import type { OperationPlan } from './plan.ts';

export interface ReadLink {
  create: OperationPlan;
  read: OperationPlan;
}

export interface DeletePair {
  remove: OperationPlan;
  read: OperationPlan;
  link?: ReadLink;
}

function follow(raw: JsonObject, node: unknown, depth = 0): JsonObject | undefined {
  if (!isJsonObject(node) || depth > 20) return undefined;
  if (typeof node.$ref === 'string') return follow(raw, resolvePointer(raw, node.$ref), depth + 1);
  return node;
}

/** Property name -> schema of an object schema, through `$ref` and `allOf`. */
export function propertiesOf(raw: JsonObject, schema: unknown, depth = 0): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const node = follow(raw, schema);
  if (!node || depth > 10) return out;
  if (Array.isArray(node.allOf)) for (const part of node.allOf) propertiesOf(raw, part, depth + 1).forEach((v, k) => out.set(k, v));
  if (isJsonObject(node.properties)) for (const [k, v] of Object.entries(node.properties)) out.set(k, v);
  return out;
}

/** The schema of the lowest 2xx JSON answer. */
export function successSchema(op: OperationPlan): unknown {
  const ok = op.model.responses.filter((r) => /^2\d\d$/.test(r.key)).sort((a, b) => a.key.localeCompare(b.key))[0];
  return jsonMediaOf(ok?.content)?.schema;
}

/** Item property names of the arrays an answer carries (a root array, or arrays among its top-level properties). */
export function listedProperties(raw: JsonObject, op: OperationPlan): Set<string> {
  const out = new Set<string>();
  const schema = follow(raw, successSchema(op));
  const arrays =
    schema?.type === 'array'
      ? [schema]
      : [...propertiesOf(raw, schema).values()].map((s) => follow(raw, s)).filter((s) => s?.type === 'array');
  for (const array of arrays) propertiesOf(raw, array?.items).forEach((_v, k) => out.add(k));
  return out;
}

/** The operation's path parameter names, in path order. */
export const pathParams = (op: OperationPlan) => op.model.parameters.filter((p) => p.in === 'path').map((p) => p.name);
const literalsAfter = (path: string, prefix: string) =>
  path
    .slice(prefix.length)
    .split('/')
    .filter((s) => s && !s.startsWith('{')).length;

export function commonPrefix(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

/** Required top-level properties of the operation's JSON request body. */
export function requiredInBody(raw: JsonObject, op: OperationPlan): Set<string> {
  const out = new Set<string>();
  const visit = (schema: unknown, depth: number) => {
    const node = follow(raw, schema);
    if (!node || depth > 10) return;
    if (Array.isArray(node.required)) for (const name of node.required) out.add(String(name));
    if (Array.isArray(node.allOf)) for (const part of node.allOf) visit(part, depth + 1);
  };
  visit(jsonBodyOf(op.model)?.schema, 0);
  return out;
}

/** A POST that moves money or destroys something: an identifier it must name in its body is an existing thing. */
const acts = (op: OperationPlan) => op.catalog.sideEffect === 'money' || op.catalog.sideEffect === 'destructive';

export function readLinks(raw: JsonObject, operations: OperationPlan[]): ReadLink[] {
  const reads = operations.filter((op) => op.model.method === 'GET' && pathParams(op).length > 0);
  const links: ReadLink[] = [];
  for (const create of operations.filter((op) => op.model.method === 'POST' && successSchema(op))) {
    const answer = propertiesOf(raw, successSchema(create));
    // A shop may name the order it creates, but a request that moves money or destroys something and
    // must name an identifier acts on an existing thing (pay a registry): that identifier is not new.
    const own = new Set([...pathParams(create), ...(acts(create) ? requiredInBody(raw, create) : [])]);
    const parent = create.model.path.replace(/\/[^/{}]+$/, '');
    for (const base of [`${create.model.path}/`, `${parent}/`]) {
      const candidates = reads.filter((read) => {
        const params = pathParams(read);
        return read.model.path.startsWith(base) && params.some((p) => !own.has(p)) && params.every((p) => own.has(p) || answer.has(p));
      });
      if (!candidates.length) continue;
      candidates.sort((a, b) => literalsAfter(a.model.path, base) - literalsAfter(b.model.path, base));
      links.push({ create, read: candidates[0] });
      break;
    }
  }
  return links;
}

export function deletePairs(operations: OperationPlan[], links: ReadLink[]): DeletePair[] {
  const pairs: DeletePair[] = [];
  for (const remove of operations.filter((op) => op.model.method === 'DELETE')) {
    const read = operations.find((op) => op.model.method === 'GET' && templateKey(op.model.path) === templateKey(remove.model.path));
    if (read) pairs.push({ remove, read, link: links.find((l) => l.read === read) });
  }
  return pairs;
}

export interface Source {
  /** A create that answers it, a list that shows it, or a read that answers it at its top level (an asynchronous result). */
  kind: 'create' | 'list' | 'read';
  op: OperationPlan;
}

const sourcesMemo = new WeakMap<OperationPlan[], WeakMap<OperationPlan, Map<string, readonly Source[]>>>();

function findSources(raw: JsonObject, operations: OperationPlan[], name: string, forOp: OperationPlan): Source[] {
  // An identifier the document reads by path names a thing; one that no path takes (a correlationId) may be the caller's own.
  const names = operations.some((op) => pathParams(op).includes(name));
  const creates = operations
    .filter(
      (op) =>
        op.model.method === 'POST' &&
        op !== forOp &&
        !pathParams(op).includes(name) &&
        !(names && acts(op) && requiredInBody(raw, op).has(name)) &&
        propertiesOf(raw, successSchema(op)).has(name),
    )
    .map((op) => ({ kind: 'create' as const, op }));
  const lists = operations
    .filter((op) => op.model.method === 'GET' && !pathParams(op).includes(name) && listedProperties(raw, op).has(name))
    .map((op) => ({ kind: 'list' as const, op }));
  const distance = (s: Source) => -commonPrefix(s.op.model.path, forOp.model.path) * 2 + (s.kind === 'create' ? 0 : 1);
  // Last of all, reads that answer it at their top level: the result of an asynchronous create.
  const reads = operations
    .filter(
      (op) =>
        op.model.method === 'GET' &&
        op !== forOp &&
        !lists.some((l) => l.op === op) &&
        !pathParams(op).includes(name) &&
        propertiesOf(raw, successSchema(op)).has(name),
    )
    .map((op) => ({ kind: 'read' as const, op }))
    .sort((a, b) => distance(a) - distance(b));
  const ordered = [...[...creates, ...lists].sort((a, b) => distance(a) - distance(b)), ...reads];
  const own = (s: Source) => s.op.catalog.area === forOp.catalog.area;
  return [...ordered.filter(own), ...ordered.filter((s) => !own(s))];
}

/**
 * Where an identifier the operation's path needs can come from: a create that answers it (unless it
 * acts on one its body must name, of a kind the document reads by path: paying a registry makes no
 * registry), or a list
 * that shows it; the nearest first (longest shared path), a create before a list at equal distance;
 * then reads that answer it at their top level (an asynchronous create's result, read by its correlationId).
 * All of those of the operation's own catalog area come first: a name means one thing within an area of
 * 4.5, not always across areas (the paymentRegistryId of a salary registry is no self-employed one's, the
 * accountNumber of a beneficiary's bank details no account of the company's).
 */
export function sourcesOf(raw: JsonObject, operations: OperationPlan[], name: string, forOp: OperationPlan): readonly Source[] {
  // Asked again for every request that needs the identifier: found once per plan (its operations), operation and name.
  let byOp = sourcesMemo.get(operations);
  if (!byOp) sourcesMemo.set(operations, (byOp = new WeakMap()));
  let byName = byOp.get(forOp);
  if (!byName) byOp.set(forOp, (byName = new Map()));
  let found = byName.get(name);
  if (!found) byName.set(name, (found = Object.freeze(findSources(raw, operations, name, forOp))));
  return found;
}
