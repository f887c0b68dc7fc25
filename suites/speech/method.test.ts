/**
 * Spec 4.1: the recognize call is GET. The suite calls recognize with the target file's method
 * (services.speech.method, GET by default); where the file chooses another, 4.1's method is not tried,
 * and this test says so rather than let the statement count as checked.
 */
import { describe } from 'vitest';
import { failure } from '../../harness/checks/failure.ts';
import { inconclusive, ToolError } from '../../harness/errors.ts';
import { requirementTest } from '../../harness/test/suite.ts';
import { noServerError } from '../../harness/checks/answer.ts';
import { tokenAcceptance } from '../../harness/speech/checks.ts';
import { sendSpeech, tokenRefusals, validTokenNote } from '../../harness/speech/client.ts';
import { speechSettings } from '../../harness/speech/config.ts';
import { recognizeBody, sampleClaims, validCall } from '../../harness/speech/requests.ts';

/** Statuses that refuse the request's method itself (RFC 9110 15.5.6, 15.6.2), not its token. */
const METHOD_REFUSALS = [405, 501];

describe('speech: the method of 4.1', () => {
  requirementTest('SPE-MTH-001', async (t) => {
    const s = speechSettings(t);
    if (s.method !== 'GET')
      throw inconclusive(
        'PRECONDITION_MISSING',
        `services.speech.method is ${s.method}: the suite calls recognize with ${s.method}, never with the GET that 4.1 lists, so that statement is not checked`,
      );
    const res = await sendSpeech(t, await validCall(s, sampleClaims(s), recognizeBody()));
    if (res.request.method !== 'GET') throw new ToolError('SUITE_ERROR', `the suite sent ${res.request.method}, not GET`);
    if (METHOD_REFUSALS.includes(res.status))
      t.expectNone(
        [failure(t.id, 'a valid call with GET, the method 4.1 lists, accepted', `refused for its method with ${res.status}`)],
        res,
      );
    // A token refused as the bad ones are is SPE-TOK-001's finding, which this test takes as given.
    const verdict = tokenAcceptance(res, await tokenRefusals(t), 'SPE-TOK-001');
    t.expectNone([...noServerError(res, t.id), ...verdict.failures], res, validTokenNote(s, 'a valid call with GET, the method 4.1 lists'));
    if (verdict.noEvidence) throw inconclusive('NO_CONTROL', verdict.noEvidence);
  });
});
