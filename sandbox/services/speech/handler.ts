/**
 * The speech calls as one function from call to answer: the call's own rules (body size), the token
 * (verify.ts), then the recognition (recognition.ts). Every check is a named one looked up in `checks`,
 * so that a fault can replace one (faults.ts).
 */
import { firstFound, namedRules } from '../../faults/modifiers.ts';
import { errorAnswer, type Refusal, type SpeechAnswer } from './answers.ts';
import type { SpeechCall } from './call.ts';
import { recognitionOf } from './recognition.ts';
import { refusalOfToken, TOKEN_RULES } from './verify.ts';

export const CALL_RULES = namedRules<(call: SpeechCall) => Refusal | undefined>()({
  'body.size': ({ tooLarge }) => (tooLarge ? { status: 413, reason: 'the body is larger than 32 MB' } : undefined),
  // 4.1 shows Content-Type application/json; the sandbox reads the raw bytes and takes any content type.
  'content-type': () => undefined,
});

export const RULES = { ...CALL_RULES, ...TOKEN_RULES };

/** The types the speech handler is written in, for its faults. */
export type SpeechShape = { request: SpeechCall; answer: SpeechAnswer; checks: typeof RULES; settings: Record<string, never> };

export interface SpeechDeps {
  checks: SpeechShape['checks'];
  /** kid (API key) -> HMAC key bytes. */
  keys: ReadonlyMap<string, Buffer>;
}

/** The first message of a stream: the bytes before the first line feed (the whole body without one). */
function firstMessage(body: Buffer): Buffer {
  const end = body.indexOf(0x0a);
  return end < 0 ? body : body.subarray(0, end);
}

export function speechHandler({ checks, keys }: SpeechDeps): (call: SpeechCall) => SpeechAnswer {
  return (call) => {
    const refused = firstFound(checks, CALL_RULES, call);
    if (refused) return errorAnswer(refused.found.status, refused.found.reason, refused.rule);
    // The hash covers the body, "or the first message of the request when streaming" (2.1).
    const hashed = call.kind === 'stream' ? firstMessage(call.body) : call.body;
    const token = { authorization: call.headers.authorization, body: call.body, hashed, now: Math.floor(Date.now() / 1000) };
    const denied = refusalOfToken(checks, keys, token);
    if (denied) return errorAnswer(401, denied.found, denied.rule);
    return recognitionOf(call);
  };
}
