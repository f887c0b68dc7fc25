/**
 * Path templates: how an operation of the catalog (or of the spec's prose) is found in an OpenAPI
 * document, and how a concrete request path is matched to a template.
 *
 * The matching rule (the same one specs/catalog/business-operations.yaml states):
 *   - the HTTP method is equal (case-insensitive);
 *   - the path templates are equal once every `{parameter}` is replaced by `{}`: parameter NAMES are
 *     ignored, literal segments compare exactly and case-sensitively, so the version segment
 *     (v1, v2, v3, v4) is significant;
 *   - a trailing slash is significant: `/a/b/` and `/a/b` are different operations (servers route
 *     them differently, and an empty last segment is a classic source of false matches). When a
 *     lookup fails only because of a trailing slash, `nearMisses` says so;
 *   - the document's server URL is not part of the path.
 */
import { isJsonObject } from '../../text/json.ts';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface OperationName {
  method: string;
  path: string;
}

export interface DocumentOperation extends OperationName {
  /** "METHOD /template/{}" under the matching rule. */
  key: string;
  operation: Record<string, unknown>;
  pathItem: Record<string, unknown>;
}

const PARAMETER = /\{[^{}/]*\}/g;
const VERSION_SEGMENT = /\/v\d+(?=\/|$)/g;

export function templateKey(path: string): string {
  return path.replace(PARAMETER, '{}');
}

export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${templateKey(path)}`;
}

/** "GET /api/v1/card" -> { method: 'GET', path: '/api/v1/card' }. */
export function parseOperationName(name: string): OperationName {
  const match = /^\s*([A-Za-z]+)\s+(\/\S*)\s*$/.exec(name);
  if (!match) throw new Error(`"${name}" is not an operation name of the form "METHOD /path"`);
  return { method: match[1].toUpperCase(), path: match[2] };
}

export function sameOperation(a: OperationName, b: OperationName): boolean {
  return operationKey(a.method, a.path) === operationKey(b.method, b.path);
}

/** The operations of a document, indexed by key; a document without `paths` has none. */
export class OperationIndex {
  readonly all: DocumentOperation[] = [];
  private readonly byKey = new Map<string, DocumentOperation>();

  constructor(document: unknown) {
    const paths = isJsonObject(document) && isJsonObject(document.paths) ? document.paths : {};
    for (const [path, pathItem] of Object.entries(paths)) {
      if (!isJsonObject(pathItem)) continue;
      for (const method of HTTP_METHODS) {
        const operation = pathItem[method];
        if (!isJsonObject(operation)) continue;
        const entry: DocumentOperation = { method: method.toUpperCase(), path, key: operationKey(method, path), operation, pathItem };
        this.all.push(entry);
        // Two document paths that differ only in parameter names collide; the first one wins.
        if (!this.byKey.has(entry.key)) this.byKey.set(entry.key, entry);
      }
    }
  }

  find(method: string, path: string): DocumentOperation | undefined {
    return this.byKey.get(operationKey(method, path));
  }

  has(name: OperationName): boolean {
    return this.find(name.method, name.path) !== undefined;
  }

  /** Document operations that look like the one asked for, for a helpful "not found" message. */
  nearMisses(method: string, path: string): string[] {
    const wanted = templateKey(path);
    const unslashed = (p: string) => (p.length > 1 ? p.replace(/\/$/, '') : p);
    const unversioned = (p: string) => p.replace(VERSION_SEGMENT, '/v*');
    const out: string[] = [];
    for (const op of this.all) {
      const key = templateKey(op.path);
      const sameMethod = op.method === method.toUpperCase();
      if (key === wanted && !sameMethod) out.push(`${op.method} ${op.path} (other method)`);
      else if (sameMethod && key !== wanted && unslashed(key) === unslashed(wanted))
        out.push(`${op.method} ${op.path} (differs only by a trailing slash, which is significant)`);
      else if (sameMethod && key !== wanted && unversioned(key) === unversioned(wanted))
        out.push(`${op.method} ${op.path} (other version)`);
    }
    return out;
  }
}

/** Parameters of `template` when the concrete path matches it (a parameter is one non-empty segment part). */
export function matchPath(template: string, concrete: string): Record<string, string> | undefined {
  const names: string[] = [];
  const source = template
    .split(PARAMETER)
    .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('\u0000');
  let i = 0;
  const pattern = source.replace(/\u0000/g, () => '([^/]+)');
  for (const m of template.matchAll(PARAMETER)) names[i++] = m[0].slice(1, -1);
  const match = new RegExp(`^${pattern}$`).exec(concrete);
  if (!match) return undefined;
  return Object.fromEntries(names.map((name, k) => [name, safeDecode(match[k + 1])]));
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
