/**
 * Spec 5.1: how refusals look. The vendor's convention is exactly 401 for every refused token; and no
 * answer may hand back the token or the secret (key handling: the secret is known to one service only).
 */
import { describe } from 'vitest';
import { failure, type Failure } from '../../harness/checks/failure.ts';
import { echoesNoSecret } from '../../harness/checks/speech.ts';
import type { CapturedResponse } from '../../harness/http.ts';
import { secretVariants } from '../../harness/speech-token.ts';
import { requirementTest } from '../../harness/suite.ts';
import { ATTACKS, validCall, type SpeechCall } from '../../generators/speech.ts';
import { sendRecognize, speechSettings } from './_speech.ts';

/** The token in an Authorization value, whatever the scheme. */
const tokenOf = (authorization: string | null) => (authorization ?? '').trim().split(/\s+/).pop() ?? '';

describe('speech: refusals', () => {
  requirementTest('SPE-STA-001', { timeoutMs: 120_000 }, async (t) => {
    const s = speechSettings(t);
    const failures: Failure[] = [];
    let firstOff: CapturedResponse | undefined;
    for (const a of ATTACKS) {
      const res = await sendRecognize(t, s, await a.build(s));
      if (res.status === 401) continue;
      failures.push(failure(t.id, `401 for ${a.row} (${a.requirement})`, `status ${res.status}`));
      firstOff ??= res;
    }
    t.expectNone(failures, firstOff);
  });

  requirementTest('SPE-KEY-001', { timeoutMs: 120_000 }, async (t) => {
    const s = speechSettings(t);
    const secrets = secretVariants(s.secretKey, s.keyEncoding).map((v) => ['secret key', v] as const);
    const onePerRequirement = ATTACKS.filter((a, i) => ATTACKS.findIndex((b) => b.requirement === a.requirement) === i);
    const calls: Array<[string, SpeechCall]> = [['a valid call', await validCall(s)]];
    for (const a of onePerRequirement) calls.push([a.row, await a.build(s)]);
    for (const [what, call] of calls) {
      const res = await sendRecognize(t, s, call);
      const token = tokenOf(call.authorization);
      const parts = token.split('.');
      const sent = [
        ...(parts.length === 3 ? [['token sent', token] as const] : []),
        ...(parts.length === 3 && parts[2].length >= 16 ? [['token signature sent', parts[2]] as const] : []),
      ];
      t.expectNone(echoesNoSecret(res, [...sent, ...secrets], t.id), res, what);
    }
  });
});
