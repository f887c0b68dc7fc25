/**
 * The speech-service token of spec 2.1 and 5.1, built as a partner's backend builds it:
 *   header   { alg: HS256, typ: JWT, kid: <API key> }
 *   payload  the claims of 2.1 plus x-content-sha256, the hex SHA-256 of the request body (of the empty
 *            string for a call without a body; of the first message when streaming)
 *   token    base64url(header) . base64url(payload) . base64url(HMAC-SHA256(first two, key))
 * Whether the HMAC key is the secret as given or its base64 decoding is a setting (`keyEncoding`): the
 * spec says "keyed with the secret key", the vendor's examples decode it first.
 * Partners may import this file on its own: it needs jose and node:crypto, nothing else of the project.
 */
import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';

export type KeyEncoding = 'raw' | 'base64';

/** What a token is built from: the target's key pair and its choices. */
export interface SpeechKit {
  apiKey: string;
  secretKey: string;
  keyEncoding: KeyEncoding;
  audience: string;
  tokenIdClaim: 'jti' | 'jit';
}

export const SPEECH_ALG = 'HS256';
export const BODY_HASH_CLAIM = 'x-content-sha256';

/** The claims of 2.1 (times in Unix seconds). The token id is `jti` in the spec's sample, `jit` in its list. */
export interface SpeechClaims {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  exp?: number;
  iat?: number;
  nbf?: number;
  jti?: string;
  jit?: string;
  sid?: string;
  [claim: string]: unknown;
}

export interface SpeechTokenInput {
  apiKey: string;
  secretKey: string;
  /** How the secret becomes the HMAC key (default raw: the spec's wording). */
  keyEncoding?: KeyEncoding;
  /** Every claim but x-content-sha256, which is always computed from `body`. */
  claims: SpeechClaims;
  /** The request body as sent (or the first message of a stream); absent for a call without a body. */
  body?: string | Uint8Array;
}

/** Hex SHA-256 of the body's bytes (a string body is hashed as UTF-8). */
export function contentSha256(body?: string | Uint8Array): string {
  return createHash('sha256')
    .update(body ?? '')
    .digest('hex');
}

const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const URL_SAFE_BASE64 = /^[A-Za-z0-9_-]*$/;

/**
 * The HMAC key. A base64 secret is checked strictly (Node's decoder skips bad characters silently, which
 * would sign with the wrong key and turn every answer into a puzzling 401). The secret never appears in
 * the error.
 */
export function hmacKey(secretKey: string, keyEncoding: KeyEncoding = 'raw'): Uint8Array {
  if (keyEncoding === 'raw') return new Uint8Array(Buffer.from(secretKey, 'utf8'));
  const wellFormed = STANDARD_BASE64.test(secretKey) || (URL_SAFE_BASE64.test(secretKey) && secretKey.length % 4 !== 1);
  const key = Buffer.from(secretKey, 'base64');
  if (!wellFormed || key.length === 0) {
    throw new TypeError(
      `speech secretKey is not valid base64 (${secretKey.length} characters) but keyEncoding is base64; use keyEncoding: raw for a secret used as given`,
    );
  }
  return new Uint8Array(key);
}

/** The header of 2.1, fields in the spec's order. */
export function speechHeader(apiKey: string): { alg: typeof SPEECH_ALG; typ: 'JWT'; kid: string } {
  return { alg: SPEECH_ALG, typ: 'JWT', kid: apiKey };
}

/** The payload as signed: the given claims in their order, then x-content-sha256 of the body. */
export function speechPayload(claims: SpeechClaims, body?: string | Uint8Array): Record<string, unknown> {
  if (BODY_HASH_CLAIM in claims) {
    throw new TypeError(`buildSpeechToken computes ${BODY_HASH_CLAIM} from the body; leave it out of claims`);
  }
  return { ...claims, [BODY_HASH_CLAIM]: contentSha256(body) };
}

/** Builds the signed token of 5.1 (steps 2 to 5). Send it as `Authorization: Bearer <token>`. */
export async function buildSpeechToken(input: SpeechTokenInput): Promise<string> {
  if (!input.apiKey) throw new TypeError('buildSpeechToken: apiKey is empty');
  if (!input.secretKey) throw new TypeError('buildSpeechToken: secretKey is empty');
  return new SignJWT(speechPayload(input.claims, input.body))
    .setProtectedHeader(speechHeader(input.apiKey))
    .sign(hmacKey(input.secretKey, input.keyEncoding));
}

/**
 * Every form in which the secret could travel or be echoed: as given, the key bytes as hex, base64 and
 * base64url, and as text when the key bytes are printable. For the redactor and for echo checks.
 */
export function secretVariants(secretKey: string, keyEncoding: KeyEncoding = 'raw'): string[] {
  const out = new Set<string>([secretKey]);
  let key: Buffer;
  try {
    key = Buffer.from(hmacKey(secretKey, keyEncoding));
  } catch {
    return [...out];
  }
  out.add(key.toString('hex'));
  out.add(key.toString('base64'));
  out.add(key.toString('base64url'));
  const text = key.toString('utf8');
  if (/^[\x20-\x7e]+$/.test(text)) out.add(text);
  return [...out].filter((v) => v.length >= 8);
}

/**
 * The base64url text that any encoding of `value` inside a longer JSON text contains, at each of the
 * three byte alignments (a token header holds the API key after `{"alg":"HS256","typ":"JWT","kid":"`).
 * Only the characters that depend on the value alone are kept, so the forms match wherever the value
 * sits. For the redactor: a token cut short, or one segment of it, must not show the key either.
 */
export function embeddedBase64urlForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const out: string[] = [];
  for (const offset of [0, 1, 2]) {
    const skip = (3 - offset) % 3;
    const whole = Math.floor((bytes.length - skip) / 3) * 3;
    if (whole < 6) continue;
    out.push(bytes.subarray(skip, skip + whole).toString('base64url'));
  }
  return out;
}
