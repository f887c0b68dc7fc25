/**
 * Speech recognition behind a signed JWT (spec 2.1, 4.1, 5.1):
 * GET or POST {speech_url}/v1/stt:recognize with `Authorization: Bearer <token>`.
 * The spec lists GET, the vendor's examples POST with a JSON body: both are served, and the body hash is
 * taken over the raw bytes of either (fastify does not read GET bodies, so this route reads them itself).
 * A verified call gets a recognition result of the sandbox's choosing in the vendor's shape.
 * Behaviour choices (leeway, error body) are documented in README.md next to this file.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxService, ServiceContext } from '../../types.ts';
import { verifyCall, type VerifierConfig } from './verify.ts';

export const SPEECH_PREFIX = '/speech';
/** `::` is find-my-way's escape for a literal colon (a single `:` would start a path parameter). */
const RECOGNIZE_ROUTE = '/v1/stt::recognize';
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
function sendError(reply: FastifyReply, status: number, reason: string, details: unknown[] = []) {
  const [code, name] = GRPC_CODES[status] ?? [2, 'UNKNOWN'];
  if (status === 401) reply.header('www-authenticate', 'Bearer error="invalid_token"');
  return reply.code(status).type('application/json').send({ code, message: `${name}: ${reason}`, details });
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
  const digest = createHash('sha256').update(content).digest();
  const seconds = (Buffer.from(content, 'base64').length / 32000).toFixed(3);
  return {
    status: 200,
    body: {
      results: [
        {
          alternatives: [{ [textKey]: TRANSCRIPTS[digest[0] % TRANSCRIPTS.length], confidence: 0.5 + digest[1] / 512 }],
          channel: 0,
          start_time: '0s',
          end_time: `${seconds}s`,
        },
      ],
    },
  };
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

    app.route({
      method: ['GET', 'POST'],
      url: RECOGNIZE_ROUTE,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const raw = await rawBody(request);
        if (raw === 'too large') return sendError(reply, 413, 'the body is larger than 32 MB');
        const authorization = request.headers.authorization;
        const verdict = verifyCall(authorization, raw, config);
        if (!verdict.ok) {
          const status = faults.has('spe-refuse-403') && verdict.status === 401 ? 403 : verdict.status;
          const echo = faults.has('spe-echo-token') ? [{ receivedToken: authorization?.replace(/^bearer\s+/i, '') ?? null }] : [];
          return sendError(reply, status, verdict.reason, echo);
        }
        const answer = recognition(raw, faults.has('spe-transcript-renamed') ? 'text' : 'transcript');
        if (answer.status !== 200) return sendError(reply, answer.status, answer.body as string);
        return reply.code(200).type('application/json').send(answer.body);
      },
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
    };
  },
};
