/**
 * Speech requests the client builds itself: the valid call and stream of 2.1 with fresh ids and fresh
 * audio, the shapes of a call, and the Attack type the matrices (generators/speech/attacks.ts) fill.
 * No random draw of claims here: the property-based drafts stay in generators/speech/calls.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { buildSpeechToken, type SpeechClaims, type SpeechKit } from './token.ts';

/** The clock-free part of valid claims; `claimsAt` turns it into absolute times. */
export interface ClaimsDraft {
  iss: string;
  sub: string;
  sid: string;
  /** exp = now + expiresIn (60 to 600 s). */
  expiresIn: number;
  /** iat = nbf = now - issuedAgo: a few seconds back, so a target clock slightly behind ours still accepts. */
  issuedAgo: number;
}

/** Which operation a call goes to: the recognize call of 4.1, or the target's streaming call. */
export type SpeechEndpoint = 'recognize' | 'stream';

export interface SpeechCall {
  /** The Authorization header value, or null for none. */
  authorization: string | null;
  /** The body sent (absent: a call without a body). A stream's body is its messages, one per line. */
  body?: string;
  /** Default: recognize. */
  endpoint?: SpeechEndpoint;
}

export interface ValidCall extends SpeechCall {
  authorization: string;
  token: string;
  claims: SpeechClaims;
}

export const unixNow = () => Math.floor(Date.now() / 1000);

const SAMPLE_DRAFT: Omit<ClaimsDraft, 'sub' | 'sid'> = { iss: 'partner-conformance-backend', expiresIn: 600, issuedAgo: 10 };

/** Absolute claims in the order of 2.1, with a fresh token id under the kit's spelling. */
export function claimsAt(draft: ClaimsDraft, kit: SpeechKit, now = unixNow()): SpeechClaims {
  const { iss, sub, sid, expiresIn, issuedAgo } = draft;
  return {
    iss,
    sub,
    aud: kit.audience,
    exp: now + expiresIn,
    iat: now - issuedAgo,
    nbf: now - issuedAgo,
    [kit.tokenIdClaim]: randomUUID(),
    sid,
  };
}

/** Fixed valid claims with fresh ids; a change whose value is undefined removes the claim. */
export function sampleClaims(kit: SpeechKit, changes: Record<string, unknown> = {}, now = unixNow()): SpeechClaims {
  const draft = { ...SAMPLE_DRAFT, sub: `pc-user-${randomBytes(4).toString('hex')}`, sid: randomBytes(12).toString('hex') };
  const claims: SpeechClaims = { ...claimsAt(draft, kit, now), ...changes };
  for (const [name, value] of Object.entries(changes)) if (value === undefined) delete claims[name];
  return claims;
}

/** A fresh RecognizeRequest (vendor shape): 10 ms of random 16 kHz LINEAR16 audio. */
export function recognizeBody(): string {
  return JSON.stringify({
    config: { encoding: 'LINEAR16', sample_rate_hertz: 16000, num_channels: 1, language_code: 'ru-RU' },
    audio: { content: randomBytes(320).toString('base64') },
  });
}

/**
 * The messages of a fresh stream (vendor StreamingRecognize shape): a configuration first, then two
 * chunks of random audio. On the wire they are newline-delimited JSON (`streamBody`).
 */
export function streamMessages(): string[] {
  const config = {
    streaming_config: {
      config: { encoding: 'LINEAR16', sample_rate_hertz: 16000, num_channels: 1, language_code: 'ru-RU' },
      session_tag: randomUUID(),
    },
  };
  return [JSON.stringify(config), ...[0, 1].map(() => JSON.stringify({ audio_content: randomBytes(320).toString('base64') }))];
}

/** Newline-delimited messages: each message followed by a line feed. */
export const streamBody = (messages: readonly string[]) => messages.map((m) => `${m}\n`).join('');

/** Pass as `body` for a call without a body (an explicit `undefined` would take the default). */
export const NO_BODY = null;

export async function validCall(
  kit: SpeechKit,
  claims: SpeechClaims = sampleClaims(kit),
  sent: string | typeof NO_BODY = recognizeBody(),
): Promise<ValidCall> {
  const body = sent ?? undefined;
  const token = await buildSpeechToken({ apiKey: kit.apiKey, secretKey: kit.secretKey, keyEncoding: kit.keyEncoding, claims, body });
  return { authorization: `Bearer ${token}`, body, token, claims };
}

/** A valid stream: the token carries the SHA-256 of the first message (spec 2.1, "when streaming"). */
export async function validStream(
  kit: SpeechKit,
  messages: readonly string[] = streamMessages(),
  claims: SpeechClaims = sampleClaims(kit),
): Promise<ValidCall> {
  const token = await buildSpeechToken({
    apiKey: kit.apiKey,
    secretKey: kit.secretKey,
    keyEncoding: kit.keyEncoding,
    claims,
    body: messages[0],
  });
  return { authorization: `Bearer ${token}`, body: streamBody(messages), token, claims, endpoint: 'stream' };
}

export interface Attack {
  /** The requirement that must refuse it. */
  requirement: string;
  row: string;
  /** Builds the attack; `before` is a valid call to send first (tamper cases: the original is known good). */
  build(kit: SpeechKit): Promise<SpeechCall & { before?: ValidCall }>;
}
