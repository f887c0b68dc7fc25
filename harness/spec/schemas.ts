/**
 * The schema registry: every JSON Schema under specs/schemas is added to one Ajv 2020-12 instance
 * (strict, allErrors, ajv-formats) and compiled once, on first use, by `$id`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type AnySchema, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { isIsoDate, isIsoDateTime } from '../text/iso8601.ts';

export const SCHEMA_BASE = 'https://partner-conformance.example/schemas';
export const SCHEMA_DIR = fileURLToPath(new URL('../../specs/schemas/', import.meta.url));

// Annotation keywords that drive the generators only; they never change validation.
const ANNOTATIONS = ['x-generate'];

type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

export class SchemaRegistry {
  readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();
  readonly schemas = new Map<string, Record<string, unknown>>();
  /** Schemas that did not come from specs/ (converted from a fetched document), compiled without strict mode. */
  private lenient?: Ajv2020;
  private readonly lenientIds = new Set<string>();

  /**
   * `validateSchemas` checks each schema against the JSON Schema meta-schema as it is added: about half a
   * second of compiling the meta-schema, paid by the selftest that checks specs/schemas
   * (selftest/harness/schemas-meta.test.ts) rather than by every worker of every run.
   */
  constructor(dir: string = SCHEMA_DIR, options: { validateSchemas?: boolean } = {}) {
    this.ajv = new Ajv2020({ strict: true, allErrors: true, validateSchema: options.validateSchemas ?? false });
    addFormats(this.ajv);
    // The spec's "date" and "date-time" are ISO 8601 (RFC 3339, ajv's date and date-time, is one profile of it).
    this.ajv.addFormat('iso8601-date', isIsoDate);
    this.ajv.addFormat('iso8601-date-time', isIsoDateTime);
    this.ajv.addVocabulary(ANNOTATIONS);
    for (const file of walk(dir)) {
      const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      if (typeof schema.$id !== 'string') throw new Error(`schema ${file} has no $id`);
      this.schemas.set(schema.$id, schema);
      this.ajv.addSchema(schema as AnySchema);
    }
  }

  /**
   * Adds a schema from outside specs/ (an OpenAPI schema converted to JSON Schema): compiled by a second,
   * non-strict ajv, since a real document is rarely clean. The generators reach it by its `$id` like any
   * other. Adding an `$id` again is a no-op, so callers should make ids from the content (a digest).
   */
  addLenient(schema: Record<string, unknown>): void {
    const id = schema.$id;
    if (typeof id !== 'string') throw new Error('a schema added to the registry needs an $id');
    if (this.schemas.has(id)) return;
    if (!this.lenient) {
      this.lenient = new Ajv2020({ strict: false, allErrors: true, unicodeRegExp: false, logger: false });
      addFormats(this.lenient);
    }
    this.lenient.addSchema(schema as AnySchema);
    this.schemas.set(id, schema);
    this.lenientIds.add(id);
  }

  validator(id: string): ValidateFunction {
    let fn = this.cache.get(id);
    if (!fn) {
      fn = (this.lenientIds.has(id.split('#')[0]) ? this.lenient! : this.ajv).getSchema(id);
      if (!fn) throw new Error(`no schema with $id ${id} in the registry`);
      this.cache.set(id, fn);
    }
    return fn;
  }

  schema(id: string): Record<string, unknown> {
    const schema = this.schemas.get(id);
    if (!schema) throw new Error(`no schema with $id ${id} in the registry`);
    return schema;
  }
}

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (name.endsWith('.json')) yield path;
  }
}

let shared: SchemaRegistry | undefined;
export function schemaRegistry(): SchemaRegistry {
  shared ??= new SchemaRegistry();
  return shared;
}

/** `$id` of a schema file under specs/schemas, e.g. schemaId('insurance/contract-record'). */
export function schemaId(relative: string): string {
  return `${SCHEMA_BASE}/${relative}.json`;
}
