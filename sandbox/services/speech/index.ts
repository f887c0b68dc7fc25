/**
 * Speech recognition behind a signed JWT (spec 2.1, 4.1, 5.1):
 * GET or POST {speech_url}/v1/stt:recognize with `Authorization: Bearer <token>`.
 * The spec lists GET, the vendor's examples POST with a JSON body: both are served, and the body hash is
 * taken over the raw bytes of either (fastify does not read GET bodies, so this route reads them itself).
 * A streaming call, POST {speech_url}/v1/stt:streamingRecognize, takes newline-delimited JSON messages
 * and hashes the first one ("or of the first message of the request when streaming").
 * A verified call gets a recognition result of the sandbox's choosing in the vendor's shape.
 * Behaviour choices (leeway, error body, streaming) are documented in README.md next to this file.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FaultSet } from '../../faults/types.ts';
import type { SandboxService, ServiceContext } from '../../types.ts';
import { verifyCall, type VerifierConfig } from './verify.ts';

export const SPEECH_PREFIX = '/speech';
/** `::` is find-my-way's escape for a literal colon (a single `:` would start a path parameter). */
const RECOGNIZE_ROUTE = '/v1/stt::recognize';
export const STREAMING_PATH = '/v1/stt:streamingRecognize';
const STREAMING_ROUTE = '/v1/stt::streamingRecognize';
const NDJSON = 'application/x-ndjson';
export const AUDIENCE = 'tinkoff.cloud.stt';
const BODY_LIMIT = 32 * 1024 * 1024;
const TRANSCRIPTS = ['привет мир', 'проверка связи', 'переведи сто рублей маме', 'какая погода завтра', 'один два три'];
const GRPC_CODES: Record<number, [number, string]> = { 400: [3, 'INVALID_ARGUMENT'], 401: [16, 'UNAUTHENTICATED'], 403: [7, 'PERMISSION_DENIED'], 413: [8, 'RESOURCE_EXHAUSTED'] };

export { speechFaults as faults } from './faults.ts';

/** Fixed development credentials (documented in README.md): the secret is base64, decoded to the HMAC key. */
export const credentials = {
  apiKey: 'sandbox-speech-api-key-0001',
  secretKey: 'hjWAemtz9xalKHfIhz+45d4eafoZ/9Ma8btOk3OKkAw=',
};

/** The sandbox's error body (the spec shows none): the vendor gateway's gRPC status shape. */
function sendError(reply: FastifyReply, faults: FaultSet, status: number, reason: string, details: unknown[] = []) {
  const [code, name] = GRPC_CODES[status] ?? [2, 'UNKNOWN'];
  if (status === 401) reply.header('www-authenticate', 'Bearer error="invalid_token"');
  if (faults.has('spe-refusal-html')) return reply.code(status).type('text/html; charset=utf-8').send(`<html><body><h1>${status} ${name}</h1></body></html>`);
  return reply.code(status).type('application/json').send({ code, message: `${name}: ${reason}`, details });
}

/** The first message of a stream: the bytes before the first line feed (the whole body without one). */
function firstMessage(raw: Buffer): Buffer {
  const end = raw.indexOf(0x0a);
  return end < 0 ? raw : raw.subarray(0, end);
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

/** One recognition result for base64 audio, picked from a fixed list by a hash of the audio. */
function resultFor(content: string, textKey: string): unknown {
  const digest = createHash('sha256').update(content).digest();
  const seconds = (Buffer.from(content, 'base64').length / 32000).toFixed(3);
  return {
    alternatives: [{ [textKey]: TRANSCRIPTS[digest[0] % TRANSCRIPTS.length], confidence: 0.5 + digest[1] / 512 }],
    channel: 0,
    start_time: '0s',
    end_time: `${seconds}s`,
  };
}

function recognition(raw: Buffer, textKey: string): { status: number; body: unknown } {
  if (raw.length === 0) return { status: 200, body: { results: [] } };
  let request: unknown;
  try {
    request = JSON.parse(raw.toString('utf8'));
  } catch (error) {
    return { status: 400, body: `the body is not valid JSON: ${(error as Error).message}` };
  }
  const content = (request as { audio?: { content?: unknown } } | null)?.audio?.content;
  if (typeof content !== 'string') return { status: 200, body: { results: [] } };
  return { status: 200, body: { results: [resultFor(content, textKey)] } };
}

/** A stream: a configuration message, then messages with `audio_content`; one result per audio message. */
function streamRecognition(raw: Buffer, textKey: string): { status: number; body: unknown } {
  const results = [];
  for (const line of raw.toString('utf8').split('\n').filter((l) => l.trim() !== '')) {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (error) {
      return { status: 400, body: `a stream message is not valid JSON: ${(error as Error).message}` };
    }
    const content = (message as { audio_content?: unknown } | null)?.audio_content;
    if (typeof content === 'string') results.push(resultFor(content, textKey));
  }
  return { status: 200, body: { results } };
}

export const service: SandboxService = {
  area: 'speech',
  prefix: SPEECH_PREFIX,

  register(app, ctx: ServiceContext) {
    const { faults } = ctx;
    const { apiKey, secretKey } = ctx.credentials.speech;
    const config: VerifierConfig = {
      keys: new Map([[apiKey, Buffer.from(secretKey, 'base64')]]),
      audience: AUDIENCE,
      faults,
      verified: new Set(),
    };

    const textKey = faults.has('spe-transcript-renamed') ? 'text' : 'transcript';
    /** The refusal to send when the token does not verify against `hashed`, or undefined. */
    const refusalOf = (authorization: string | undefined, hashed: Buffer) => {
      const verdict = verifyCall(authorization, hashed, config);
      if (verdict.ok) return undefined;
      const status = faults.has('spe-refuse-403') && verdict.status === 401 ? 403 : verdict.status;
      const echo = faults.has('spe-echo-token') ? [{ receivedToken: authorization?.replace(/^bearer\s+/i, '') ?? null }] : [];
      return (reply: FastifyReply) => sendError(reply, faults, status, verdict.reason, echo);
    };

    app.route({
      method: ['GET', 'POST'],
      url: RECOGNIZE_ROUTE,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const raw = await rawBody(request);
        if (raw === 'too large') return sendError(reply, faults, 413, 'the body is larger than 32 MB');
        if (faults.has('spe-json-content-type-refused') && String(request.headers['content-type'] ?? '').startsWith('application/json')) {
          return sendError(reply, faults, 415, 'the recognize call takes text/plain');
        }
        const refusal = refusalOf(request.headers.authorization, raw);
        if (refusal) return refusal(reply);
        const answer = recognition(raw, textKey);
        if (answer.status !== 200) return sendError(reply, faults, answer.status, answer.body as string);
        return reply.code(200).type('application/json').send(answer.body);
      },
    });

    app.post(STREAMING_ROUTE, async (request: FastifyRequest, reply: FastifyReply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const hashed = faults.has('spe-stream-hash-whole-body') ? raw : firstMessage(raw);
      let refusal = refusalOf(request.headers.authorization, hashed);
      if (refusal && faults.has('spe-stream-hash-either')) refusal = refusalOf(request.headers.authorization, raw);
      if (refusal) return refusal(reply);
      const answer = streamRecognition(raw, textKey);
      if (answer.status !== 200) return sendError(reply, faults, answer.status, answer.body as string);
      return reply.code(200).type('application/json').send(answer.body);
    });
  },

  targetSection(urls, ctx) {
    return {
      url: `${urls.http}${SPEECH_PREFIX}`,
      apiKey: ctx.credentials.speech.apiKey,
      secretKey: ctx.credentials.speech.secretKey,
      method: 'GET',
      keyEncoding: 'base64',
      audience: AUDIENCE,
      streaming: { path: STREAMING_PATH, method: 'POST', contentType: NDJSON },
    };
  },
};
