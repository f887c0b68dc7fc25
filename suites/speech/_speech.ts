/** How the speech suites read their settings, call the recognize method (spec 4.1) and report figures. */
import { TestRunner } from 'vitest';
import { accepted, REFUSED } from '../../harness/checks/speech.ts';
import { rejectedWith } from '../../harness/checks/status.ts';
import { ToolError } from '../../harness/errors.ts';
import type { CapturedResponse } from '../../harness/http.ts';
import { hmacKey, secretVariants, type KeyEncoding } from '../../harness/speech-token.ts';
import { requirementTest, type RequirementContext } from '../../harness/suite.ts';
import { speechConfig } from '../../harness/config/speech.ts';
import { credentialOf, type Target } from '../../harness/target.ts';
import { ATTACKS, type SpeechCall, type SpeechKit } from '../../generators/speech.ts';

export const RECOGNIZE_PATH = '/v1/stt:recognize';

export interface SpeechSettings extends SpeechKit {
  url: string;
  method: 'GET' | 'POST';
  /** Where `audience` came from, for failure notes. */
  audienceFrom: 'services.speech.audience' | 'the vendor example (services.speech.audience not set)';
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
  const settings: SpeechSettings = {
    url: `${service.url.replace(/\/$/, '')}${RECOGNIZE_PATH}`,
    method: service.method,
    apiKey,
    secretKey,
    keyEncoding,
    audience: service.audience,
    audienceFrom: service.audienceGiven ? 'services.speech.audience' : 'the vendor example (services.speech.audience not set)',
    tokenIdClaim: service.tokenIdClaim,
  };
  settingsCache.set(t.target, settings);
  return settings;
}

export function sendRecognize(t: RequirementContext, s: SpeechSettings, call: SpeechCall): Promise<CapturedResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (call.authorization !== null) headers.authorization = call.authorization;
  return t.client.send({
    area: 'speech',
    operation: `${s.method} ${RECOGNIZE_PATH}`,
    sideEffect: 'read',
    method: s.method,
    url: s.url,
    headers,
    ...(call.body !== undefined ? { body: call.body } : {}),
  });
}

/** What a refused valid token most likely means, for the failure note. */
export function validTokenNote(s: SpeechSettings, what: string): string {
  return `${what}; HMAC key: the secret ${s.keyEncoding === 'base64' ? 'base64-decoded' : 'as given'} (services.speech.keyEncoding), aud ${s.audience} from ${s.audienceFrom}, method ${s.method}`;
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
 * file proves): the call is refused with 401 or 403; a tamper case first proves its original is accepted.
 */
export function attackTests(requirements: readonly string[]): void {
  const attacks = ATTACKS.filter((a) => requirements.includes(a.requirement));
  const without = requirements.filter((id) => !attacks.some((a) => a.requirement === id));
  if (without.length) throw new Error(`attackTests: no attack in generators/speech.ts for ${without.join(', ')}`);
  for (const a of attacks) {
    requirementTest(a.requirement, { row: `${a.row} is refused with 401 or 403` }, async (t) => {
      const s = speechSettings(t);
      const built = await a.build(s);
      if (built.before) {
        const original = await sendRecognize(t, s, built.before);
        t.expectNone(accepted(original, t.id), original, validTokenNote(s, 'the untampered original must be accepted first, or the tampered case proves nothing'));
      }
      const res = await sendRecognize(t, s, built);
      t.expectNone(rejectedWith(res, REFUSED, t.id), res, a.row);
    });
  }
}

