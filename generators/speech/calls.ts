/**
 * Speech tokens and calls: valid claims drawn property-based (from speech/jwt-claims.json with faker
 * hints) and the signing helpers the attack matrix (generators/speech/attacks.ts) builds on. The valid
 * call and stream the client itself sends live in harness/speech/requests.ts (re-exported here); every
 * call has a fresh token id and fresh audio, so a long-lived target never sees one twice.
 */
import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { schemaId } from '../../harness/spec/schemas.ts';
import { hmacKey, speechHeader, speechPayload, type SpeechClaims, type SpeechKit } from '../../harness/speech/token.ts';
import { sampleClaims, type ClaimsDraft, type SpeechCall } from '../../harness/speech/requests.ts';

import { schemaArbitrary } from '../schema-arbitrary.ts';

export const SPEECH_CLAIMS = schemaId('speech/jwt-claims');

export function claimsDraft(): fc.Arbitrary<ClaimsDraft> {
  return fc
    .record({
      base: schemaArbitrary<{ iss: string; sub: string; sid: string }>(SPEECH_CLAIMS),
      expiresIn: fc.integer({ min: 60, max: 600 }),
      issuedAgo: fc.integer({ min: 5, max: 30 }),
    })
    .map(({ base, expiresIn, issuedAgo }) => ({ iss: base.iss, sub: base.sub, sid: base.sid, expiresIn, issuedAgo }));
}

// ── signing helpers for tokens the builder would not make ──────────────────────────────────────
export const segment = (json: string) => Buffer.from(json, 'utf8').toString('base64url');

/** A token from the given header and payload JSON text, HMAC-SHA256-signed with the kit's key. */
export function signedToken(kit: SpeechKit, headerJson: string, payloadJson: string): string {
  const input = `${segment(headerJson)}.${segment(payloadJson)}`;
  return `${input}.${createHmac('sha256', hmacKey(kit.secretKey, kit.keyEncoding)).update(input).digest('base64url')}`;
}

export const headerJsonOf = (kit: SpeechKit) => JSON.stringify(speechHeader(kit.apiKey));
/** The payload as the builder makes it; `claims` may break the claim types on purpose. */
export const payloadJsonOf = (claims: Record<string, unknown>, body?: string) =>
  JSON.stringify(speechPayload(claims as SpeechClaims, body));

/** The SHA-256 digest of a body's bytes (of the empty string without one). */
export const bodyDigest = (body?: string) =>
  createHash('sha256')
    .update(body ?? '')
    .digest();

/**
 * A correctly signed call whose x-content-sha256 is the given text instead of the builder's lower-case
 * hex: the same hash in upper-case hex (RFC 4648 section 8: base16 is case-insensitive), or in
 * another encoding.
 */
export function callWithHashText(
  kit: SpeechKit,
  body: string | undefined,
  hashText: unknown,
  claims: SpeechClaims = sampleClaims(kit),
): SpeechCall {
  return {
    authorization: `Bearer ${signedToken(kit, headerJsonOf(kit), JSON.stringify({ ...claims, 'x-content-sha256': hashText }))}`,
    body,
  };
}
