/** How the speech suites read their settings, call the recognize method (spec 4.1) and report figures. */
import { TestRunner } from 'vitest';
import { accepted, REFUSED } from '../../harness/checks/speech.ts';
import { rejectedWith } from '../../harness/checks/status.ts';
import { ToolError } from '../../harness/errors.ts';
import type { CapturedResponse } from '../../harness/http.ts';
import { schemaId, schemaRegistry } from '../../harness/schemas.ts';
import { hmacKey, secretVariants, type KeyEncoding } from '../../harness/speech-token.ts';
import { requirementTest, type RequirementContext } from '../../harness/suite.ts';
import { credentialOf, serviceOf, type Target } from '../../harness/target.ts';
import { ATTACKS, type SpeechCall, type SpeechKit } from '../../generators/speech.ts';

export const RECOGNIZE_PATH = '/v1/stt:recognize';
/** The vendor's example audience for speech recognition (public facts), used when the target names none. */
export const VENDOR_AUDIENCE = 'tinkoff.cloud.stt';

export interface SpeechSettings extends SpeechKit {
  url: string;
  method: 'GET' | 'POST';
  /** Where `audience` came from, for failure notes. */
  audienceFrom: 'services.speech.audience' | 'the vendor example (services.speech.audience not set)';
}

const settingsCache = new WeakMap<Target, SpeechSettings>();

/**
 * The speech settings of the target file, checked against specs/schemas/speech/target-section.json.
 * Registers every form of the secret with the redactor (the target loader registers it as given).
 */
export function speechSettings(t: RequirementContext): SpeechSettings {
  const cached = settingsCache.get(t.target);
  if (cached) return cached;
  const service = serviceOf(t.target, 'speech');
  const validate = schemaRegistry().validator(schemaId('speech/target-section'));
  if (!validate(service)) {
    const e = validate.errors![0];
    const key = `services.speech${e.instancePath.replace(/\//g, '.')}`;
    throw new ToolError('TARGET_FILE_INVALID', `${t.target.file}: key "${key}": ${e.message}`);
  }
  const apiKey = credentialOf(t.target, 'speech', 'apiKey');
  const secretKey = credentialOf(t.target, 'speech', 'secretKey');
  const keyEncoding = (service.keyEncoding as KeyEncoding | undefined) ?? 'raw';
  try {
    hmacKey(secretKey, keyEncoding);
  } catch (error) {
    throw new ToolError('TARGET_FILE_INVALID', `${t.target.file}: key "services.speech.secretKey": ${(error as Error).message}`);
  }
  t.target.redactor.register(...secretVariants(secretKey, keyEncoding));
  const settings: SpeechSettings = {
    url: `${service.url.replace(/\/$/, '')}${RECOGNIZE_PATH}`,
    method: (service.method as 'GET' | 'POST' | undefined) ?? 'GET',
    apiKey,
    secretKey,
    keyEncoding,
    audience: (service.audience as string | undefined) ?? VENDOR_AUDIENCE,
    audienceFrom: service.audience ? 'services.speech.audience' : 'the vendor example (services.speech.audience not set)',
    tokenIdClaim: (service.tokenIdClaim as 'jti' | 'jit' | undefined) ?? 'jti',
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

