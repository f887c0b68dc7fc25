/**
 * Spec 2.1, 4.1 and 5.1: tokens built as the spec says are accepted; the token id's two spellings; the
 * request headers of 4.1. Every acceptance is evidence only from a target that refuses a call without
 * a token (`expectAccepted`).
 */
import { describe } from 'vitest';
import { conformsTo } from '../../harness/checks/body.ts';
import { isSuccess, noServerError } from '../../harness/checks/answer.ts';
import { jsonWhereBody } from '../../harness/checks/json-answer.ts';
import { failure } from '../../harness/checks/failure.ts';
import { ToolError } from '../../harness/errors.ts';
import { accepted } from '../../harness/checks/speech.ts';
import { schemaId } from '../../harness/schemas.ts';
import { requirementTest } from '../../harness/suite.ts';
import { claimsAt, claimsDraft, recognizeBody, sampleClaims, validCall } from '../../generators/speech.ts';
import { expectAccepted, reportFigure, sendSpeech, speechSettings, tellsTokensApart, validTokenNote } from './_speech.ts';

describe('speech: valid tokens', () => {
  requirementTest('SPE-TOK-001', async (t) => {
    const s = speechSettings(t);
    await t.property(claimsDraft(), async (draft) => {
      const call = await validCall(s, claimsAt(draft, s));
      const res = await sendSpeech(t, s, call);
      t.expectNone(accepted(res, t.id), res, validTokenNote(s, `claims ${JSON.stringify(call.claims)}`));
    });
    await tellsTokensApart(t, s);
  });

  requirementTest('SPE-JTI-001', async (t) => {
    const s = speechSettings(t);
    const answers = [];
    for (const spelling of ['jti', 'jit'] as const) {
      answers.push({ spelling, res: await sendSpeech(t, s, await validCall(s, sampleClaims({ ...s, tokenIdClaim: spelling }))) });
    }
    const verdict = (st: number) => (isSuccess(st) ? `accepted (${st})` : `refused (${st})`);
    await reportFigure(t, answers.map(({ spelling, res }) => `token id spelled ${spelling}: ${verdict(res.status)}`).join('; '));
    const first = answers.find(({ res }) => isSuccess(res.status));
    for (const { spelling, res } of answers) t.expectNone([...noServerError(res, t.id), ...jsonWhereBody(res, t.id)], res, `a valid token with its id spelled ${spelling}`);
    if (!first) {
      t.expectNone([failure(t.id, 'a token accepted with its id spelled jti or jit', answers.map(({ spelling, res }) => `${spelling} → ${res.status}`).join(', '))], answers[0].res, validTokenNote(s, 'two otherwise valid tokens, one per spelling'));
      return;
    }
    await expectAccepted(t, s, first.res, `a valid token with its id spelled ${first.spelling}`);
  });

  requirementTest('SPE-JTI-002', async (t) => {
    const s = speechSettings(t);
    const res = await sendSpeech(t, s, await validCall(s, sampleClaims({ ...s, tokenIdClaim: 'jti' })));
    await expectAccepted(t, s, res, 'a valid token with its id spelled jti');
  });

  requirementTest('SPE-HDR-001', async (t) => {
    const s = speechSettings(t);
    const call = await validCall(s, sampleClaims(s), recognizeBody());
    const res = await sendSpeech(t, s, call);
    const sent = Object.keys(res.request.headers).map((h) => h.toLowerCase()).sort();
    if (sent.join() !== 'authorization,content-type' || res.request.headers['content-type'] !== 'application/json' || !/^Bearer \S+$/.test(res.request.headers.authorization ?? '')) {
      throw new ToolError('SUITE_ERROR', `the suite did not send the headers of 4.1 (it sent ${sent.join(', ')})`);
    }
    await expectAccepted(t, s, res, 'a valid call with exactly the headers of 4.1: Host, Content-Type: application/json, Authorization: Bearer');
  });

  requirementTest('SPE-RSP-001', async (t) => {
    const s = speechSettings(t);
    const res = await sendSpeech(t, s, await validCall(s));
    await expectAccepted(t, s, res, 'a valid recognize call');
    t.expectNone(conformsTo(res, schemaId('speech/recognize-response'), t.id), res);
  });
});
