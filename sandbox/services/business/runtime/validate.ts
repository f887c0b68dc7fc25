/**
 * Request validation against the sandbox's own document, with ajv (draft-07, which knows OpenAPI's
 * `nullable`; no strict mode, since an OpenAPI document carries keywords JSON Schema does not know).
 * Parameters arrive as strings and are coerced to their schema's type first, as a server does;
 * bodies are not coerced. A problem names the field: "query.limit", "body.items[0].price".
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { cleanDocument } from '../document.ts';
import type { Operation, Parameter } from './operations.ts';

type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

const DOCUMENT_ID = 'urn:sandbox:business:openapi';

function instance(coerceTypes: false | 'array'): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, coerceTypes, validateSchema: false, logger: false });
  addFormats(ajv);
  ajv.addSchema(cleanDocument(), DOCUMENT_ID);
  return ajv;
}

let strictTypes: Ajv | undefined;
let coercing: Ajv | undefined;
const bySchema = new Map<string, ValidateFunction>();
const byParameter = new Map<string, ValidateFunction>();

/** A validator for the schema at a pointer of the document ("#/components/schemas/X"). */
export function validatorAt(pointer: string): ValidateFunction {
  let fn = bySchema.get(pointer);
  if (!fn) {
    strictTypes ??= instance(false);
    fn = strictTypes.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
    bySchema.set(pointer, fn);
  }
  return fn;
}

export function validAt(pointer: string, value: unknown): boolean {
  return validatorAt(pointer)(value) === true;
}

// ajv coerces a value only where it sits inside an object, so each parameter is checked as { v }.
function parameterValidator(p: Parameter): ValidateFunction {
  let fn = byParameter.get(p.schema);
  if (!fn) {
    coercing ??= instance('array');
    fn = coercing.compile({ type: 'object', properties: { v: { $ref: `${DOCUMENT_ID}${p.schema}` } } });
    byParameter.set(p.schema, fn);
  }
  return fn;
}

export interface Problem {
  field: string;
  message: string;
}

export interface RawRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

export interface ValidParameters {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  header: Record<string, unknown>;
}

function fieldOf(prefix: string, e: ErrorObject): string {
  const steps = e.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required') steps.push(String((e.params as { missingProperty: string }).missingProperty));
  if (e.keyword === 'additionalProperties') steps.push(String((e.params as { additionalProperty: string }).additionalProperty));
  return steps.reduce((out, s) => (/^\d+$/.test(s) ? `${out}[${s}]` : `${out}.${s}`), prefix);
}

function describe(e: ErrorObject): string {
  if (e.keyword === 'enum')
    return `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  if (e.keyword === 'required') return 'is required';
  if (e.keyword === 'additionalProperties') return 'is not a known property';
  return e.message ?? e.keyword;
}

/** Coerces and checks path, query and header parameters; skips query ones when `skipQuery`. */
export function checkParameters(op: Operation, raw: RawRequest, skipQuery = false): { values: ValidParameters; problems: Problem[] } {
  const values: ValidParameters = { path: {}, query: {}, header: {} };
  const problems: Problem[] = [];
  for (const p of op.parameters) {
    const sent = p.in === 'path' ? raw.params[p.name] : p.in === 'query' ? raw.query[p.name] : raw.headers[p.name.toLowerCase()];
    const where = p.in === 'header' ? 'header' : p.in;
    // An empty query value ("?name=") is a value (OpenAPI: allowEmptyValue is false by default).
    if (sent === undefined || (sent === '' && p.in !== 'query')) {
      if (p.required && !(p.in === 'query' && skipQuery)) problems.push({ field: `${where}.${p.name}`, message: 'is required' });
      continue;
    }
    const holder = { v: sent };
    const validate = parameterValidator(p);
    if (!validate(holder) && !(p.in === 'query' && skipQuery)) {
      for (const e of validate.errors ?? [])
        problems.push({
          field: fieldOf(`${where}.${p.name}`, { ...e, instancePath: e.instancePath.replace(/^\/v/, '') }),
          message: describe(e),
        });
      continue;
    }
    values[where][p.name] = holder.v;
  }
  return { values, problems };
}

export function checkBody(op: Operation, body: unknown): Problem[] {
  if (!op.body) return [];
  const validate = validatorAt(op.body.schema);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => ({ field: fieldOf('body', e), message: describe(e) }));
}
