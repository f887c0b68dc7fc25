/**
 * How the speech suites call the recognize method (spec 4.1) and the target's streaming call (their
 * settings: ./config.ts, speechSettings), and give every verdict its evidence:
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
import { inconclusive } from '../errors.ts';
import type { CapturedResponse } from '../request/http.ts';
import { requirementTest, type RequirementContext } from '../test/suite.ts';
import { RECOGNIZE_PATH, speechSettings, streamingOf, type SpeechSettings } from './config.ts';
import { expectRefusal } from '../test/refusal.ts';
import { PromiseMemo } from '../test/memo.ts';
import { perScope } from '../runner/run-scope.ts';
import {
  recognizeBody,
  streamBody,
  streamMessages,
  validCall,
  validStream,
  type Attack,
  type SpeechCall,
  type SpeechEndpoint,
} from './requests.ts';

export const OPERATION = `POST ${RECOGNIZE_PATH}`;

/**
 * Sends a call with the headers of 4.1: Host (set by the client from the URL), Content-Type:
 * application/json (a stream: the streaming content type) and Authorization (when the call has one).
 */
export async function sendSpeech(t: RequirementContext, call: SpeechCall): Promise<CapturedResponse> {
  const s = speechSettings(t);
  const stream = call.endpoint === 'stream' ? streamingOf(s) : undefined;
  const headers: Record<string, string> = { 'content-type': stream ? stream.contentType : 'application/json' };
  if (call.authorization !== null) headers.authorization = call.authorization;
  const method = stream ? stream.method : s.method;
  return t.client.send({
    area: 'speech',
    operation: stream ? `${method} (streaming call)` : `${method} ${RECOGNIZE_PATH}`,
    sideEffect: 'read',
    method,
    url: stream ? stream.url : s.url,
    headers,
    ...(call.body !== undefined ? { body: call.body } : {}),
  });
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
async function acceptedControl(
  t: RequirementContext,
  res: CapturedResponse,
  what: string,
  endpoint: SpeechEndpoint,
): Promise<CapturedResponse> {
  if (isAccepted(res)) return res;
  const verdict = tokenAcceptance(res, await tokenRefusals(t, endpoint), t.id);
  if (!verdict.failures.length && !verdict.noEvidence) return res;
  throw inconclusive(
    'NO_CONTROL',
    `${what} was answered ${res.status}, not as a call whose token is accepted (${verdict.noEvidence ?? verdict.failures[0].received}), so a refusal proves nothing; control: ${res.curl}`,
  );
}

/** The plain valid call to `endpoint`, sent once per worker (the shared control of harness/test/suite.ts), whatever it was answered. */
function validAnswer(t: RequirementContext, endpoint: SpeechEndpoint): Promise<CapturedResponse> {
  const s = speechSettings(t);
  return t.control(
    `speech:${endpoint}:valid`,
    async () => sendSpeech(t, endpoint === 'stream' ? await validStream(s) : await validCall(s)),
    () => true,
  );
}

/** The control of a refusal test: a valid call to the same endpoint, its token accepted in this run (`acceptedControl`). */
export async function control(t: RequirementContext, endpoint: SpeechEndpoint = 'recognize'): Promise<CapturedResponse> {
  return acceptedControl(t, await validAnswer(t, endpoint), 'the control request (a valid call, with valid credentials)', endpoint);
}

// A reference that failed to send is asked again by the next test.
const references = perScope(() => new PromiseMemo<SpeechEndpoint, TokenRefusals>('forget'));

/**
 * How the endpoint refuses bad tokens: the same kind of call without a token, and with a token signed
 * with another secret. Made once per worker and endpoint; what an acceptance is judged against.
 */
export function tokenRefusals(t: RequirementContext, endpoint: SpeechEndpoint = 'recognize'): Promise<TokenRefusals> {
  return references().get(endpoint, async () => {
    const s = speechSettings(t);
    const body = endpoint === 'stream' ? streamBody(streamMessages()) : recognizeBody();
    const none = await sendSpeech(t, { authorization: null, body, endpoint });
    const other = { ...s, secretKey: s.keyEncoding === 'base64' ? randomBytes(32).toString('base64') : randomBytes(24).toString('hex') };
    const wrongSecret = await sendSpeech(t, endpoint === 'stream' ? await validStream(other) : await validCall(other));
    return { none, wrongSecret };
  });
}

/**
 * The token of the call was accepted, as evidence (harness/speech/checks.ts, tokenAcceptance): a 2xx, or
 * an answer that neither a call without a token nor one with a wrongly signed token got, from a target
 * that refuses both. Returns how the acceptance was seen.
 */
export async function expectAccepted(
  t: RequirementContext,
  res: CapturedResponse,
  note: string,
  endpoint: SpeechEndpoint = 'recognize',
): Promise<string> {
  const s = speechSettings(t);
  t.expectNone(noServerError(res, t.id), res, validTokenNote(s, note));
  const verdict = tokenAcceptance(res, await tokenRefusals(t, endpoint), t.id, await tokenRefusalOf(t));
  t.expectNone(verdict.failures, res, validTokenNote(s, note));
  if (verdict.noEvidence) throw inconclusive('NO_CONTROL', verdict.noEvidence);
  return verdict.seen!;
}

/**
 * For a test whose own token is a valid token changed in one respect (an aud naming a set, upper-case
 * hex, a time probe): the plain valid call (the control's, sent once per worker) must have been seen
 * accepted first. When it was not, SPE-TOK-001 and SPE-HDR-001 fail on that one cause, and this test is
 * inconclusive.
 */
export async function plainTokenAccepted(t: RequirementContext): Promise<CapturedResponse> {
  const { plain, accepted } = await plainToken(t);
  if (!accepted) {
    throw inconclusive(
      'PRECONDITION_MISSING',
      `the plain valid call (the claims of 2.1, the token id spelled ${speechSettings(t).tokenIdClaim}) was not seen accepted (${plain.status}): SPE-TOK-001 and SPE-HDR-001 judge that, and this variation of it proves nothing alone; plain call: ${plain.curl}`,
    );
  }
  return plain;
}

/** The plain valid call (the control's, sent once per worker), and whether its token was seen accepted. */
async function plainToken(t: RequirementContext): Promise<{ plain: CapturedResponse; accepted: boolean }> {
  const plain = await validAnswer(t, 'recognize');
  const verdict = tokenAcceptance(plain, await tokenRefusals(t), t.id);
  return { plain, accepted: !verdict.failures.length && !verdict.noEvidence };
}

/** The requirement whose subject it is that a valid token is accepted (a test of a variation of it takes that as given). */
export const TOKEN_ACCEPTED = 'SPE-TOK-001';

/**
 * Whose defect a valid token refused (401, 403) is: where the plain valid token was not seen accepted
 * either, SPE-TOK-001's, which the test takes as given (`dependsOn`); else the test's own.
 */
export async function tokenRefusalOf(t: RequirementContext): Promise<string> {
  return (await plainToken(t)).accepted ? t.id : TOKEN_ACCEPTED;
}

/**
 * A tamper case's control: its untampered original, sent before the tampered call and seen accepted
 * (else the case proves nothing: inconclusive).
 */
export async function originalControl(t: RequirementContext, original: SpeechCall, row: string): Promise<CapturedResponse> {
  const res = await sendSpeech(t, original);
  t.expectNone(noServerError(res, t.id), res, `the untampered original of: ${row}`);
  return acceptedControl(t, res, 'the untampered original', original.endpoint ?? 'recognize');
}

export interface RefusalOptions {
  /** What the request was, for the failure note. */
  note?: string;
  /** The endpoint whose valid call is the control. Default: recognize. */
  endpoint?: SpeechEndpoint;
  /** A control already seen accepted for this case (a tamper case's original: `originalControl`), instead of the endpoint's. */
  control?: CapturedResponse;
}

/**
 * An answer refused with evidence (harness/test/refusal.ts: a 2xx or a 5xx fails at once, anything else is
 * judged next to its control; any body or none). A valid token answered for its audio (not a 2xx): the
 * same answer to this call means its token passed as well.
 */
export async function expectRefused(t: RequirementContext, res: CapturedResponse, options: RefusalOptions = {}): Promise<CapturedResponse> {
  const { note, endpoint = 'recognize' } = options;
  let served = options.control;
  await expectRefusal(t, res, refused(res, t.id), async () => void (served ??= await control(t, endpoint)), note, { jsonBody: false });
  if (!isSuccess(served!.status) && res.status === served!.status) {
    t.expectNone(
      [
        failure(
          t.id,
          'refused for its token',
          `answered ${res.status}, as the valid token was (${served!.status}): its token passed, and the call was answered for something else`,
        ),
      ],
      res,
      note,
    );
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
 * One test per attack of `matrix` on each of `requirements` (named here, so a reader and the fault run
 * see what a file proves): the call is refused (neither 2xx nor 5xx), next to its control. A tamper
 * case's original is sent first and is its control.
 */
export function attackTests(requirements: readonly string[], matrix: readonly Attack[]): void {
  const attacks = matrix.filter((a) => requirements.includes(a.requirement));
  const without = requirements.filter((id) => !attacks.some((a) => a.requirement === id));
  if (without.length) throw new Error(`attackTests: no attack in generators/speech/attacks.ts for ${without.join(', ')}`);
  for (const a of attacks) {
    requirementTest(a.requirement, { row: `${a.row} is refused` }, async (t) => {
      const built = await a.build(speechSettings(t));
      const original = built.before ? await originalControl(t, built.before, a.row) : undefined;
      const res = await sendSpeech(t, built);
      await expectRefused(t, res, { note: a.row, endpoint: built.endpoint ?? 'recognize', ...(original ? { control: original } : {}) });
    });
  }
}
