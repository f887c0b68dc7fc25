/**
 * Spec part 9: "several versions of one operation coexist" and "field additions are optional fields".
 * Versions of one operation are the document's operations with the same method and the same path
 * once the version segment (/v1/, /v2/, ...) is set aside; consecutive versions are compared, older
 * against newer. A field addition is a request-body property (at any depth where both versions
 * describe the parent) or a query or header parameter that the newer version has and the older one
 * does not; it must not be required. Response fields are not judged: a field the server always sends
 * breaks no caller, and 2.6 itself requires `itemsAmount` in the newer checkout response. This is a
 * policy reading (BUS-DOC-006): part 9's "field additions are optional fields" speaks of the release
 * notes of one operation, and a new version is where a required field may go, so the fields 2.6 itself
 * makes required or conditionally required in the v2 checkout request are never counted.
 */
import { isJsonObject } from '../../text/json.ts';
import { unfollowedRef } from './dereference.ts';
import { jsonMedia, NotLocated } from './locate.ts';
import type { DocumentOperation, OperationIndex } from './paths.ts';

type Schema = Record<string, unknown>;

export interface Addition {
  /** "POST /api/v2/checkout/order over POST /api/v1/checkout/order" */
  pair: string;
  /** "request body › items[] › weight", "query parameter limit" */
  field: string;
}

const isObject = (v: unknown): v is Schema => isJsonObject<Schema>(v);
const VERSION = /\/v(\d+)(?=\/|$)/;
/** 2.6: itemsAmount (conditionally required), price (required by business rules), weight and declaredValue (required when delivery services are used). */
const REQUIRED_BY_2_6 = new Set(['itemsAmount', 'price', 'weight', 'declaredValue']);
const MAX_DEPTH = 8;

/** Groups of two or more versions of one operation, oldest first. */
export function versionGroups(index: OperationIndex): DocumentOperation[][] {
  const groups = new Map<string, DocumentOperation[]>();
  for (const op of index.all) {
    if (!VERSION.test(op.path)) continue;
    const key = op.key.replace(VERSION, '/v*');
    groups.set(key, [...(groups.get(key) ?? []), op]);
  }
  const version = (op: DocumentOperation) => Number(VERSION.exec(op.path)![1]);
  return [...groups.values()].filter((g) => g.length > 1).map((g) => g.sort((a, b) => version(a) - version(b)));
}

/** Properties and required names of a schema with its allOf/oneOf/anyOf parts (required only from allOf parts). */
function shape(schema: unknown, depth = 0): { properties: Map<string, unknown>; required: Set<string>; items?: unknown } {
  const out = { properties: new Map<string, unknown>(), required: new Set<string>(), items: undefined as unknown };
  if (!isObject(schema) || depth > MAX_DEPTH) return out;
  if (isObject(schema.properties)) for (const [k, v] of Object.entries(schema.properties)) out.properties.set(k, v);
  if (Array.isArray(schema.required)) for (const r of schema.required) out.required.add(String(r));
  if (isObject(schema.items)) out.items = schema.items;
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    for (const part of Array.isArray(schema[key]) ? (schema[key] as unknown[]) : []) {
      const inner = shape(part, depth + 1);
      for (const [k, v] of inner.properties) if (!out.properties.has(k)) out.properties.set(k, v);
      if (key === 'allOf') for (const r of inner.required) out.required.add(r);
      out.items ??= inner.items;
    }
  }
  return out;
}

function bodyAdditions(older: unknown, newer: unknown, at: string, out: string[], seen: Set<unknown>, depth = 0): void {
  if (depth > MAX_DEPTH || seen.has(newer)) return;
  seen.add(newer);
  const before = shape(older);
  const after = shape(newer);
  for (const name of after.properties.keys()) {
    const field = `${at} › ${name}`;
    if (!before.properties.has(name)) {
      if (after.required.has(name) && !REQUIRED_BY_2_6.has(name)) out.push(field);
      continue;
    }
    bodyAdditions(before.properties.get(name), after.properties.get(name), field, out, seen, depth + 1);
  }
  if (after.items && before.items) bodyAdditions(before.items, after.items, `${at}[]`, out, seen, depth + 1);
}

function bodySchema(op: DocumentOperation): unknown {
  const body = op.operation.requestBody;
  if (!isObject(body)) return undefined;
  const media = jsonMedia(body.content);
  const why = unfollowedRef(body) ?? unfollowedRef(media?.[1].schema);
  if (why) throw new NotLocated(`the request body of ${op.method} ${op.path} could not be read: ${why}`);
  return media?.[1].schema;
}

function parameters(op: DocumentOperation): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const list of [op.pathItem.parameters, op.operation.parameters]) {
    for (const p of Array.isArray(list) ? list.filter(isObject) : []) {
      if (p.in !== 'query' && p.in !== 'header') continue;
      out.set(`${p.in} parameter ${p.in === 'header' ? String(p.name).toLowerCase() : String(p.name)}`, p.required === true);
    }
  }
  return out;
}

/**
 * Required additions of every pair of consecutive versions. Throws NotLocated when the document has
 * no operation in two versions, or none of its pairs could be read.
 */
export function requiredAdditions(index: OperationIndex): Addition[] {
  const groups = versionGroups(index);
  if (!groups.length) throw new NotLocated('the document describes no operation in two versions, so no field addition can be seen');
  const out: Addition[] = [];
  const unread: string[] = [];
  let compared = 0;
  for (const group of groups) {
    for (let i = 1; i < group.length; i++) {
      const [older, newer] = [group[i - 1], group[i]];
      const pair = `${newer.method} ${newer.path} over ${older.method} ${older.path}`;
      try {
        const fields: string[] = [];
        const after = bodySchema(newer);
        if (after !== undefined) bodyAdditions(bodySchema(older), after, 'request body', fields, new Set());
        const before = parameters(older);
        for (const [name, required] of parameters(newer)) if (required && !before.has(name)) fields.push(name);
        out.push(...fields.map((field) => ({ pair, field })));
        compared++;
      } catch (error) {
        if (!(error instanceof NotLocated)) throw error;
        unread.push(error.message);
      }
    }
  }
  if (!compared) throw new NotLocated(`no pair of versions could be read: ${unread.join('; ')}`);
  return out;
}
