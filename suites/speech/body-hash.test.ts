/**
 * Spec 2.1: x-content-sha256, "string, base16 (hex)", binds the token to the request body: the hash of
 * another body, of a body changed after signing, or written in another encoding than hex is refused.
 * Upper-case hex is a policy of its own (RFC 4648 section 8 calls base16 case-insensitive).
 */
import { describe } from 'vitest';
import { emptyBodyHashVerdict } from '../../harness/speech/checks.ts';
import { inconclusive } from '../../harness/errors.ts';
import { requirementTest } from '../../harness/test/suite.ts';
import { bodyDigest, callWithHashText } from '../../generators/speech/calls.ts';
import { NO_BODY, recognizeBody, sampleClaims, validCall } from '../../harness/speech/requests.ts';
import { ATTACKS } from '../../generators/speech/attacks.ts';
import {
  attackTests,
  expectAccepted,
  plainTokenAccepted,
  sendSpeech,
  tokenRefusalOf,
  validTokenNote,
} from '../../harness/speech/client.ts';
import { speechSettings } from '../../harness/speech/config.ts';

describe('speech: the body hash', () => {
  attackTests(['SPE-HSH-001', 'SPE-HSH-002', 'SPE-HSH-004'], ATTACKS);

  requirementTest('SPE-HSH-003', async (t) => {
    const s = speechSettings(t);
    const right = await sendSpeech(t, await validCall(s, sampleClaims(s), NO_BODY));
    const wrong = await sendSpeech(t, callWithHashText(s, undefined, bodyDigest('{}').toString('hex')));
    const verdict = emptyBodyHashVerdict(right, wrong, t.id, await tokenRefusalOf(t));
    t.expectNone(verdict.failures, right, validTokenNote(s, 'a call without a body, x-content-sha256 of the empty string'));
    if (verdict.noEvidence) throw inconclusive('NO_CONTROL', verdict.noEvidence);
  });

  requirementTest('SPE-HSH-005', async (t) => {
    const s = speechSettings(t);
    await plainTokenAccepted(t);
    const body = recognizeBody();
    const res = await sendSpeech(t, callWithHashText(s, body, bodyDigest(body).toString('hex').toUpperCase()));
    await expectAccepted(t, res, 'a valid call whose x-content-sha256 is the hash of the body in upper-case hex');
  });
});
