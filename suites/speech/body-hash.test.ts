/** Spec 2.1: x-content-sha256 binds the token to the request body. */
import { describe } from 'vitest';
import { notRefusedAsUnauthenticated } from '../../harness/checks/speech.ts';
import { requirementTest } from '../../harness/suite.ts';
import { NO_BODY, sampleClaims, validCall } from '../../generators/speech.ts';
import { attackTests, sendRecognize, speechSettings, validTokenNote } from './_speech.ts';

describe('speech: the body hash', () => {
  attackTests(['SPE-HSH-001', 'SPE-HSH-002']);

  requirementTest('SPE-HSH-003', async (t) => {
    const s = speechSettings(t);
    const res = await sendRecognize(t, s, await validCall(s, sampleClaims(s), NO_BODY));
    t.expectNone(notRefusedAsUnauthenticated(res, t.id), res, validTokenNote(s, 'a call without a body, x-content-sha256 of the empty string'));
  });
});
