import type { Fault } from '../../faults/types.ts';

const f = (id: string, catches: string[], description: string): Fault => ({ id, area: 'speech', catches, description });

export const speechFaults: Fault[] = [
  f('spe-expired-accepted', ['SPE-TIM-001', 'SPE-TIM-004'], 'exp is never checked: expired tokens and tokens without exp are accepted'),
  f('spe-exp-optional', ['SPE-TIM-004'], 'exp is checked only when present: a token without exp never expires'),
  f('spe-expired-400', ['SPE-TIM-001', 'SPE-STA-001'], 'an expired token is answered 400 (a validation error) instead of an authentication error'),
  f('spe-nbf-ignored', ['SPE-TIM-002'], 'nbf is not checked: a token valid only from an hour ahead is accepted now'),
  f('spe-iat-future-accepted', ['SPE-TIM-003'], 'iat is not checked: a token issued an hour in the future is accepted'),
  f('spe-aud-ignored', ['SPE-AUD-001'], 'aud is not checked: a token meant for another service is accepted'),
  f('spe-aud-prefix', ['SPE-AUD-001'], 'aud is compared with startsWith: the audience with a suffix appended is accepted'),
  f('spe-alg-none-accepted', ['SPE-SIG-005'], 'a header with alg "none" (any case) skips signature verification'),
  f('spe-alg-from-header', ['SPE-SIG-006'], 'the HMAC hash is taken from the header: HS384 and HS512 tokens are verified and accepted'),
  f('spe-alg-label-ignored', ['SPE-SIG-007'], 'the header alg is never read: an RS256-labelled token with an HMAC-SHA256 signature is accepted'),
  f('spe-kid-any', ['SPE-KID-001', 'SPE-KID-002'], 'kid is not checked: the one secret verifies tokens with any kid or none'),
  f('spe-sig-not-verified', ['SPE-SIG-001', 'SPE-SIG-002', 'SPE-SIG-003', 'SPE-SIG-004'], 'the signature is decoded but never verified'),
  f('spe-sig-prefix-16', ['SPE-SIG-004'], 'only the first 16 bytes of the signature are compared (a truncated HMAC)'),
  f('spe-sig-case-insensitive', ['SPE-SIG-004'], 'signatures are compared as base64url text, ignoring letter case'),
  f('spe-sig-over-reserialised-json', ['SPE-SIG-002', 'SPE-SIG-003'], 'the signature is checked over re-serialised header and payload JSON, not over the bytes received'),
  f('spe-verify-cache-by-signature', ['SPE-SIG-002', 'SPE-SIG-003'], 'a verification cache keyed by the signature segment alone: a changed header or payload with a known signature is accepted'),
  f('spe-hash-ignored', ['SPE-HSH-001', 'SPE-HSH-002'], 'x-content-sha256 is never compared with the body'),
  f('spe-hash-over-reserialised-json', ['SPE-HSH-002'], 'the body hash is computed over re-serialised JSON, not the raw bytes: whitespace changes go unnoticed'),
  f('spe-empty-body-hashed-as-braces', ['SPE-HSH-003'], 'a call without a body is hashed as "{}" (the framework defaults the body to an empty object)'),
  f('spe-no-bearer-accepted', ['SPE-BRR-001'], 'the Authorization scheme is not checked: a bare token or another scheme is accepted'),
  f('spe-no-auth-served', ['SPE-BRR-002'], 'the token check is skipped when no token is sent'),
  f('spe-refuse-403', ['SPE-STA-001'], 'every refused token is answered 403 instead of 401'),
  f('spe-echo-token', ['SPE-KEY-001'], 'error answers echo the received token in their details (a debugging aid left on)'),
  f('spe-transcript-renamed', ['SPE-RSP-001'], 'recognition alternatives carry `text` instead of `transcript`'),
  f('spe-jit-only', ['SPE-JTI-002', 'SPE-TOK-001'], 'a strict claim allowlist that knows only the older `jit` spelling refuses tokens carrying `jti`'),
  f('spe-token-id-refused', ['SPE-JTI-001', 'SPE-JTI-002', 'SPE-TOK-001'], 'a strict claim allowlist that knows neither spelling of the token id refuses tokens carrying one'),
  f('spe-malformed-500', ['SPE-FMT-001'], 'a token whose header is not JSON crashes the handler (500)'),
];
