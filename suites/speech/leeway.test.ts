/**
 * Spec 2.1: exp, nbf and iat. How much clock leeway the target grants is not in the spec: it is
 * measured with a bounded ladder of probes per claim and reported (annotation and console), not judged.
 */
import { describe } from 'vitest';
import { isSuccess } from '../../harness/checks/answer.ts';
import { clockOffsetSeconds, leewayFigure, type LeewayProbe } from '../../harness/speech/checks.ts';
import { requirementTest } from '../../harness/test/suite.ts';
import { sampleClaims, unixNow, validCall } from '../../harness/speech/requests.ts';
import { expectAccepted, plainTokenAccepted, reportFigure, sendSpeech } from '../../harness/speech/client.ts';
import { speechSettings } from '../../harness/speech/config.ts';

const LADDER_SECONDS = [2, 10, 20, 45, 75, 150, 300];
const PROBES: Record<'exp' | 'nbf' | 'iat', (now: number, x: number) => Record<string, number>> = {
  exp: (now, x) => ({ exp: now - x, iat: now - x - 600, nbf: now - x - 600 }),
  nbf: (now, x) => ({ nbf: now + x, exp: now + x + 600 }),
  iat: (now, x) => ({ iat: now + x }),
};

describe('speech: clock leeway', () => {
  requirementTest('SPE-TIM-005', { timeoutMs: 120_000 }, async (t) => {
    const s = speechSettings(t);
    const sentAt = Date.now();
    const baseline = await sendSpeech(t, await validCall(s));
    await plainTokenAccepted(t);
    await expectAccepted(t, baseline, 'a valid token must be accepted before the leeway can be measured');
    const offset = clockOffsetSeconds(baseline, sentAt);
    const figures = [];
    for (const [claim, changes] of Object.entries(PROBES)) {
      const probes: LeewayProbe[] = [];
      for (const x of LADDER_SECONDS) {
        const res = await sendSpeech(t, await validCall(s, sampleClaims(s, changes(unixNow(), x))));
        // Accepted as the valid token was: its 2xx, or (a target that refuses the audio) the same status.
        probes.push({
          offsetSeconds: x,
          status: res.status,
          accepted: isSuccess(baseline.status) ? isSuccess(res.status) : res.status === baseline.status,
        });
      }
      figures.push(leewayFigure(claim, probes, t.id));
    }
    const clock =
      offset === undefined
        ? 'target clock unknown (no Date header)'
        : `target clock ${offset >= 0 ? '+' : ''}${offset} s from ours (Date header)`;
    const text = `${figures.map((f) => f.text).join('; ')}; ${clock}`;
    await reportFigure(t, text);
    t.expectNone(
      figures.flatMap((f) => f.failures),
      undefined,
      text,
    );
  });
});
