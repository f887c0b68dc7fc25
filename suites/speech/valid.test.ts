/**
 * Spec 2.1, 4.1 and 5.1: tokens built as the spec says are accepted; the token id's two spellings; the
 * request headers of 4.1; an audience naming a set of services. Every acceptance is evidence only from
 * a target that refuses the same call without a token and with a wrongly signed one, and a token counts
 * as accepted when it is not refused as those were (`expectAccepted`): the spec shows no recognize
 * body, so an answer about the audio is no refusal of the token.
 */
import { describe } from 'vitest';
import { conformsTo } from '../../harness/checks/body.ts';
import { isRefusal, noServerError } from '../../harness/checks/answer.ts';
import { failure } from '../../harness/checks/failure.ts';
import { tokenAcceptance, VALID_TOKEN_REFUSED, type TokenVerdict } from '../../harness/speech/checks.ts';
import { inconclusive, ToolError } from '../../harness/errors.ts';
import type { CapturedResponse } from '../../harness/request/http.ts';
import { schemaId } from '../../harness/spec/schemas.ts';
import { requirementTest } from '../../harness/test/suite.ts';
import { claimsDraft } from '../../generators/speech/calls.ts';
import { claimsAt, recognizeBody, sampleClaims, validCall } from '../../harness/speech/requests.ts';
import {
  expectAccepted,
  plainTokenAccepted,
  reportFigure,
  sendSpeech,
  tokenRefusalOf,
  tokenRefusals,
  validTokenNote,
} from '../../harness/speech/client.ts';
import { speechSettings } from '../../harness/speech/config.ts';

describe('speech: valid tokens', () => {
  requirementTest('SPE-TOK-001', async (t) => {
    const s = speechSettings(t);
    const refusals = await tokenRefusals(t);
    await t.property(claimsDraft(), async (draft) => {
      const call = await validCall(s, claimsAt(draft, s));
      const res = await sendSpeech(t, call);
      const verdict = tokenAcceptance(res, refusals, t.id);
      t.expectNone(verdict.failures, res, validTokenNote(s, `claims ${JSON.stringify(call.claims)}`));
      if (verdict.noEvidence) throw inconclusive('NO_CONTROL', verdict.noEvidence);
    });
  });

  requirementTest('SPE-JTI-001', async (t) => {
    const s = speechSettings(t);
    const refusals = await tokenRefusals(t);
    const answers: Array<{ spelling: 'jti' | 'jit'; res: CapturedResponse; verdict: TokenVerdict }> = [];
    for (const spelling of ['jti', 'jit'] as const) {
      const res = await sendSpeech(t, await validCall(s, sampleClaims({ ...s, tokenIdClaim: spelling })));
      answers.push({ spelling, res, verdict: tokenAcceptance(res, refusals, t.id) });
    }
    const said = ({ res, verdict }: (typeof answers)[number]) =>
      verdict.noEvidence
        ? `no evidence (${res.status})`
        : verdict.failures.length
          ? `not accepted (${res.status})`
          : `accepted (${res.status})`;
    await reportFigure(t, answers.map((a) => `token id spelled ${a.spelling}: ${said(a)}`).join('; '));
    for (const { spelling, res } of answers) t.expectNone(noServerError(res, t.id), res, `a valid token with its id spelled ${spelling}`);
    if (answers.some((a) => !a.verdict.noEvidence && !a.verdict.failures.length)) return;
    const unknown = answers.find((a) => a.verdict.noEvidence);
    if (unknown)
      throw inconclusive(
        'NO_CONTROL',
        `neither spelling was seen accepted; with its id spelled ${unknown.spelling}: ${unknown.verdict.noEvidence}`,
      );
    const why = answers.map((a) => `${a.spelling}: ${a.verdict.failures.map((f) => f.received).join('; ')}`).join(' | ');
    // Where the plain valid token is refused as well, the refusal is SPE-TOK-001's, which this test takes as given.
    t.expectNone(
      [
        {
          ...failure(await tokenRefusalOf(t), 'a token accepted with its id spelled jti or jit', why),
          ...(answers.every((a) => a.verdict.failures.every((f) => f.defect === VALID_TOKEN_REFUSED))
            ? { defect: VALID_TOKEN_REFUSED }
            : {}),
        },
      ],
      answers[0].res,
      validTokenNote(s, 'two otherwise valid tokens, one per spelling'),
    );
  });

  requirementTest('SPE-JTI-002', async (t) => {
    const s = speechSettings(t);
    const res = await sendSpeech(t, await validCall(s, sampleClaims({ ...s, tokenIdClaim: 'jti' })));
    await expectAccepted(t, res, 'a valid token with its id spelled jti');
  });

  requirementTest('SPE-HDR-001', async (t) => {
    const s = speechSettings(t);
    const call = await validCall(s, sampleClaims(s), recognizeBody());
    const res = await sendSpeech(t, call);
    const sent = Object.keys(res.request.headers)
      .map((h) => h.toLowerCase())
      .sort();
    if (
      sent.join() !== 'authorization,content-type' ||
      res.request.headers['content-type'] !== 'application/json' ||
      !/^Bearer \S+$/.test(res.request.headers.authorization ?? '')
    ) {
      throw new ToolError('SUITE_ERROR', `the suite did not send the headers of 4.1 (it sent ${sent.join(', ')})`);
    }
    // 415 refuses the request's media type (RFC 9110 section 15.5.16): here, the Content-Type 4.1 lists.
    if (res.status === 415)
      t.expectNone(
        [
          failure(
            t.id,
            'a call with the headers of 4.1 accepted',
            'refused with 415 Unsupported Media Type: the Content-Type: application/json that 4.1 lists',
          ),
        ],
        res,
      );
    // A token refused as the bad ones are is SPE-TOK-001's finding: the headers are not what was refused.
    const verdict = tokenAcceptance(res, await tokenRefusals(t), t.id);
    if (isRefusal(res.status) && verdict.failures.length) {
      throw inconclusive(
        'PRECONDITION_MISSING',
        `the call's token was refused as the bad tokens were (${verdict.failures[0].received}), which SPE-TOK-001 judges; whether the headers of 4.1 are enough cannot be told`,
      );
    }
    await expectAccepted(
      t,
      res,
      'a valid call with exactly the headers of 4.1: Host, Content-Type: application/json, Authorization: Bearer',
    );
  });

  requirementTest('SPE-AUD-002', async (t) => {
    const s = speechSettings(t);
    const aud = [s.audience, 'pc-other-service.example'];
    await plainTokenAccepted(t);
    const res = await sendSpeech(t, await validCall(s, sampleClaims(s, { aud })));
    await expectAccepted(t, res, `a valid token whose aud names two services, this one first: ${JSON.stringify(aud)}`);
  });

  requirementTest('SPE-RSP-001', async (t) => {
    const res = await plainTokenAccepted(t);
    t.expectNone(conformsTo(res, schemaId('speech/recognize-response'), t.id), res);
  });
});
