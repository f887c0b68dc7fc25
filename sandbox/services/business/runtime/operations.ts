/**
 * The operations of the sandbox's own document (../openapi.yaml, clean, never the faulty served copy),
 * as the generic handler needs them: path templates to match, parameters and body with the JSON
 * pointers of their schemas (validators and the synthesizer work by pointer, so `$ref`s inside
 * resolve against the document root), the success response, the client-certificate marking.
 */
import { cleanDocument } from '../document.ts';

export type Node = Record<string, unknown>;
export const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  /** JSON pointer ("#/...") of the parameter's schema. */
  schema: string;
}

export interface Operation {
  method: string;
  template: string;
  /** "GET /api/v1/card/{ucid}" */
  key: string;
  segments: Array<{ literal: string } | { param: string }>;
  parameters: Parameter[];
  body?: { required: boolean; schema: string };
  /** The lowest documented 2xx and the pointer of its JSON schema, when it has one. */
  success: { status: number; schema?: string };
  mtls: boolean;
  secured: boolean;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The node at a pointer of the clean document. */
export function at(pointer: string): unknown {
  let node: unknown = cleanDocument();
  for (const raw of pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter((t) => t !== '')) {
    if (!isNode(node) && !Array.isArray(node)) return undefined;
    node = (node as Node)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/** Follows `$ref`s from a pointer to the pointer of the node they end at. */
export function follow(pointer: string): string {
  let current = pointer;
  for (let hops = 0; hops < 20; hops++) {
    const node = at(current);
    if (!isNode(node) || typeof node.$ref !== 'string') return current;
    current = node.$ref;
  }
  throw new Error(`sandbox document: $ref chain too long at ${pointer}`);
}

function parametersOf(pathPointer: string, opPointer: string): Parameter[] {
  const out = new Map<string, Parameter>();
  for (const base of [pathPointer, opPointer]) {
    const list = at(`${base}/parameters`);
    if (!Array.isArray(list)) continue;
    list.forEach((_p, i) => {
      const pointer = follow(`${base}/parameters/${i}`);
      const p = at(pointer) as Node;
      const where = p.in as Parameter['in'];
      if (where !== 'path' && where !== 'query' && where !== 'header') return;
      out.set(`${where}:${String(p.name).toLowerCase()}`, {
        name: String(p.name),
        in: where,
        required: p.required === true,
        schema: `${pointer}/schema`,
      });
    });
  }
  return [...out.values()];
}

function successOf(opPointer: string): Operation['success'] {
  const responses = at(`${opPointer}/responses`) as Node;
  const status = Object.keys(responses)
    .filter((k) => /^2\d\d$/.test(k))
    .sort()[0];
  const pointer = follow(`${opPointer}/responses/${status}`);
  const content = at(`${pointer}/content`);
  const json = isNode(content) && 'application/json' in content ? `${pointer}/content/application~1json/schema` : undefined;
  return { status: Number(status), schema: json };
}

function build(): Operation[] {
  const doc = cleanDocument();
  const out: Operation[] = [];
  for (const [template, item] of Object.entries((doc.paths ?? {}) as Node)) {
    if (!isNode(item)) continue;
    const pathPointer = `#/paths/${escapeToken(template)}`;
    for (const method of METHODS) {
      const op = item[method];
      if (!isNode(op)) continue;
      const opPointer = `${pathPointer}/${method}`;
      const bodyPointer = isNode(op.requestBody) ? follow(`${opPointer}/requestBody`) : undefined;
      const body = bodyPointer ? (at(bodyPointer) as Node) : undefined;
      const hasJson = body && isNode(body.content) && 'application/json' in body.content;
      out.push({
        method: method.toUpperCase(),
        template,
        key: `${method.toUpperCase()} ${template}`,
        segments: template
          .split('/')
          .slice(1)
          .map((s) => (/^\{.+\}$/.test(s) ? { param: s.slice(1, -1) } : { literal: s })),
        parameters: parametersOf(pathPointer, opPointer),
        body: hasJson ? { required: body.required === true, schema: `${bodyPointer}/content/application~1json/schema` } : undefined,
        success: successOf(opPointer),
        mtls: op['x-mtls-required'] === true,
        secured: !(Array.isArray(op.security) && op.security.length === 0),
      });
    }
  }
  // The most literal template first: /payment-registry/create/result before /payment-registry/{id}.
  return out.sort((a, b) => literals(b) - literals(a));
}

const literals = (op: Operation) => op.segments.filter((s) => 'literal' in s).length;

let operations: Operation[] | undefined;
export function allOperations(): Operation[] {
  return (operations ??= build());
}

export type Match =
  | { kind: 'operation'; operation: Operation; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'none' };

/** Matches a raw (still percent-encoded) path; parameter values are decoded, undecodable ones kept raw. */
export function matchOperation(method: string, rawPath: string): Match {
  const parts = rawPath.split('/').slice(1);
  const allow: string[] = [];
  for (const op of allOperations()) {
    if (op.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const fits = op.segments.every((s, i) => {
      if ('literal' in s) return s.literal === parts[i];
      if (parts[i] === '') return false;
      params[s.param] = decode(parts[i]);
      return true;
    });
    if (!fits) continue;
    if (op.method === method) return { kind: 'operation', operation: op, params };
    allow.push(op.method);
  }
  return allow.length ? { kind: 'method-not-allowed', allow: [...new Set(allow)] } : { kind: 'none' };
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function operationByKey(key: string): Operation {
  const found = allOperations().find((op) => op.key === key);
  if (!found) throw new Error(`sandbox business runtime: no operation ${key} in openapi.yaml`);
  return found;
}
