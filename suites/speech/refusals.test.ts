/**
 * Spec 5.1: how refusals look. Exactly 401 with a JSON body, if any, for every refused token is a
 * policy (RFC 6750 section 3.1; part 7 shows no speech error); and no answer may hand back the token or
 * the secret (key handling: the secret is known to one service only).
 */
import { describe } from 'vitest';
import { isSuccess } from '../../harness/checks/answer.ts';
import type { Failure } from '../../harness/checks/failure.ts';
import { echoesNoSecret, isAccepted, refusedWith401 } from '../../harness/speech/checks.ts';
import { inconclusive } from '../../harness/errors.ts';
import type { CapturedResponse } from '../../harness/request/http.ts';
import { requirement } from '../../harness/spec/requirements.ts';
import { secretVariants } from '../../harness/speech/token.ts';
import { requirementTest } from '../../harness/test/suite.ts';
import { ATTACKS } from '../../generators/speech/attacks.ts';
import { validCall, type SpeechCall } from '../../harness/speech/requests.ts';
import { sendSpeech, control } from '../../harness/speech/client.ts';
import { speechSettings } from '../../harness/speech/config.ts';

/** The token in an Authorization value, whatever the scheme. */
const tokenOf = (authorization: string | null) => (authorization ?? '').trim().split(/\s+/).pop() ?? '';
/** The attacks the spec itself asks to refuse: the 401 policy judges how those refusals look. */
const SPEC_ATTACKS = ATTACKS.filter((a) => requirement(a.requirement).source === 'spec');
const ONE_PER_REQUIREMENT = ATTACKS.filter((a, i) => ATTACKS.findIndex((b) => b.requirement === a.requirement) === i);

describe('speech: refusals', () => {
  requirementTest('SPE-STA-001', { timeoutMs: 120_000 }, async (t) => {
    const s = speechSettings(t);
    const served = await control(t);
    const failures: Failure[] = [];
    let firstOff: CapturedResponse | undefined;
    let judged = 0;
    for (const a of SPEC_ATTACKS) {
      const built = await a.build(s);
      if (built.before) await sendSpeech(t, built.before);
      const res = await sendSpeech(t, built);
      // An accepted attack, or one answered as the valid token was, is its own requirement's failure; this policy judges how refusals look.
      if (isSuccess(res.status) || res.status === served.status) continue;
      judged++;
      const off = refusedWith401(res, t.id, `${a.row} (${a.requirement})`);
      failures.push(...off);
      if (off.length) firstOff ??= res;
    }
    t.expectNone(failures, firstOff);
    if (judged === 0) throw inconclusive('NO_CONTROL', 'no attack was refused, so there was no refusal whose status could be judged');
  });

  requirementTest('SPE-KEY-001', { timeoutMs: 120_000 }, async (t) => {
    const s = speechSettings(t);
    const secrets = secretVariants(s.secretKey, s.keyEncoding).map((v) => ['secret key', v] as const);
    const valid = await validCall(s);
    const calls: Array<[string, SpeechCall]> = [['a valid call', valid]];
    for (const a of ONE_PER_REQUIREMENT) calls.push([a.row, await a.build(s)]);
    let acceptedSeen = false;
    for (const [what, call] of calls) {
      const res = await sendSpeech(t, call);
      if (call === valid) acceptedSeen = isAccepted(res);
      const parts = tokenOf(call.authorization).split('.');
      const sent = [
        ...(parts.length === 3 ? [['token sent', parts.join('.')] as const] : []),
        ...(parts.length === 3 && parts[2].length >= 16 ? [['token signature sent', parts[2]] as const] : []),
      ];
      t.expectNone(echoesNoSecret(res, [...sent, ...secrets], t.id), res, what);
    }
    // Refusals that show no secret are half the evidence: the accepted answer must have been searched too.
    if (!acceptedSeen)
      throw inconclusive(
        'NO_CONTROL',
        'the valid call was not accepted, so no accepted answer could be searched for the token or the secret',
      );
  });
});
