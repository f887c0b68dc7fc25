/**
 * How the speech suites read their settings, call the recognize method (spec 4.1) and the target's
 * streaming call, and give every verdict its evidence:
 * - a refusal counts only next to a control: a valid call accepted in the same run (`t.control`);
 * - an acceptance counts only when the target tells tokens apart: the same call without a token is
 *   not accepted (otherwise a target that accepts everything would pass every acceptance test);
 * - a 5xx always counts; a redirect or an endless 429 is a tool error, never a verdict.
 */
import { TestRunner } from 'vitest';
import { isSuccess } from '../../harness/checks/answer.ts';
import { accepted } from '../../harness/checks/speech.ts';
import { noServerError, refused } from '../../harness/checks/answer.ts';
import { inconclusive, ToolError } from '../../harness/errors.ts';
import type { CapturedResponse } from '../../harness/http.ts';
import { hmacKey, secretVariants, type KeyEncoding } from '../../harness/speech-token.ts';
import { requirementTest, type RequirementContext } from '../../harness/suite.ts';
import { speechConfig } from '../../harness/config/speech.ts';
import { credentialOf, type Target } from '../../harness/target.ts';
import { expectRefusal } from '../../harness/refusal.ts';
import { ATTACKS, type Attack } from '../../generators/speech-attacks.ts';
import { recognizeBody, streamBody, streamMessages, validCall, validStream, type SpeechCall, type SpeechEndpoint, type SpeechKit } from '../../generators/speech.ts';
import { ScopedMap } from '../../harness/runner/run-scope.ts';

export const RECOGNIZE_PATH = '/v1/stt:recognize';

export interface StreamingSettings {
  url: string;
  method: 'POST' | 'GET';
  contentType: string;
}

export interface SpeechSettings extends SpeechKit {
  url: string;
  method: 'GET' | 'POST';
  /** Where `audience` came from, for failure notes. */
  audienceFrom: 'services.speech.audience' | 'the vendor example (services.speech.audience not set)';
  /** The target's streaming call (services.speech.streaming), when it offers one. */
  streaming?: StreamingSettings;
}

const settingsCache = new WeakMap<Target, SpeechSettings>();

/**
 * The speech settings of the target file (harness/config/speech.ts: typed, checked against the
 * target-file schema, defaults applied; the audience defaults to the vendor's example).
 * Registers every form of the secret with the redactor (the target loader registers it as given).
 */
export function speechSettings(t: RequirementContext): SpeechSettings {
  const cached = settingsCache.get(t.target);
  if (cached) return cached;
  const service = speechConfig(t.target);
  const apiKey = credentialOf(t.target, 'speech', 'apiKey');
  const secretKey = credentialOf(t.target, 'speech', 'secretKey');
  const keyEncoding: KeyEncoding = service.keyEncoding;
  try {
    hmacKey(secretKey, keyEncoding);
  } catch (error) {
    throw new ToolError('TARGET_FILE_INVALID', `${t.target.file}: key "services.speech.secretKey": ${(error as Error).message}`);
  }
  t.target.redactor.register(...secretVariants(secretKey, keyEncoding));
  const base = service.url.replace(/\/$/, '');
  const streaming = service.streaming;
  const settings: SpeechSettings = {
    url: `${base}${RECOGNIZE_PATH}`,
    method: service.method,
    apiKey,
    secretKey,
    keyEncoding,
    audience: service.audience,
    audienceFrom: service.audienceGiven ? 'services.speech.audience' : 'the vendor example (services.speech.audience not set)',
    tokenIdClaim: service.tokenIdClaim,
    ...(streaming ? { streaming: { url: `${base}${streaming.path}`, method: streaming.method, contentType: streaming.contentType } } : {}),
  };
  settingsCache.set(t.target, settings);
  return settings;
}

/** The streaming settings, or an inconclusive NOT_SUPPORTED: the spec's streaming case is optional. */
export function streamingOf(s: SpeechSettings): StreamingSettings {
  if (s.streaming) return s.streaming;
  throw inconclusive('NOT_SUPPORTED', 'the target file declares no streaming call (services.speech.streaming: { path }), so "the first message of the request when streaming" cannot be checked');
}

/**
 * Sends a call with the headers of 4.1: Host (set by the client from the URL), Content-Type:
 * application/json (a stream: the streaming content type) and Authorization (when the call has one).
 */
export async function sendSpeech(t: RequirementContext, s: SpeechSettings, call: SpeechCall): Promise<CapturedResponse> {
  const stream = call.endpoint === 'stream' ? streamingOf(s) : undefined;
  const headers: Record<string, string> = { 'content-type': stream ? stream.contentType : 'application/json' };
  if (call.authorization !== null) headers.authorization = call.authorization;
  const method = stream ? stream.method : s.method;
  const res = await t.client.send({
    area: 'speech',
    operation: stream ? `${method} (streaming call)` : `${method} ${RECOGNIZE_PATH}`,
    sideEffect: 'read',
    method,
    url: stream ? stream.url : s.url,
    headers,
    ...(call.body !== undefined ? { body: call.body } : {}),
  });
  return res;
}

/** What a refused valid token most likely means, for the failure note. */
export function validTokenNote(s: SpeechSettings, what: string): string {
  return `${what}; HMAC key: the secret ${s.keyEncoding === 'base64' ? 'base64-decoded' : 'as given'} (services.speech.keyEncoding), aud ${s.audience} from ${s.audienceFrom}, method ${s.method}`;
}

/** The control of a refusal test: a valid call to the same endpoint, accepted in this run. */
export function validControl(t: RequirementContext, s: SpeechSettings, endpoint: SpeechEndpoint = 'recognize'): Promise<CapturedResponse> {
  return t.control(`speech:${endpoint}:valid`, async () => sendSpeech(t, s, endpoint === 'stream' ? await validStream(s) : await validCall(s)));
}

const noTokenAnswers = new ScopedMap<string, Promise<CapturedResponse>>();

/**
 * The evidence an acceptance needs: the same endpoint refuses a call without a token. Made once per
 * worker and endpoint. When that call is accepted too, an accepted valid token proves nothing, and the
 * test ends inconclusive (SPE-BRR-002 judges the target for it).
 */
export async function tellsTokensApart(t: RequirementContext, s: SpeechSettings, endpoint: SpeechEndpoint = 'recognize'): Promise<void> {
  let pending = noTokenAnswers.get(endpoint);
  if (!pending) {
    const body = endpoint === 'stream' ? streamBody(streamMessages()) : recognizeBody();
    noTokenAnswers.set(endpoint, (pending = sendSpeech(t, s, { authorization: null, body, endpoint })));
    pending.catch(() => noTokenAnswers.delete(endpoint));
  }
  const res = await pending;
  if (isSuccess(res.status)) {
    throw inconclusive('NO_CONTROL', `an acceptance proves nothing here: the same call without any token was accepted too (${res.status}), so the target does not tell valid tokens from none; control: ${res.curl}`);
  }
}

/** The call was accepted, as evidence: a 2xx (a body, if any, JSON) from a target that refuses calls without a token. */
export async function expectAccepted(t: RequirementContext, s: SpeechSettings, res: CapturedResponse, note: string, endpoint: SpeechEndpoint = 'recognize'): Promise<void> {
  t.expectNone(accepted(res, t.id), res, validTokenNote(s, note));
  await tellsTokensApart(t, s, endpoint);
}

/**
 * Sends an attack and expects a refusal with evidence (harness/refusal.ts: a 2xx or a 5xx fails at
 * once, anything else is judged next to its control). A tamper case's original is its control and is
 * sent first (else the case proves nothing: inconclusive); any other attack has the endpoint's valid control.
 */
export async function expectRefused(t: RequirementContext, s: SpeechSettings, built: SpeechCall & { before?: SpeechCall }, row: string): Promise<CapturedResponse> {
  if (built.before) {
    const original = await sendSpeech(t, s, built.before);
    t.expectNone(noServerError(original, t.id), original, `the untampered original of: ${row}`);
    if (!isSuccess(original.status)) {
      throw inconclusive('NO_CONTROL', `the untampered original was answered ${original.status}, so refusing the tampered token proves nothing; original: ${original.curl}`);
    }
  }
  const res = await sendSpeech(t, s, built);
  await expectRefusal(t, res, refused(res, t.id), () => (built.before ? Promise.resolve() : validControl(t, s, built.endpoint)), row);
  return res;
}

/**
 * Reports a measured figure without failing: as a test annotation (shown by reporters, kept in
 * task.meta.measurement) and on the console, both redacted.
 */
export async function reportFigure(t: RequirementContext, text: string): Promise<void> {
  const line = t.target.redactor.redact(`${t.id} measured: ${text}`);
  console.log(line);
  const test = TestRunner.getCurrentTest();
  if (!test) return;
  (test.meta as Record<string, unknown>).measurement = line;
  await test.context.annotate(line, 'measurement');
}

/**
 * One test per attack on each of `requirements` (named here, so a reader and the fault run see what a
 * file proves): the call is refused (neither 2xx nor 5xx, a body JSON), next to its control.
 */
export function attackTests(requirements: readonly string[], matrix: readonly Attack[] = ATTACKS): void {
  const attacks = matrix.filter((a) => requirements.includes(a.requirement));
  const without = requirements.filter((id) => !attacks.some((a) => a.requirement === id));
  if (without.length) throw new Error(`attackTests: no attack in generators/speech-attacks.ts for ${without.join(', ')}`);
  for (const a of attacks) {
    requirementTest(a.requirement, { row: `${a.row} is refused` }, async (t) => {
      const s = speechSettings(t);
      await expectRefused(t, s, await a.build(s), a.row);
    });
  }
}
