/**
 * Speech recognition behind a signed JWT (spec 2.1, 4.1, 5.1):
 * GET or POST {speech_url}/v1/stt:recognize with `Authorization: Bearer <token>`.
 * The spec lists GET, the vendor's examples POST with a JSON body: both are served, and the body hash is
 * taken over the raw bytes of either (call.ts). A streaming call, POST
 * {speech_url}/v1/stt:streamingRecognize, takes newline-delimited JSON messages and hashes the first one
 * ("or of the first message of the request when streaming"). A verified call gets a recognition result
 * of the sandbox's choosing in the vendor's shape. The handler is handler.ts; behaviour choices
 * (leeway, error body, streaming) are documented in README.md next to this file.
 */
import { modifiersOf, routeReading } from '../../faults/modifiers.ts';
import { limitService } from '../../service-limit.ts';
import type { SandboxService, ServiceContext } from '../../types.ts';
import { callReader } from './call.ts';
import { AUDIENCE } from './claim-rules.ts';
import { errorAnswer } from './answers.ts';
import { speechFaults } from './faults.ts';
import { speechLatitudes } from './latitudes.ts';
import { RULES, speechHandler, type SpeechShape } from './handler.ts';

export const SPEECH_PREFIX = '/speech';
/** `::` is find-my-way's escape for a literal colon (a single `:` would start a path parameter). */
const RECOGNIZE_ROUTE = '/v1/stt::recognize';
export const STREAMING_PATH = '/v1/stt:streamingRecognize';
const STREAMING_ROUTE = '/v1/stt::streamingRecognize';
const NDJSON = 'application/x-ndjson';

export { speechFaults as faults } from './faults.ts';
export { speechLatitudes as latitudes } from './latitudes.ts';

/** Fixed development credentials (documented in README.md): the secret is base64, decoded to the HMAC key. */
export const credentials = {
  apiKey: 'sandbox-speech-api-key-0001',
  secretKey: 'hjWAemtz9xalKHfIhz+45d4eafoZ/9Ma8btOk3OKkAw=',
};

/**
 * The spec documents no limit for speech; the sandbox's own, for the whole service, declared in its
 * target file and enforced: high, since it is loopback and only its declared limit paces its runs.
 */
export const SPEECH_LIMIT = { requests: 500, perSeconds: 1 };

export const service: SandboxService = {
  area: 'speech',
  prefix: SPEECH_PREFIX,

  register(app, ctx: ServiceContext) {
    limitService(app, SPEECH_LIMIT, () => errorAnswer(429, `more than ${SPEECH_LIMIT.requests} requests per second`, 'rate-limit'));
    const { apiKey, secretKey } = ctx.credentials.speech;
    const modifiers = modifiersOf<SpeechShape>([...speechFaults, ...speechLatitudes], ctx.faults, { checks: RULES, settings: {} });
    const handle = speechHandler({ checks: modifiers.checks, keys: new Map([[apiKey, Buffer.from(secretKey, 'base64')]]) });
    app.route({ method: ['GET', 'POST'], url: RECOGNIZE_ROUTE, handler: routeReading(modifiers, callReader('recognize'), handle) });
    app.post(STREAMING_ROUTE, routeReading(modifiers, callReader('stream'), handle));
  },

  targetSection(urls, ctx) {
    return {
      url: `${urls.http}${SPEECH_PREFIX}`,
      rateLimit: SPEECH_LIMIT,
      apiKey: ctx.credentials.speech.apiKey,
      secretKey: ctx.credentials.speech.secretKey,
      method: 'GET',
      keyEncoding: 'base64',
      audience: AUDIENCE,
      streaming: { path: STREAMING_PATH, method: 'POST', contentType: NDJSON },
      // A partner whose tokens spell the id jit, the claim list's spelling (the fault that refuses jti is theirs).
      ...(ctx.faults.has('spe-jti-refused-for-jit') ? { tokenIdClaim: 'jit' } : {}),
    };
  },
};
