/**
 * The sandbox's memory of business data, and how a stored record becomes an answer: a record is a
 * superset of what any answer about it shows; `project` shapes it to one response schema (synthesized
 * fields fill what the record lacks; a stored field is shown only where it is valid for that schema,
 * so a v1 answer never carries a v2 shape). Lists are pages of projected records.
 */
import { at, escapeToken, follow, isNode, type Node, type Operation } from './operations.ts';
import { Synthesizer } from './synthesize.ts';
import { validAt } from './validate.ts';

export type Record_ = Node;

export interface Input {
  op: Operation;
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  header: Record<string, unknown>;
  body: unknown;
}

export interface WorldAnswer {
  status: number;
  body?: unknown;
  error?: { code: string; message: string; details?: Record<string, string> };
}

export const notFound = (what: string): WorldAnswer => ({ status: 404, error: { code: 'NOT_FOUND', message: `${what} not found` } });
export const unprocessable = (code: string, message: string): WorldAnswer => ({ status: 422, error: { code, message } });

/** Property name -> schema pointer of an object schema, through `$ref` and `allOf`. */
export function propertyPointers(pointer: string): Map<string, string> {
  const out = new Map<string, string>();
  const where = follow(pointer);
  const node = at(where);
  if (!isNode(node)) return out;
  if (Array.isArray(node.allOf)) node.allOf.forEach((_p, i) => propertyPointers(`${where}/allOf/${i}`).forEach((v, k) => out.set(k, v)));
  if (isNode(node.properties)) for (const name of Object.keys(node.properties)) out.set(name, `${where}/properties/${escapeToken(name)}`);
  return out;
}

/** The pointer of the item schema when the schema at `pointer` is an array. */
export function itemsPointer(pointer: string): string | undefined {
  const where = follow(pointer);
  const node = at(where);
  return isNode(node) && (node.type === 'array' || node.items) ? `${where}/items` : undefined;
}

/** A value valid for the schema at `pointer`, taking from `record` every field valid there. */
export function project(record: Record_, pointer: string, seed: string): unknown {
  const base = new Synthesizer(seed).value(pointer);
  if (!isNode(base)) return base;
  for (const [name, propPointer] of propertyPointers(pointer)) {
    if (name in record && record[name] !== undefined && validAt(propPointer, record[name])) base[name] = structuredClone(record[name]);
  }
  return base;
}

/** Copies the fields of `source` that are valid for the response schema into `target`. */
export function overlay(target: Record_, source: unknown, pointer: string): Record_ {
  if (!isNode(source)) return target;
  for (const [name, propPointer] of propertyPointers(pointer)) {
    if (name in source && source[name] !== undefined && validAt(propPointer, source[name])) target[name] = structuredClone(source[name]);
  }
  return target;
}

const PAGE_META = ['offset', 'limit', 'size', 'total', 'totalNumber', 'count'];

/** A page of records as the list operation's success body (root array, or its first array property). */
export function listAnswer(op: Operation, records: Record_[], input: Input, defaultLimit = 100): WorldAnswer {
  const pointer = op.success.schema;
  if (!pointer) return { status: op.success.status };
  const offset = typeof input.query.offset === 'number' ? input.query.offset : 0;
  const limit = typeof input.query.limit === 'number' ? input.query.limit : defaultLimit;
  const page = records.slice(offset, offset + limit);
  const rootItems = itemsPointer(pointer);
  if (rootItems) return { status: op.success.status, body: page.map((r, i) => project(r, rootItems, `${op.key}#${i}:${keyOfRecord(r)}`)) };
  const body = new Synthesizer(op.key).value(pointer) as Node;
  for (const [name, propPointer] of propertyPointers(pointer)) {
    const items = itemsPointer(propPointer);
    if (items && isNode(at(follow(items)))) {
      body[name] = page.map((r, i) => project(r, items, `${op.key}#${i}:${keyOfRecord(r)}`));
      break;
    }
  }
  const meta: Record<string, number> = {
    offset,
    limit,
    size: page.length,
    total: records.length,
    totalNumber: records.length,
    count: page.length,
  };
  for (const name of PAGE_META) if (name in body && typeof body[name] === 'number') body[name] = meta[name];
  return { status: op.success.status, body };
}

function keyOfRecord(record: Record_): string {
  return String(record.__key ?? '');
}

/** Records by kind, each under its key (the values of the kind's key properties, joined by '/'). */
export class World {
  private readonly kinds = new Map<string, Map<string, Record_>>();
  private counter = 1000;

  table(kind: string): Map<string, Record_> {
    let table = this.kinds.get(kind);
    if (!table) this.kinds.set(kind, (table = new Map()));
    return table;
  }

  nextInt(): number {
    return ++this.counter;
  }

  get(kind: string, key: string): Record_ | undefined {
    return this.table(kind).get(key);
  }

  put(kind: string, key: string, record: Record_): Record_ {
    record.__key = key;
    this.table(kind).set(key, record);
    return record;
  }

  remove(kind: string, key: string): boolean {
    return this.table(kind).delete(key);
  }

  all(kind: string): Record_[] {
    return [...this.table(kind).values()];
  }
}

/** A record without the sandbox's own bookkeeping fields. */
export function visible(record: Record_): Record_ {
  const { __key: _key, ...rest } = record;
  return rest;
}
