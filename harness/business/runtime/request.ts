/**
 * A request of the business runtime as data ({ path, query, header, body }), and as it travels
 * (`toWire`): what the engine sends and judges. The generators that make such requests from the served
 * document live in generators/business/; the engine takes one from its caller (`RequestGenerator`), so
 * harness never imports generators.
 */
import type { OperationModel } from '../openapi/operation-model.ts';

export interface GeneratedRequest {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  header: Record<string, unknown>;
  body?: unknown;
}

export interface WireRequest {
  /** The path with every parameter filled in and percent-encoded. */
  path: string;
  /** "" or "?a=1&b=2". */
  search: string;
  headers: Record<string, string>;
  /** The JSON body, when one is sent. */
  body?: unknown;
  /** False when a value cannot travel as generated (a "." path segment, a header with a line break, an empty query value). */
  sendable: boolean;
}

export interface InvalidRequest {
  request: GeneratedRequest;
  rule: string;
  /** Where the broken rule is: "query.limit", "body.items[0].price", "header.Idempotency-Key", "body". */
  at: string;
  description: string;
}

/** A served document the generators cannot work from: the plan skips the operation's tests with it. */
export class GenerationError extends Error {}

/** What the engine needs of a request generator over the served document. */
export interface RequestGenerator {
  /** `count` requests valid against the document, also as the server reads them. */
  valid(op: OperationModel, options: { seed: number; count: number }): GeneratedRequest[];
  /** Up to `count` requests that break exactly one rule each. */
  invalid(op: OperationModel, valid: GeneratedRequest, options: { seed: number; count: number }): InvalidRequest[];
  /** Whether the request is valid against the document as the server reads it from the wire. */
  validOnWire(op: OperationModel, request: GeneratedRequest): boolean;
}

function wireString(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

const SENDABLE_HEADER = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** The request as it travels: parameters as strings, in the path, the query string and the headers. */
export function toWire(op: Pick<OperationModel, 'path' | 'parameters'>, request: GeneratedRequest): WireRequest {
  let sendable = true;
  const path = op.path.replace(/\{([^{}/]*)\}/g, (_m, name: string) => {
    const text = wireString(request.path[name]);
    if (text === '' || text === '.' || text === '..') sendable = false;
    return encodeURIComponent(text);
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      const text = wireString(item);
      // "?name=" is read as absent by many servers, as an empty string by others: never sent.
      if (text === '') sendable = false;
      search.append(name, text);
    }
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.header)) {
    if (value === undefined || value === null) continue;
    const text = Array.isArray(value) ? value.map(wireString).join(',') : wireString(value);
    if (!SENDABLE_HEADER.test(text)) sendable = false;
    headers[name] = text;
  }
  const query = search.toString();
  const wire: WireRequest = { path, search: query ? `?${query}` : '', headers, sendable };
  if (request.body !== undefined) wire.body = JSON.parse(JSON.stringify(request.body));
  return wire;
}
