/**
 * One operation of a fetched OpenAPI 3.0 document, as the runtime suites need it: its parameters
 * (path-level and operation-level merged, `$ref`s to components followed), its JSON request body, its
 * responses by status key, and whether it needs credentials. Works on the document as parsed (schema
 * `$ref`s stay, for the JSON Schema conversion to bundle them).
 */
import { isJsonObject } from '../../text/json.ts';
import { isJsonMedia, mediaEssence } from '../../request/media-type.ts';
import type { OperationIndex } from './paths.ts';
import { resolvePointer } from './refs.ts';

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => isJsonObject<Node>(v);

export type ParameterLocation = 'path' | 'query' | 'header';

export interface ParameterModel {
  name: string;
  in: ParameterLocation;
  required: boolean;
  /** The Schema Object as written (may be a `$ref`); {} when the parameter has none. */
  schema: Node;
}

export interface MediaModel {
  /** The media key as the document writes it (parameters and case kept; compare through media-type.ts). */
  mediaType: string;
  schema?: Node;
}

export interface ResponseModel {
  /** "200", "4XX" or "default". */
  key: string;
  content: MediaModel[];
}

export interface OperationModel {
  method: string;
  path: string;
  /** "GET /api/v1/card" as written in the document. */
  name: string;
  parameters: ParameterModel[];
  body?: { required: boolean; content: MediaModel[] };
  responses: ResponseModel[];
  /**
   * False only when the document says so: `security: []`, or optional security (`security: [{}]`).
   * A document silent on security is read as secured: spec 5.5 gives every business call a token.
   */
  secured: boolean;
  deprecated: boolean;
}

// OpenAPI: header parameters with these names are ignored (they belong to the protocol).
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

function follow(document: Node, node: unknown): unknown {
  let current = node;
  for (let hops = 0; hops < 20 && isNode(current) && typeof current.$ref === 'string'; hops++)
    current = resolvePointer(document, current.$ref as string);
  return current;
}

function mediaOf(document: Node, content: unknown): MediaModel[] {
  if (!isNode(content)) return [];
  return Object.entries(content).map(([mediaType, media]) => {
    const m = follow(document, media);
    return { mediaType, schema: isNode(m) && isNode(m.schema) ? (m.schema as Node) : undefined };
  });
}

function securedBy(requirements: unknown): boolean {
  if (!Array.isArray(requirements)) return true;
  return requirements.length > 0 && !requirements.some((r) => isNode(r) && Object.keys(r).length === 0);
}

export function operationModel(document: Node, index: OperationIndex, method: string, path: string): OperationModel | undefined {
  const found = index.find(method, path);
  if (!found) return undefined;
  const { operation, pathItem } = found;
  const parameters = new Map<string, ParameterModel>();
  for (const list of [pathItem.parameters, operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const p = follow(document, entry);
      if (!isNode(p) || typeof p.name !== 'string') continue;
      if (p.in !== 'path' && p.in !== 'query' && p.in !== 'header') continue;
      if (p.in === 'header' && IGNORED_HEADERS.has(p.name.toLowerCase())) continue;
      parameters.set(`${p.in}:${p.name}`, {
        name: p.name,
        in: p.in,
        required: p.in === 'path' || p.required === true,
        schema: isNode(p.schema) ? (p.schema as Node) : {},
      });
    }
  }
  const body = follow(document, operation.requestBody);
  const responses = isNode(operation.responses) ? operation.responses : {};
  return {
    method: found.method,
    path: found.path,
    name: `${found.method} ${found.path}`,
    parameters: [...parameters.values()],
    body: isNode(body) ? { required: body.required === true, content: mediaOf(document, body.content) } : undefined,
    responses: Object.entries(responses).map(([key, response]) => ({
      key: key.toUpperCase(),
      content: mediaOf(document, (follow(document, response) as Node | undefined)?.content),
    })),
    secured: securedBy(operation.security ?? document.security),
    deprecated: operation.deprecated === true,
  };
}

/** The documented response for a status: exact, then its range ("4XX"), then `default`. */
export function responseFor(op: OperationModel, status: number): ResponseModel | undefined {
  return (
    op.responses.find((r) => r.key === String(status)) ??
    op.responses.find((r) => r.key === `${String(status)[0]}XX`) ??
    op.responses.find((r) => r.key === 'DEFAULT')
  );
}

/** The JSON media of a content map: application/json (with any parameters), else the first +json one. */
export function jsonMediaOf(content: readonly MediaModel[] | undefined): MediaModel | undefined {
  return content?.find((m) => mediaEssence(m.mediaType) === 'application/json') ?? content?.find((m) => isJsonMedia(m.mediaType));
}

/** The JSON request body's schema, when the operation takes a JSON body. */
export function jsonBodyOf(op: OperationModel): { required: boolean; schema: Node } | undefined {
  const media = jsonMediaOf(op.body?.content);
  return op.body && media ? { required: op.body.required, schema: media.schema ?? {} } : undefined;
}
