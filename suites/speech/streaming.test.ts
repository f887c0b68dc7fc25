/**
 * Spec 2.1: x-content-sha256 is the SHA-256 "of the first message of the request when streaming". The
 * spec names no streaming call; a target that offers one declares it (services.speech.streaming: path,
 * method, content type); the messages travel as newline-delimited JSON. Without it: NOT_SUPPORTED.
 */
import { describe } from 'vitest';
import { requirementTest } from '../../harness/test/suite.ts';
import { STREAM_ATTACKS } from '../../generators/speech/attacks.ts';
import { validStream } from '../../harness/speech/requests.ts';
import { attackTests, expectAccepted, sendSpeech } from '../../harness/speech/client.ts';
import { speechSettings, streamingOf } from '../../harness/speech/config.ts';

describe('speech: streaming', () => {
  requirementTest('SPE-STR-001', async (t) => {
    const s = speechSettings(t);
    streamingOf(s);
    const res = await sendSpeech(t, await validStream(s));
    await expectAccepted(t, res, 'a stream whose token carries the SHA-256 of its first message', 'stream');
  });

  attackTests(['SPE-STR-002'], STREAM_ATTACKS);
});
