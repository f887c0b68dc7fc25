/**
 * Where a field lives in an operation's request body schema of the served document: found by name
 * wherever the schema declares it (through $ref, allOf, oneOf, anyOf and arrays, where the path steps
 * through "*"), so that a rule test sets the fields the spec names whatever the document's nesting.
 */
import { ToolError } from '../../errors.ts';
import { isJsonObject, type JsonObject, type JsonPath } from '../../text/json.ts';
import { jsonBodyOf } from '../openapi/operation-model.ts';
import { resolvePointer } from '../openapi/refs.ts';
import { loadedPlan, type OperationPlan } from './plan.ts';

/** The schema node after `$ref`s. */
function deref(node: unknown): JsonObject | undefined {
  let current = node;
  for (let hops = 0; hops < 20 && isJsonObject(current) && typeof current.$ref === 'string'; hops++)
    current = resolvePointer(loadedPlan().raw, current.$ref as string);
  return isJsonObject(current) ? current : undefined;
}

/** Every property of an object schema (through allOf, oneOf, anyOf), with its schema. */
function propertiesOf(schema: unknown): Array<[string, JsonObject]> {
  const node = deref(schema);
  if (!node) return [];
  const out: Array<[string, JsonObject]> = [];
  if (isJsonObject(node.properties))
    for (const [name, sub] of Object.entries(node.properties)) if (isJsonObject(sub)) out.push([name, sub]);
  for (const key of ['allOf', 'oneOf', 'anyOf'])
    if (Array.isArray(node[key])) for (const part of node[key] as unknown[]) out.push(...propertiesOf(part));
  return out;
}

/**
 * The top-level fields an object schema declares (through $ref, allOf, oneOf, anyOf) and those it
 * requires in every case (its own `required` and its allOf parts').
 */
export function fieldsOf(schema: unknown): { declared: Set<string>; required: Set<string> } {
  const required = new Set<string>();
  const visit = (node: JsonObject | undefined, depth: number): void => {
    if (!node || depth > 10) return;
    if (Array.isArray(node.required)) for (const name of node.required) required.add(String(name));
    if (Array.isArray(node.allOf)) for (const part of node.allOf) visit(deref(part), depth + 1);
  };
  visit(deref(schema), 0);
  return { declared: new Set(propertiesOf(schema).map(([name]) => name)), required };
}

/** The paths (arrays step through "*") at which the body schema declares a property `name`, shallowest first. */
export function fieldSites(op: OperationPlan, name: string): Array<{ path: JsonPath; schema: JsonObject }> {
  const root = jsonBodyOf(op.model)?.schema;
  const out: Array<{ path: JsonPath; schema: JsonObject }> = [];
  const walk = (schema: unknown, path: JsonPath, depth: number) => {
    if (depth > 6) return;
    const node = deref(schema);
    if (!node) return;
    if (node.type === 'array' || node.items) return walk(node.items, [...path, '*'], depth + 1);
    for (const [prop, sub] of propertiesOf(node)) {
      if (prop === name) out.push({ path: [...path, prop], schema: deref(sub) ?? sub });
      walk(sub, [...path, prop], depth + 1);
    }
  };
  walk(root, [], 0);
  return out.sort((a, b) => a.path.length - b.path.length);
}

/** The first site among the names, or undefined. */
export function siteOf(op: OperationPlan, ...names: string[]): { path: JsonPath; schema: JsonObject } | undefined {
  for (const name of names) {
    const [site] = fieldSites(op, name);
    if (site) return site;
  }
  return undefined;
}

/** Like siteOf, but a missing field skips the test, naming it. */
export function needSite(op: OperationPlan, ...names: string[]): { path: JsonPath; schema: JsonObject } {
  const site = siteOf(op, ...names);
  if (!site)
    throw new ToolError('PRECONDITION_MISSING', `the request body of ${op.row} in the served document has no field ${names.join(' or ')}`);
  return site;
}

/** The schema's enum values (through $ref, allOf and arrays of it). */
export function enumOf(schema: JsonObject): unknown[] {
  const node = deref(schema) ?? schema;
  if (Array.isArray(node.enum)) return node.enum;
  if (isJsonObject(node.items)) return enumOf(node.items);
  for (const key of ['allOf', 'oneOf', 'anyOf'])
    if (Array.isArray(node[key])) for (const part of node[key] as JsonObject[]) if (enumOf(part).length) return enumOf(part);
  return [];
}

export const typeAt = (schema: JsonObject): string | undefined => {
  const node = deref(schema) ?? schema;
  return typeof node.type === 'string' ? node.type : undefined;
};
