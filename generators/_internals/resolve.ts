/** $ref resolution against the schema registry (absolute `$id`s, relative refs, local JSON pointers). */
import { pointerSteps } from '../../harness/text/json.ts';
import type { SchemaRegistry } from '../../harness/spec/schemas.ts';

export type Schema = Record<string, unknown>;

export interface Located {
  schema: Schema;
  /** The `$id` of the document it lives in: the base for the refs inside it. */
  base: string;
}

export function resolveRef(registry: SchemaRegistry, ref: string, base: string): Located {
  const absolute = new URL(ref, base).href;
  const [docId, pointer = ''] = absolute.split('#');
  let node: unknown = registry.schema(docId);
  // A fragment is percent-decoded before it is read as a JSON Pointer (RFC 6901, section 6).
  for (const part of pointerSteps(decodeURIComponent(pointer))) node = (node as Schema)?.[part];
  if (!node || typeof node !== 'object') throw new Error(`cannot resolve $ref ${ref} from ${base}`);
  return { schema: node as Schema, base: docId };
}

/** Follows `$ref` (keeping sibling keywords, which win) and merges `allOf` into one schema. */
export function flatten(registry: SchemaRegistry, located: Located): Located {
  let { schema, base } = located;
  while (typeof schema.$ref === 'string') {
    const { $ref, ...siblings } = schema;
    const target = resolveRef(registry, $ref as string, base);
    schema = { ...target.schema, ...siblings };
    base = target.base;
  }
  if (Array.isArray(schema.allOf)) {
    const { allOf, ...rest } = schema;
    let merged: Schema = { ...rest };
    for (const part of allOf as Schema[]) merged = mergeSchemas(flatten(registry, { schema: part, base }).schema, merged);
    schema = merged;
  }
  return { schema, base };
}

/** Both schemas at once (a shallow merge; `b` wins, properties merged, required united). */
export function mergeSchemas(a: Schema, b: Schema): Schema {
  return {
    ...a,
    ...b,
    properties: { ...((a.properties as Schema) ?? {}), ...((b.properties as Schema) ?? {}) },
    required: [...new Set([...((a.required as string[]) ?? []), ...((b.required as string[]) ?? [])])],
  };
}

export function typeOf(schema: Schema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null') as string | undefined;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

/** Generator hints kept out of validation: { minimum, maximum, decimals, maxItems, maxLength, faker }. */
export interface GenerateHints {
  minimum?: number;
  maximum?: number;
  decimals?: number;
  maxItems?: number;
  maxLength?: number;
  faker?: string;
}

export function hintsOf(schema: Schema): GenerateHints {
  return (schema['x-generate'] as GenerateHints | undefined) ?? {};
}
