/**
 * Requests generated from a FETCHED OpenAPI 3.0 document (whatever target it came from). Each
 * operation's request becomes one JSON Schema, { path, query, header, body }, converted from the
 * document (nullable, exclusive bounds, int64) and added to the schema registry without strict mode;
 * the ordinary generators then work on it: schemaArbitrary for valid requests, invalidCases for
 * requests that break exactly one rule.
 *
 * What goes on the wire is not what was generated: path and query values travel as strings, header
 * values are trimmed. So every request is sent through `toWire` and read back as a server would
 * (`serverView`: decoded, coerced to the parameter's type) before it is kept: a "valid" request must
 * still be valid there, an invalid one still invalid (a mutation lost in serialization is dropped).
 */
import { isJsonObject } from '../../harness/text/json.ts';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { convertSchema } from '../../harness/business/openapi/json-schema.ts';
import { jsonBodyOf, type OperationModel, type ParameterLocation } from '../../harness/business/openapi/operation-model.ts';
import { matchPath } from '../../harness/business/openapi/paths.ts';
import { escapePointer } from '../../harness/business/openapi/refs.ts';
import {
  GenerationError,
  toWire,
  type GeneratedRequest,
  type InvalidRequest,
  type RequestGenerator,
  type WireRequest,
} from '../../harness/business/runtime/request.ts';
import { schemaRegistry, type SchemaRegistry } from '../../harness/spec/schemas.ts';
import { flatten, typeOf, type Schema } from '../_internals/resolve.ts';
import { failsOnRule, invalidCases } from '../invalid-cases.ts';
import { schemaArbitrary } from '../schema-arbitrary.ts';

/** String formats the schema generators do not know, and the realistic maker that fits each. */
const FORMAT_MAKERS: Record<string, string> = {
  uri: 'url',
  url: 'url',
  'uri-reference': 'url',
  byte: 'base64',
  hostname: 'hostname',
  ipv4: 'ipv4',
  time: 'isoTime',
};
const NESTED = ['properties', '$defs', 'patternProperties'];
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const LOCATIONS: ParameterLocation[] = ['path', 'query', 'header'];

const isNode = (v: unknown): v is Schema => isJsonObject<Schema>(v);

/** Hints for formats the generators lack; readOnly properties left out of requests. Works on a copy. */
function prepare(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(prepare);
  if (!isNode(node)) return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (NESTED.includes(key) && isNode(value)) {
      const kept = Object.entries(value).filter(([, sub]) => !(key === 'properties' && isNode(sub) && sub.readOnly === true));
      out[key] = Object.fromEntries(kept.map(([k, sub]) => [k, prepare(sub)]));
    } else if (LISTS.includes(key) && Array.isArray(value)) out[key] = value.map(prepare);
    else if (isNode(value) && ['items', 'additionalProperties', 'not'].includes(key)) out[key] = prepare(value);
    else out[key] = value;
  }
  if (Array.isArray(out.required) && isNode(out.properties))
    out.required = (out.required as string[]).filter(
      (r) => r in (out.properties as Schema) || !(isNode(node.properties) && r in node.properties),
    );
  const maker = typeof out.format === 'string' ? FORMAT_MAKERS[out.format] : undefined;
  if (maker && !out['x-generate'] && out.enum === undefined && out.pattern === undefined) out['x-generate'] = { faker: maker };
  return out;
}

const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class OpenApiRequests implements RequestGenerator {
  private readonly bundleId: string;
  private readonly base: string;
  private readonly ids = new Map<string, string>();

  constructor(
    document: Record<string, unknown>,
    private readonly registry: SchemaRegistry = schemaRegistry(),
  ) {
    this.base = `urn:partner-conformance:openapi-requests:${digest(document)}`;
    this.bundleId = `${this.base}:bundle`;
    const components = isNode(document.components) && isNode(document.components.schemas) ? document.components.schemas : {};
    const $defs = Object.fromEntries(
      Object.entries(components).map(([name, s]) => [name, prepare(convertSchema(s, { bundleId: this.bundleId, direction: 'request' }))]),
    );
    registry.addLenient({ $id: this.bundleId, $defs });
  }

  private convert(schema: unknown): Schema {
    return prepare(convertSchema(schema, { bundleId: this.bundleId, direction: 'request' })) as Schema;
  }

  /** `$id` of the operation's request schema (added to the registry on first use). */
  schemaId(op: OperationModel): string {
    let id = this.ids.get(op.name);
    if (id) return id;
    const group = (where: ParameterLocation) => {
      const params = op.parameters.filter((p) => p.in === where);
      const properties = Object.fromEntries(
        params.map((p) => {
          const converted = this.convert(p.schema);
          // A path segment cannot be empty: where the document sets no lower bound, the request has one.
          if (
            where === 'path' &&
            converted.minLength === undefined &&
            converted.enum === undefined &&
            !converted.format &&
            !converted.pattern
          )
            converted.minLength = 1;
          return [p.name, converted];
        }),
      );
      return { type: 'object', properties, required: params.filter((p) => p.required).map((p) => p.name) };
    };
    const body = jsonBodyOf(op);
    const schema = {
      $id: `${this.base}:request:${digest(op.name)}`,
      type: 'object',
      required: ['path', 'query', 'header', ...(body?.required ? ['body'] : [])],
      properties: {
        path: group('path'),
        query: group('query'),
        header: group('header'),
        ...(body ? { body: this.convert(body.schema) } : {}),
      },
    };
    id = schema.$id;
    this.registry.addLenient(schema);
    this.ids.set(op.name, id);
    return id;
  }

  /** What a server reads from the wire form, coerced by the parameters' types: the value to validate. */
  serverView(op: OperationModel, wire: WireRequest): GeneratedRequest | undefined {
    if (!wire.sendable) return undefined;
    const id = this.schemaId(op);
    const path = matchPath(op.path, wire.path);
    if (!path) return undefined;
    const view: GeneratedRequest = { path: {}, query: {}, header: {} };
    const search = new URLSearchParams(wire.search);
    for (const p of op.parameters) {
      const sent = p.in === 'path' ? path[p.name] : p.in === 'query' ? search.getAll(p.name) : wire.headers[p.name];
      if (sent === undefined || (Array.isArray(sent) && sent.length === 0)) continue;
      view[p.in][p.name] = this.coerce(sent, { $ref: `#/properties/${p.in}/properties/${escapePointer(p.name)}` }, id);
    }
    if (wire.body !== undefined) view.body = wire.body;
    return view;
  }

  private coerce(sent: string | string[], schema: Schema, base: string): unknown {
    const { schema: flat, base: at } = flatten(this.registry, { schema, base });
    const type =
      typeOf(flat) ??
      (Array.isArray(flat.anyOf) ? typeOf(flatten(this.registry, { schema: flat.anyOf[0] as Schema, base: at }).schema) : undefined);
    if (type === 'array') {
      const items = Array.isArray(sent) ? sent : sent.split(',');
      return items.map((item) => (isNode(flat.items) ? this.coerce(item, flat.items as Schema, at) : item));
    }
    const text = Array.isArray(sent) ? sent[sent.length - 1] : sent;
    if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return Number(text);
    if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
    if (type === 'null' && text === 'null') return null;
    return text;
  }

  /** Whether the request is valid against the document as the server reads it from the wire. */
  validOnWire(op: OperationModel, request: GeneratedRequest): boolean {
    const view = this.serverView(op, toWire(op, request));
    return view !== undefined && this.registry.validator(this.schemaId(op))(view) === true;
  }

  /** `count` requests valid against the document, also as the server reads them. */
  valid(op: OperationModel, options: { seed: number; count: number }): GeneratedRequest[] {
    const id = this.schemaId(op);
    const out: GeneratedRequest[] = [];
    try {
      const arbitrary = schemaArbitrary<GeneratedRequest>(id, { registry: this.registry, maxItems: 3 });
      for (let attempt = 0; out.length < options.count && attempt < options.count * 40; attempt++) {
        const [candidate] = fc.sample(arbitrary, { seed: (options.seed + attempt) | 0, numRuns: 1 });
        if (this.validOnWire(op, candidate)) out.push(candidate);
      }
    } catch (error) {
      throw new GenerationError(`${op.name}: its request schema cannot be generated from (${(error as Error).message.split('\n')[0]})`);
    }
    if (!out.length)
      throw new GenerationError(`${op.name}: no generated request stayed valid on the wire in ${options.count * 40} attempts`);
    return out;
  }

  /** Up to `count` requests that break exactly one rule, spread over path, query, header and body. */
  invalid(op: OperationModel, valid: GeneratedRequest, options: { seed: number; count: number }): InvalidRequest[] {
    const id = this.schemaId(op);
    const validate = this.registry.validator(id);
    const candidates: InvalidRequest[] = [];
    for (const c of invalidCases<GeneratedRequest>(id, valid, this.registry)) {
      const at = locate(c.rule, c.path, c.description);
      if (!at) continue;
      // Still broken on the wire, and by the rule the case names (an object in a string parameter
      // arrives as JSON text: that mutation is lost in serialization, whatever else the text breaks).
      const view = this.serverView(op, toWire(op, c.value));
      if (view === undefined || validate(view) || !failsOnRule(validate.errors, c)) continue;
      candidates.push({ request: c.value, rule: c.rule, at, description: c.description });
    }
    const random = prng(options.seed);
    const byLocation = new Map<string, InvalidRequest[]>();
    for (const c of candidates) {
      const where = c.at.split(/[.[]/)[0];
      byLocation.set(where, [...(byLocation.get(where) ?? []), c]);
    }
    const pools = [...byLocation.values()].map((list) => [...list].sort(() => random() - 0.5));
    pools.sort(() => random() - 0.5);
    const out: InvalidRequest[] = [];
    for (let round = 0; out.length < options.count && pools.some((p) => p.length > round); round++) {
      for (const pool of pools) if (pool[round] && out.length < options.count) out.push(pool[round]);
    }
    return out;
  }
}

/**
 * "query.limit" for a case of the request schema, or undefined for one that means nothing on the wire:
 * the path, query or header group itself replaced, a path parameter left out (it cannot be).
 */
function locate(rule: string, pointer: string, description: string): string | undefined {
  const steps = pointer.split('/').slice(1);
  if (rule === 'required') {
    const missing = description.replace(/ missing$/, '');
    if (steps.length === 0) return missing === 'body' ? 'body' : undefined;
    return steps[0] === 'path' ? undefined : missing;
  }
  if (steps.length === 0) return undefined;
  if (LOCATIONS.includes(steps[0] as ParameterLocation) && steps.length < 2) return undefined;
  return steps.reduce((out, s, i) => (i === 0 ? s : /^\d+$/.test(s) ? `${out}[${s}]` : `${out}.${s}`), '');
}
