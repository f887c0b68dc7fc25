/**
 * OpenAPI 3.0 Schema Objects to JSON Schema 2020-12, so that ajv can judge bodies against a fetched
 * document (and the generators can work from it):
 *   nullable: true          -> type [T, "null"] (or `null` added to an enum, or anyOf [..., {type: null}])
 *   exclusiveMinimum: true  -> exclusiveMinimum: <minimum> (boolean draft-04 form to the numeric form)
 *   example                 -> examples: [example]
 *   discriminator, xml, externalDocs, x-*: dropped (no validation meaning)
 *   readOnly / writeOnly    -> such a property is not required in a request / in a response
 *   $ref "#/components/schemas/X" -> the same schema under $defs of one bundle per document
 * Formats stay (ajv-formats knows int32, int64, float, double, byte, binary, password too), and can be
 * switched off: `format` is advisory in real documents. Compilation is lenient (strict off, no
 * unicode flag on patterns) because a real document is rarely clean; a schema that still does not
 * compile yields a validator that reports why, instead of throwing.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { createHash } from 'node:crypto';
import { isJsonObject } from '../../text/json.ts';

export type Direction = 'request' | 'response';

type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

const DROPPED = new Set(['discriminator', 'xml', 'externalDocs', 'nullable', 'example']);
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_SINGLES = [
  'additionalProperties',
  'items',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
];
const COMPONENT_REF = /^#\/components\/schemas\/(.+)$/;

export interface ConvertOptions {
  /** `$id` of the bundle that holds the document's components.schemas under `$defs`. */
  bundleId: string;
  direction: Direction;
}

export function convertSchema(schema: unknown, options: ConvertOptions, seen = new WeakMap<object, unknown>()): unknown {
  if (!isJsonObject(schema)) return schema;
  if (seen.has(schema)) return seen.get(schema);
  const out: Record<string, unknown> = {};
  seen.set(schema, out);
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key) || key.startsWith('x-')) continue;
    if (key === '$ref' && typeof value === 'string') out.$ref = convertRef(value, options.bundleId);
    else if (SCHEMA_MAPS.includes(key) && isJsonObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convertSchema(v, options, seen)]));
    else if (SCHEMA_LISTS.includes(key) && Array.isArray(value)) out[key] = value.map((v) => convertSchema(v, options, seen));
    else if (key === 'items' && Array.isArray(value)) out.prefixItems = value.map((v) => convertSchema(v, options, seen));
    else if (SCHEMA_SINGLES.includes(key)) out[key] = convertSchema(value, options, seen);
    else out[key] = value;
  }
  if ('example' in schema && !('examples' in schema)) out.examples = [schema.example];
  exclusiveBound(out, 'exclusiveMinimum', 'minimum');
  exclusiveBound(out, 'exclusiveMaximum', 'maximum');
  dropHiddenRequired(out, options.direction);
  if (schema.nullable === true) return nullable(out);
  return out;
}

function convertRef(ref: string, bundleId: string): string {
  const component = COMPONENT_REF.exec(ref);
  if (component) return `${bundleId}#/$defs/${component[1]}`;
  return ref;
}

function exclusiveBound(out: Record<string, unknown>, exclusive: string, bound: string): void {
  if (out[exclusive] === true && typeof out[bound] === 'number') {
    out[exclusive] = out[bound];
    delete out[bound];
  } else if (typeof out[exclusive] === 'boolean') {
    delete out[exclusive];
  }
}

function dropHiddenRequired(out: Record<string, unknown>, direction: Direction): void {
  if (!Array.isArray(out.required) || !isJsonObject(out.properties)) return;
  const hidden = direction === 'request' ? 'readOnly' : 'writeOnly';
  const properties = out.properties as Record<string, unknown>;
  out.required = (out.required as unknown[]).filter(
    (name) =>
      !(typeof name === 'string' && isJsonObject(properties[name]) && (properties[name] as Record<string, unknown>)[hidden] === true),
  );
}

function nullable(out: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] };
  if (Array.isArray(out.type)) return out.type.includes('null') ? out : { ...out, type: [...out.type, 'null'] };
  if (Array.isArray(out.enum)) return out;
  return { anyOf: [out, { type: 'null' }] };
}

/** One ajv instance per fetched document, with its component schemas as one bundle per direction. */
export class DocumentSchemas {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<Direction, WeakMap<object, ValidateFunction>>();
  private readonly bundleBase: string;

  constructor(document: Record<string, unknown>, options: { validateFormats?: boolean } = {}) {
    this.ajv = new Ajv2020({
      strict: false,
      allErrors: true,
      unicodeRegExp: false,
      logger: false,
      validateFormats: options.validateFormats ?? true,
    });
    addFormats(this.ajv);
    const digest = createHash('sha256').update(JSON.stringify(document)).digest('hex').slice(0, 16);
    this.bundleBase = `urn:partner-conformance:openapi:${digest}`;
    const components = isJsonObject(document.components) && isJsonObject(document.components.schemas) ? document.components.schemas : {};
    for (const direction of ['request', 'response'] as const) {
      const bundleId = `${this.bundleBase}:${direction}`;
      const $defs = Object.fromEntries(Object.entries(components).map(([name, s]) => [name, convertSchema(s, { bundleId, direction })]));
      this.ajv.addSchema({ $id: bundleId, $defs });
    }
  }

  /** A validator for a Schema Object of the (non-dereferenced) document. */
  validator(schema: Record<string, unknown>, direction: Direction): ValidateFunction {
    let cache = this.cache.get(direction);
    if (!cache) this.cache.set(direction, (cache = new WeakMap()));
    const cached = cache.get(schema);
    if (cached) return cached;
    const converted = convertSchema(schema, { bundleId: `${this.bundleBase}:${direction}`, direction }) as Record<string, unknown>;
    let fn: ValidateFunction;
    try {
      fn = this.ajv.compile(converted);
    } catch (error) {
      fn = uncompilable((error as Error).message);
    }
    cache.set(schema, fn);
    return fn;
  }
}

function uncompilable(reason: string): ValidateFunction {
  const fn = ((_data: unknown) => {
    fn.errors = [
      {
        instancePath: '',
        schemaPath: '#',
        keyword: 'compile',
        params: {},
        message: `the document's schema could not be compiled: ${reason}`,
      },
    ];
    return false;
  }) as ValidateFunction;
  return fn;
}
