/** Spec 2.1, 4.1 and 5.1: tokens built as the spec says are accepted; the token id's two spellings. */
import { describe } from 'vitest';
import { conformsTo, contentTypeIn } from '../../harness/checks/body.ts';
import { failure } from '../../harness/checks/failure.ts';
import { accepted } from '../../harness/checks/speech.ts';
import { schemaId } from '../../harness/schemas.ts';
import { requirementTest } from '../../harness/suite.ts';
import { claimsAt, claimsDraft, sampleClaims, validCall } from '../../generators/speech.ts';
import { reportFigure, sendRecognize, speechSettings, validTokenNote } from './_speech.ts';

const isSuccess = (status: number) => status >= 200 && status < 300;

describe('speech: valid tokens', () => {
  requirementTest('SPE-TOK-001', async (t) => {
    const s = speechSettings(t);
    await t.property(claimsDraft(), async (draft) => {
      const call = await validCall(s, claimsAt(draft, s));
      const res = await sendRecognize(t, s, call);
      t.expectNone(accepted(res, t.id), res, validTokenNote(s, `claims ${JSON.stringify(call.claims)}`));
    });
  });

  requirementTest('SPE-JTI-001', async (t) => {
    const s = speechSettings(t);
    const statuses: Record<string, number> = {};
    for (const spelling of ['jti', 'jit'] as const) {
      const res = await sendRecognize(t, s, await validCall(s, sampleClaims({ ...s, tokenIdClaim: spelling })));
      statuses[spelling] = res.status;
    }
    const verdict = (st: number) => (isSuccess(st) ? `accepted (${st})` : `refused (${st})`);
    await reportFigure(t, `token id spelled jti: ${verdict(statuses.jti)}; spelled jit: ${verdict(statuses.jit)}`);
    const anyAccepted = isSuccess(statuses.jti) || isSuccess(statuses.jit);
    const serverErrors = Object.entries(statuses).filter(([, st]) => st >= 500);
    t.expectNone([
      ...(anyAccepted ? [] : [failure(t.id, 'a token accepted with its id spelled jti or jit', `jti → ${statuses.jti}, jit → ${statuses.jit}`)]),
      ...serverErrors.map(([spelling, st]) => failure(t.id, `no server error for a token id spelled ${spelling}`, `status ${st}`)),
    ], undefined, validTokenNote(s, 'two otherwise valid tokens, one per spelling'));
  });

  requirementTest('SPE-JTI-002', async (t) => {
    const s = speechSettings(t);
    const res = await sendRecognize(t, s, await validCall(s, sampleClaims({ ...s, tokenIdClaim: 'jti' })));
    t.expectNone(accepted(res, t.id), res, validTokenNote(s, 'a valid token with its id spelled jti'));
  });

  requirementTest('SPE-RSP-001', async (t) => {
    const s = speechSettings(t);
    const res = await sendRecognize(t, s, await validCall(s));
    t.expectNone(accepted(res, t.id), res, validTokenNote(s, 'a valid recognize call'));
    t.expectNone([...contentTypeIn(res, ['application/json'], t.id), ...conformsTo(res, schemaId('speech/recognize-response'), t.id)], res);
  });
});
