/**
 * What a verified call is answered: a recognition result of the sandbox's choosing in the vendor's
 * RecognizeResponse shape, one result per audio (README.md). A body that is not JSON is 400.
 */
import { createHash } from 'node:crypto';
import { jsonAnswer } from '../../exchange.ts';
import { errorAnswer, type SpeechAnswer } from './answers.ts';
import type { SpeechCall } from './call.ts';

const TRANSCRIPTS = ['привет мир', 'проверка связи', 'переведи сто рублей маме', 'какая погода завтра', 'один два три'];

/** One recognition result for base64 audio, picked from a fixed list by a hash of the audio. */
function resultFor(content: string): unknown {
  const digest = createHash('sha256').update(content).digest();
  const seconds = (Buffer.from(content, 'base64').length / 32000).toFixed(3);
  return {
    alternatives: [{ transcript: TRANSCRIPTS[digest[0] % TRANSCRIPTS.length], confidence: 0.5 + digest[1] / 512 }],
    channel: 0,
    start_time: '0s',
    end_time: `${seconds}s`,
  };
}

const recognized = (results: unknown[]): SpeechAnswer => jsonAnswer(200, { results });

/** The recognize call: one JSON request whose `audio.content` is base64 audio; no body, or no audio, gets no result. */
function recognize(body: Buffer): SpeechAnswer {
  if (body.length === 0) return recognized([]);
  let request: unknown;
  try {
    request = JSON.parse(body.toString('utf8'));
  } catch (error) {
    return errorAnswer(400, `the body is not valid JSON: ${(error as Error).message}`, 'body.json');
  }
  const content = (request as { audio?: { content?: unknown } } | null)?.audio?.content;
  return recognized(typeof content === 'string' ? [resultFor(content)] : []);
}

/** A stream: a configuration message, then messages with `audio_content`; one result per audio message. */
function recognizeStream(body: Buffer): SpeechAnswer {
  const results = [];
  for (const line of body
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')) {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (error) {
      return errorAnswer(400, `a stream message is not valid JSON: ${(error as Error).message}`, 'stream.json');
    }
    const content = (message as { audio_content?: unknown } | null)?.audio_content;
    if (typeof content === 'string') results.push(resultFor(content));
  }
  return recognized(results);
}

/** The answer to a call whose token verified. */
export const recognitionOf = (call: SpeechCall): SpeechAnswer =>
  call.kind === 'stream' ? recognizeStream(call.body) : recognize(call.body);
