/**
 * A request and its answer as plain data. A handler written as `(request) => answer` reads as the
 * specification, and a fault can edit either side before the other sees it (sandbox/faults/modifiers.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The HTTP request as the handler reads it. */
export interface Incoming {
  headers: IncomingHttpHeaders;
  /** The media type of Content-Type, lower case, without parameters; '' when there is none. */
  contentType: string;
  /** The body as UTF-8 text ('' when there is none). */
  text: string;
  /** The client's address. */
  ip: string;
}

/** What the handler answers, before it is sent. */
export interface Answer<Facts = unknown> {
  status: number;
  headers: Record<string, string>;
  /** A string is sent as it is; any other value as JSON; undefined sends no body. */
  body?: unknown;
  /** The named rule that refused the request, when one did. Never sent. */
  refusedBy?: string;
  /** What the handler served, for faults that edit the answer (the account and currency of a portfolio). Never sent. */
  facts?: Facts;
}

export function incomingOf(request: FastifyRequest): Incoming {
  return {
    headers: request.headers,
    contentType: String(request.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase(),
    text: Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '',
    ip: request.ip,
  };
}

export function sendAnswer(reply: FastifyReply, answer: Answer): FastifyReply {
  reply.code(answer.status).headers(answer.headers);
  if (answer.body === undefined) return reply.send();
  return reply.send(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
}

/** The bearer token of the Authorization header, if it carries one. */
export function bearerOf(request: Incoming, pattern = /^bearer\s+(.+)$/i): string | undefined {
  return pattern.exec(request.headers.authorization ?? '')?.[1]?.trim();
}

/** A JSON answer: the body as data, labelled application/json. */
export function jsonAnswer<Facts = never>(status: number, body: unknown, headers: Record<string, string> = {}): Answer<Facts> {
  return { status, headers: { ...headers, 'content-type': 'application/json' }, body };
}

/** A request's body read as JSON, or why it does not parse. */
export interface BodyRead {
  request: Incoming;
  json: { value: unknown } | { error: string };
}

export function readJsonBody(request: Incoming, text = request.text): BodyRead {
  try {
    return { request, json: { value: JSON.parse(text) } };
  } catch (error) {
    return { request, json: { error: (error as Error).message } };
  }
}
