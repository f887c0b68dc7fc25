/**
 * The target-file schema (specs/schemas/common/target-file.json) as a tree the harness can walk: which
 * keys an object at a path allows (for "did you mean"), which values are credentials or URLs, every
 * key path with its description and default (for the example file and the selftests).
 * The schema is the one description of the file; nothing here restates a key.
 */
import { isJsonObject } from '../text/json.ts';
import { schemaId, schemaRegistry } from '../spec/schemas.ts';

export const TARGET_FILE_SCHEMA_ID = schemaId('common/target-file');

export type SchemaNode = Record<string, unknown>;

const isNode = (v: unknown): v is SchemaNode => isJsonObject<SchemaNode>(v);

export function targetFileSchema(): SchemaNode {
  return schemaRegistry().schema(TARGET_FILE_SCHEMA_ID);
}

/** The `$defs` name a node refers to (`#/$defs/<name>`), if any. */
export function refName(node: SchemaNode): string | undefined {
  const ref = node.$ref;
  return typeof ref === 'string' && ref.startsWith('#/$defs/') ? ref.slice('#/$defs/'.length) : undefined;
}

/** The node with its local `$ref` followed (the referring node's own keywords win, as its description). */
export function resolved(node: SchemaNode): SchemaNode {
  let current = node;
  for (let hops = 0; hops < 10; hops++) {
    const name = refName(current);
    if (!name) return current;
    const target = (targetFileSchema().$defs as Record<string, SchemaNode>)[name];
    if (!target) throw new Error(`target-file schema: no $defs/${name}`);
    const { $ref: _ref, ...own } = current;
    current = { ...target, ...own };
  }
  throw new Error('target-file schema: $ref loop');
}

/** The object schemas a node can be (through oneOf/anyOf), each resolved. */
function objectVariants(node: SchemaNode): SchemaNode[] {
  const n = resolved(node);
  const out: SchemaNode[] = isNode(n.properties) ? [n] : [];
  for (const key of ['oneOf', 'anyOf'])
    if (Array.isArray(n[key])) for (const part of n[key] as SchemaNode[]) out.push(...objectVariants(part));
  return out;
}

/** The item schema of an array node (through oneOf/anyOf), unresolved. */
function itemsOf(node: SchemaNode): SchemaNode | undefined {
  const n = resolved(node);
  if (isNode(n.items)) return n.items;
  for (const key of ['oneOf', 'anyOf']) {
    if (!Array.isArray(n[key])) continue;
    for (const part of n[key] as SchemaNode[]) {
      const items = itemsOf(part);
      if (items) return items;
    }
  }
  return undefined;
}

/** The schema node for a value at a data path (object keys and array indexes), or undefined. */
export function nodeAt(path: ReadonlyArray<string | number>): SchemaNode | undefined {
  let node: SchemaNode | undefined = targetFileSchema();
  for (const step of path) {
    if (!node) return undefined;
    const n = resolved(node);
    if (typeof step === 'number') {
      node = itemsOf(n);
      continue;
    }
    node = objectVariants(n)
      .map((v) => (v.properties as Record<string, SchemaNode>)[step])
      .find(isNode);
  }
  return node && resolved(node);
}

/** The keys an object at a data path allows, or undefined when the path names no object. */
export function keysAt(path: ReadonlyArray<string | number>): string[] | undefined {
  const node = nodeAt(path);
  if (!node) return undefined;
  const variants = objectVariants(node);
  return variants.length ? [...new Set(variants.flatMap((v) => Object.keys(v.properties as object)))] : undefined;
}

export interface KeyInfo {
  /** Dotted key path, such as services.business.rules.sbp.freeLimit. */
  path: string;
  description?: string;
  default?: unknown;
  /** The `$defs` name the key refers to (secret, url, httpsUrl, ...), if any. */
  kind?: string;
  /** Whether the key holds an object with keys of its own. */
  object: boolean;
  required: boolean;
}

/** Every key path of the schema, depth first, in the schema's order. */
export function keyPaths(): KeyInfo[] {
  const out: KeyInfo[] = [];
  const walk = (node: SchemaNode, prefix: string) => {
    for (const variant of objectVariants(node)) {
      const required = new Set((variant.required as string[] | undefined) ?? []);
      for (const [key, child] of Object.entries(variant.properties as Record<string, SchemaNode>)) {
        const path = prefix ? `${prefix}.${key}` : key;
        const r = resolved(child);
        const object = objectVariants(child).length > 0;
        const items = itemsOf(child);
        out.push({
          path,
          description: r.description as string | undefined,
          default: r.default,
          kind: refName(child) ?? (items && refName(items)),
          object,
          required: required.has(key),
        });
        if (object) walk(child, path);
      }
    }
  };
  walk(targetFileSchema(), '');
  return out;
}

const kinds = new Map<string, string | undefined>();

/** The `$defs` name of the value at a data path (for arrays: of their items), e.g. secret or url. */
export function kindAt(path: ReadonlyArray<string | number>): string | undefined {
  // Remembered by the path with its indexes left out (every item of an array has the same schema): a
  // target file with large pools asks for the same few paths thousands of times.
  const key = path.map((step) => (typeof step === 'number' ? '\u0000' : step)).join('\u0001');
  if (!kinds.has(key)) kinds.set(key, kindOf(path));
  return kinds.get(key);
}

function kindOf(path: ReadonlyArray<string | number>): string | undefined {
  const parent = path.length ? path.slice(0, -1) : [];
  const last = path.at(-1);
  if (last === undefined) return undefined;
  const parentNode = nodeAt(parent);
  if (!parentNode) return undefined;
  if (typeof last === 'number') {
    const items = itemsOf(parentNode);
    return items ? refName(items) : undefined;
  }
  const raw = objectVariants(parentNode)
    .map((v) => (v.properties as Record<string, SchemaNode>)[last])
    .find(isNode);
  return raw ? refName(raw) : undefined;
}

/** Every string value of the data with its path and the `$defs` kind the schema gives it. */
export function* stringsWithKind(
  data: unknown,
  path: Array<string | number> = [],
): Generator<{ path: Array<string | number>; value: string; kind?: string }> {
  if (typeof data === 'string') {
    yield { path, value: data, kind: kindAt(path) };
    return;
  }
  if (Array.isArray(data)) {
    // Every item has the same schema: a pool of thousands of tokens asks for its kind once.
    const itemKind = data.length ? kindAt([...path, 0]) : undefined;
    for (const [i, item] of data.entries())
      if (typeof item === 'string') yield { path: [...path, i], value: item, kind: itemKind };
      else yield* stringsWithKind(item, [...path, i]);
    return;
  }
  if (isNode(data)) for (const [key, value] of Object.entries(data)) yield* stringsWithKind(value, [...path, key]);
}

/** A data path as written in messages: services.identity.tokens.people[2]. */
export function formatPath(path: ReadonlyArray<string | number>): string {
  let out = '';
  for (const step of path) out += typeof step === 'number' ? `[${step}]` : out ? `.${step}` : step;
  return out || '(top level)';
}
