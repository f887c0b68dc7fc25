/**
 * One speech call as the handler reads it: which call, its headers, and the raw bytes of its body (the
 * body hash is taken over the bytes as received, so the text is never decoded and re-encoded). fastify
 * does not read GET bodies: the route reads them itself, up to the same limit as any other body.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';

export const BODY_LIMIT = 32 * 1024 * 1024;

export interface SpeechCall {
  /** recognize: one JSON request (GET or POST); stream: newline-delimited JSON messages. */
  kind: 'recognize' | 'stream';
  /** The HTTP method the call came with (4.1 lists GET; the vendor's examples use POST). */
  method: string;
  headers: IncomingHttpHeaders;
  /** The raw bytes of the body; empty when there is none, or when it was too large. */
  body: Buffer;
  /** The body was larger than BODY_LIMIT. */
  tooLarge: boolean;
}

async function rawBody(request: FastifyRequest): Promise<Buffer | 'too large'> {
  if (Buffer.isBuffer(request.body)) return request.body;
  if (request.method !== 'GET') return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) return 'too large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The reader of one route's calls. */
export const callReader =
  (kind: SpeechCall['kind']) =>
  async (request: FastifyRequest): Promise<SpeechCall> => {
    const body = await rawBody(request);
    return {
      kind,
      method: request.method,
      headers: request.headers,
      body: body === 'too large' ? Buffer.alloc(0) : body,
      tooLarge: body === 'too large',
    };
  };
