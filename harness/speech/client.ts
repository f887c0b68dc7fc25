/**
 * How the speech suites read their settings, call the recognize method (spec 4.1) and the target's
 * streaming call, and give every verdict its evidence:
 * - a refusal counts only next to a control: a valid call whose token was accepted in the same run
 *   (`t.control`); where that call was answered for its audio (not a 2xx), an attack answered the same
 *   way got past the token check, which fails;
 * - an acceptance counts only when the target tells tokens apart: the same call without a token, and
 *   with a token signed with another secret, is not accepted (otherwise a target that accepts everything
 *   would pass every acceptance test); and a valid token counts as accepted when it is not refused as
 *   those were, even if the call is answered otherwise for its audio (the spec shows no body);
 * - part 7 shows no speech error, so a refusal is judged by its status alone (how its body is written
 *   is SPE-STA-001's policy);
 * - a 5xx always counts; a redirect or an endless 429 is a tool error, never a verdict.
 */
import { randomBytes } from 'node:crypto';
import { TestRunner } from 'vitest';
import { isSuccess, noServerError, refused } from '../checks/answer.ts';
import { failure } from '../checks/failure.ts';
import { isAccepted, tokenAcceptance, type TokenRefusals } from './checks.ts';
import { inconclusive, ToolError } from '../errors.ts';
import type { CapturedResponse } from '../http.ts';
import { hmacKey, secretVariants, type KeyEncoding } from './token.ts';
import { requirementTest, type RequirementContext } from '../suite.ts';
import { speechConfig } from './config.ts';
import { credentialOf, type Target } from '../target.ts';
import { expectRefusal } from '../refusal.ts';
import { ATTACKS, type Attack } from '../../generators/speech/attacks.ts';
import { recognizeBody, streamBody, streamMessages, validCall, validStream, type SpeechCall, type SpeechEndpoint, type SpeechKit } from '../../generators/speech/calls.ts';
import { ScopedMap } from '../runner/run-scope.ts';

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

/**
 * Whether a valid call proves that the target accepts good tokens: a 2xx with a JSON body, if any (part
 * 4), or, where the call was answered for its audio, a token accepted as tokenAcceptance reads it. The
 * valid call's answer, or an inconclusive NO_CONTROL naming `what`.
 */
async function acceptedControl(t: RequirementContext, s: SpeechSettings, res: CapturedResponse, what: string, endpoint: SpeechEndpoint): Promise<CapturedResponse> {
  if (isAccepted(res)) return res;
  const verdict = tokenAcceptance(res, await tokenRefusals(t, s, endpoint), t.id);
  if (!verdict.failures.length && !verdict.noEvidence) return res;
  throw inconclusive('NO_CONTROL', `${what} was answered ${res.status}, not as a call whose token is accepted (${verdict.noEvidence ?? verdict.failures[0].received}), so a refusal proves nothing; control: ${res.curl}`);
}

/** The control of a refusal test: a valid call to the same endpoint, its token accepted in this run (`acceptedControl`). */
export async function validControl(t: RequirementContext, s: SpeechSettings, endpoint: SpeechEndpoint = 'recognize'): Promise<CapturedResponse> {
  const res = await t.control(`speech:${endpoint}:valid`, async () => sendSpeech(t, s, endpoint === 'stream' ? await validStream(s) : await validCall(s)), () => true);
  return acceptedControl(t, s, res, 'the control request (a valid call, with valid credentials)', endpoint);
}

const references = new ScopedMap<string, Promise<TokenRefusals>>();

/**
 * How the endpoint refuses bad tokens: the same kind of call without a token, and with a token signed
 * with another secret. Made once per worker and endpoint; what an acceptance is judged against.
 */
export function tokenRefusals(t: RequirementContext, s: SpeechSettings, endpoint: SpeechEndpoint = 'recognize'): Promise<TokenRefusals> {
  let pending = references.get(endpoint);
  if (!pending) {
    const send = async (): Promise<TokenRefusals> => {
      const body = endpoint === 'stream' ? streamBody(streamMessages()) : recognizeBody();
      const none = await sendSpeech(t, s, { authorization: null, body, endpoint });
      const other = { ...s, secretKey: s.keyEncoding === 'base64' ? randomBytes(32).toString('base64') : randomBytes(24).toString('hex') };
      const wrongSecret = await sendSpeech(t, s, endpoint === 'stream' ? await validStream(other) : await validCall(other));
      return { none, wrongSecret };
    };
    references.set(endpoint, (pending = send()));
    pending.catch(() => references.delete(endpoint));
  }
  return pending;
}

/**
 * The token of the call was accepted, as evidence (harness/checks/speech.ts, tokenAcceptance): a 2xx, or
 * an answer that neither a call without a token nor one with a wrongly signed token got, from a target
 * that refuses both. Returns how the acceptance was seen.
 */
export async function expectAccepted(t: RequirementContext, s: SpeechSettings, res: CapturedResponse, note: string, endpoint: SpeechEndpoint = 'recognize'): Promise<string> {
  t.expectNone(noServerError(res, t.id), res, validTokenNote(s, note));
  const verdict = tokenAcceptance(res, await tokenRefusals(t, s, endpoint), t.id);
  t.expectNone(verdict.failures, res, validTokenNote(s, note));
  if (verdict.noEvidence) throw inconclusive('NO_CONTROL', verdict.noEvidence);
  return verdict.seen!;
}

const plainCalls = new ScopedMap<string, Promise<CapturedResponse>>();

/**
 * For a test whose own token is a valid token changed in one respect (an aud naming a set, upper-case
 * hex, a time probe): the plain valid call, sent once per worker, must have been seen accepted first.
 * When it was not, SPE-TOK-001 and SPE-HDR-001 fail on that one cause, and this test is inconclusive.
 */
export async function plainTokenAccepted(t: RequirementContext, s: SpeechSettings): Promise<CapturedResponse> {
  let pending = plainCalls.get('recognize');
  if (!pending) {
    plainCalls.set('recognize', (pending = (async () => sendSpeech(t, s, await validCall(s)))()));
    pending.catch(() => plainCalls.delete('recognize'));
  }
  const plain = await pending;
  const verdict = tokenAcceptance(plain, await tokenRefusals(t, s), t.id);
  if (verdict.failures.length || verdict.noEvidence) {
    throw inconclusive('PRECONDITION_MISSING', `the plain valid call (the claims of 2.1, the token id spelled ${s.tokenIdClaim}) was not seen accepted (${plain.status}): SPE-TOK-001 and SPE-HDR-001 judge that, and this variation of it proves nothing alone; plain call: ${plain.curl}`);
  }
  return plain;
}

/**
 * Sends an attack and expects a refusal with evidence (harness/refusal.ts: a 2xx or a 5xx fails at
 * once, anything else is judged next to its control; any body or none). A tamper case's original is its control and is
 * sent first (else the case proves nothing: inconclusive); any other attack has the endpoint's valid control.
 */
export async function expectRefused(t: RequirementContext, s: SpeechSettings, built: SpeechCall & { before?: SpeechCall }, row: string): Promise<CapturedResponse> {
  const endpoint = built.endpoint ?? 'recognize';
  let control: CapturedResponse | undefined;
  if (built.before) {
    const original = await sendSpeech(t, s, built.before);
    t.expectNone(noServerError(original, t.id), original, `the untampered original of: ${row}`);
    control = await acceptedControl(t, s, original, 'the untampered original', endpoint);
  }
  const res = await sendSpeech(t, s, built);
  await expectRefusal(t, res, refused(res, t.id), async () => void (control ??= await validControl(t, s, endpoint)), row, { jsonBody: false });
  // A valid token answered for its audio (not a 2xx): the same answer to this call means its token passed as well.
  if (!isSuccess(control!.status) && res.status === control!.status) {
    t.expectNone([failure(t.id, 'refused for its token', `answered ${res.status}, as the valid token was (${control!.status}): its token passed, and the call was answered for something else`)], res, row);
  }
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
 * file proves): the call is refused (neither 2xx nor 5xx), next to its control.
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
