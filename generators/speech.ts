/**
 * Speech tokens and calls: valid claims (property-based, from speech/jwt-claims.json with faker hints),
 * fresh recognize bodies, and the attack matrix: each attack changes one thing of an otherwise valid
 * call and names the requirement that must refuse it. Every call has a fresh token id and fresh audio,
 * so a long-lived target never sees one twice.
 */
import { createHmac, generateKeyPairSync, randomBytes, randomUUID, sign as rsaSign, type KeyObject } from 'node:crypto';
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { schemaId } from '../harness/schemas.ts';
import { buildSpeechToken, hmacKey, speechHeader, speechPayload, type KeyEncoding, type SpeechClaims } from '../harness/speech-token.ts';
import { schemaArbitrary } from './schema-arbitrary.ts';

export const SPEECH_CLAIMS = schemaId('speech/jwt-claims');

/** What a token is built from: the target's key pair and its choices. */
export interface SpeechKit {
  apiKey: string;
  secretKey: string;
  keyEncoding: KeyEncoding;
  audience: string;
  tokenIdClaim: 'jti' | 'jit';
}

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

export interface SpeechCall {
  /** The Authorization header value, or null for none. */
  authorization: string | null;
  /** The body sent (absent: a call without a body). */
  body?: string;
}

export interface ValidCall extends SpeechCall {
  authorization: string;
  token: string;
  claims: SpeechClaims;
}

export const unixNow = () => Math.floor(Date.now() / 1000);

export function claimsDraft(): fc.Arbitrary<ClaimsDraft> {
  return fc
    .record({
      base: schemaArbitrary<{ iss: string; sub: string; sid: string }>(SPEECH_CLAIMS),
      expiresIn: fc.integer({ min: 60, max: 600 }),
      issuedAgo: fc.integer({ min: 5, max: 30 }),
    })
    .map(({ base, expiresIn, issuedAgo }) => ({ iss: base.iss, sub: base.sub, sid: base.sid, expiresIn, issuedAgo }));
}

const SAMPLE_DRAFT: Omit<ClaimsDraft, 'sub' | 'sid'> = { iss: 'partner-conformance-backend', expiresIn: 600, issuedAgo: 10 };

/** Absolute claims in the order of 2.1, with a fresh token id under the kit's spelling. */
export function claimsAt(draft: ClaimsDraft, kit: SpeechKit, now = unixNow()): SpeechClaims {
  const { iss, sub, sid, expiresIn, issuedAgo } = draft;
  return { iss, sub, aud: kit.audience, exp: now + expiresIn, iat: now - issuedAgo, nbf: now - issuedAgo, [kit.tokenIdClaim]: randomUUID(), sid };
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

/** Pass as `body` for a call without a body (an explicit `undefined` would take the default). */
export const NO_BODY = null;

export async function validCall(kit: SpeechKit, claims: SpeechClaims = sampleClaims(kit), sent: string | typeof NO_BODY = recognizeBody()): Promise<ValidCall> {
  const body = sent ?? undefined;
  const token = await buildSpeechToken({ apiKey: kit.apiKey, secretKey: kit.secretKey, keyEncoding: kit.keyEncoding, claims, body });
  return { authorization: `Bearer ${token}`, body, token, claims };
}

// ── building blocks of the attacks ─────────────────────────────────────────────────────────────
const segment = (json: string) => Buffer.from(json, 'utf8').toString('base64url');

/** A token from the given header and payload JSON text, HMAC-SHA256-signed with the kit's key. */
function signed(kit: SpeechKit, headerJson: string, payloadJson: string): string {
  const input = `${segment(headerJson)}.${segment(payloadJson)}`;
  return `${input}.${createHmac('sha256', hmacKey(kit.secretKey, kit.keyEncoding)).update(input).digest('base64url')}`;
}

const headerJson = (kit: SpeechKit) => JSON.stringify(speechHeader(kit.apiKey));
/** The payload as the builder makes it; `claims` may break the claim types on purpose. */
const payloadJson = (claims: Record<string, unknown>, body?: string) => JSON.stringify(speechPayload(claims as SpeechClaims, body));

function call(authorization: string | null, body: string | undefined): SpeechCall {
  return { authorization, body };
}

function swapCase(text: string): string {
  return [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
}

function flipByte(signature: string, index: number): string {
  const bytes = Buffer.from(signature, 'base64url');
  const at = index < 0 ? bytes.length + index : index;
  bytes[at] ^= 0x5a;
  return bytes.toString('base64url');
}

let rsaKey: KeyObject | undefined;
function rs256(headerText: string, payloadText: string): string {
  rsaKey ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const input = `${segment(headerText)}.${segment(payloadText)}`;
  return `${input}.${rsaSign('sha256', Buffer.from(input), rsaKey).toString('base64url')}`;
}

// ── the attack matrix ──────────────────────────────────────────────────────────────────────────
export interface Attack {
  /** The requirement that must refuse it. */
  requirement: string;
  row: string;
  /** Builds the attack; `before` is a valid call to send first (tamper cases: the original is known good). */
  build(kit: SpeechKit): Promise<SpeechCall & { before?: ValidCall }>;
}

const attack = (requirement: string, row: string, build: Attack['build']): Attack => ({ requirement, row, build });

/** A valid call, its token's three segments and the payload it signed, for attacks that vary one part. */
async function base(kit: SpeechKit, changes: Record<string, unknown> = {}) {
  const valid = await validCall(kit, sampleClaims(kit, changes));
  const [h, p, s] = valid.token.split('.');
  const payload = speechPayload(valid.claims, valid.body);
  return { valid, h, p, s, payload, body: valid.body };
}

const bearer = (token: string) => `Bearer ${token}`;

export const ATTACKS: Attack[] = [
  attack('SPE-SIG-001', 'a token signed with another secret', async (kit) => {
    const other = { ...kit, secretKey: kit.keyEncoding === 'base64' ? randomBytes(32).toString('base64') : randomBytes(24).toString('hex') };
    const { authorization, body } = await validCall(other);
    return call(authorization, body);
  }),
  attack('SPE-SIG-002', 'the payload with sub changed after signing', async (kit) => {
    const { valid, h, s, payload, body } = await base(kit);
    return { ...call(bearer(`${h}.${segment(JSON.stringify({ ...payload, sub: `${payload.sub}-other` }))}.${s}`), body), before: valid };
  }),
  attack('SPE-SIG-002', 'the payload with exp moved a day later after signing', async (kit) => {
    const { valid, h, s, payload, body } = await base(kit);
    return { ...call(bearer(`${h}.${segment(JSON.stringify({ ...payload, exp: (payload.exp as number) + 86_400 }))}.${s}`), body), before: valid };
  }),
  attack('SPE-SIG-002', 'the payload re-encoded with whitespace (same claims) after signing', async (kit) => {
    const { valid, h, s, payload, body } = await base(kit);
    return { ...call(bearer(`${h}.${segment(JSON.stringify(payload, null, 1))}.${s}`), body), before: valid };
  }),
  attack('SPE-SIG-003', 'the header re-encoded with a space after each colon (same fields) after signing', async (kit) => {
    const { valid, p, s, body } = await base(kit);
    return { ...call(bearer(`${segment(headerJson(kit).replace(/":/g, '": '))}.${p}.${s}`), body), before: valid };
  }),
  attack('SPE-SIG-003', 'the header fields reordered (kid first) after signing', async (kit) => {
    const { valid, p, s, body } = await base(kit);
    return { ...call(bearer(`${segment(JSON.stringify({ kid: kit.apiKey, alg: 'HS256', typ: 'JWT' }))}.${p}.${s}`), body), before: valid };
  }),
  ...([
    ['the first signature byte flipped (XOR 0x5A)', (s: string) => flipByte(s, 0)],
    ['the last signature byte flipped (XOR 0x5A)', (s: string) => flipByte(s, -1)],
    ['the signature truncated to its first 16 bytes', (s: string) => Buffer.from(s, 'base64url').subarray(0, 16).toString('base64url')],
    ['the signature text with its letter case swapped', swapCase],
  ] as const).map(([row, alter]) =>
    attack('SPE-SIG-004', row, async (kit) => {
      const { h, p, s, body } = await base(kit);
      return call(bearer(`${h}.${p}.${alter(s)}`), body);
    }),
  ),
  ...['none', 'None'].map((alg) =>
    attack('SPE-SIG-005', `alg "${alg}" with an empty signature`, async (kit) => {
      const { p, body } = await base(kit);
      return call(bearer(`${segment(JSON.stringify({ alg, typ: 'JWT', kid: kit.apiKey }))}.${p}.`), body);
    }),
  ),
  ...['HS384', 'HS512'].map((alg) =>
    attack('SPE-SIG-006', `alg ${alg}, correctly signed with ${alg} and the same key`, async (kit) => {
      const { payload, body } = await base(kit);
      const token = await new SignJWT(payload).setProtectedHeader({ alg, typ: 'JWT', kid: kit.apiKey }).sign(hmacKey(kit.secretKey, kit.keyEncoding));
      return call(bearer(token), body);
    }),
  ),
  attack('SPE-SIG-007', 'an RS256 header over an HMAC-SHA256 signature made with the secret', async (kit) => {
    const { valid, body } = await base(kit);
    return call(bearer(signed(kit, JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: kit.apiKey }), payloadJson(valid.claims, body))), body);
  }),
  attack('SPE-SIG-007', 'an RS256 token signed with a freshly generated RSA key', async (kit) => {
    const { valid, body } = await base(kit);
    return call(bearer(rs256(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: kit.apiKey }), payloadJson(valid.claims, body))), body);
  }),
  ...([
    ['a word instead of a token', () => 'not-a-token'],
    ['two segments (no signature part)', (_k, h, p) => `${h}.${p}`],
    ['four segments', (_k, h, p, s) => `${h}.${p}.${s}.${s}`],
    ['a header that is not JSON (signed)', (k, _h, p) => signed(k, 'alg=HS256;kid=none', Buffer.from(p, 'base64url').toString('utf8'))],
    ['a payload that is a JSON array (signed)', (k) => signed(k, headerJson(k), '["iss","sub"]')],
  ] as Array<[string, (k: SpeechKit, h: string, p: string, s: string) => string]>).map(([row, make]) =>
    attack('SPE-FMT-001', row, async (kit) => {
      const { h, p, s, body } = await base(kit);
      return call(bearer(make(kit, h, p, s)), body);
    }),
  ),
  attack('SPE-FMT-001', 'exp as a numeric string instead of an integer (signed)', async (kit) => {
    const { valid, body } = await base(kit);
    return call(bearer(signed(kit, headerJson(kit), payloadJson({ ...valid.claims, exp: String(valid.claims.exp) }, body))), body);
  }),
  attack('SPE-KID-001', 'a header without kid (correctly signed)', async (kit) => {
    const { valid, body } = await base(kit);
    return call(bearer(signed(kit, JSON.stringify({ alg: 'HS256', typ: 'JWT' }), payloadJson(valid.claims, body))), body);
  }),
  attack('SPE-KID-002', 'an unknown kid (signed with the right secret)', async (kit) => {
    const { valid, body } = await base(kit);
    return call(bearer(signed(kit, JSON.stringify(speechHeader(`pc-unknown-key-${randomUUID()}`)), payloadJson(valid.claims, body))), body);
  }),
  ...([
    ['SPE-TIM-001', 'exp an hour ago', (now: number) => ({ exp: now - 3600, iat: now - 4200, nbf: now - 4200 })],
    ['SPE-TIM-002', 'nbf an hour ahead', (now: number) => ({ nbf: now + 3600, exp: now + 4200 })],
    ['SPE-TIM-003', 'iat an hour ahead', (now: number) => ({ iat: now + 3600 })],
    ['SPE-TIM-004', 'no exp claim', () => ({ exp: undefined })],
    ['SPE-AUD-001', 'aud of an unrelated service', () => ({ aud: 'pc-invalid-audience.example' })],
  ] as const).map(([requirement, row, changes]) =>
    attack(requirement, row, async (kit) => {
      const { valid } = await base(kit, changes(unixNow()));
      return call(valid.authorization, valid.body);
    }),
  ),
  attack('SPE-AUD-001', 'aud of the service with a suffix appended', async (kit) => {
    const { valid } = await base(kit, { aud: `${kit.audience}.pc-other` });
    return call(valid.authorization, valid.body);
  }),
  attack('SPE-HSH-001', 'x-content-sha256 of another body', async (kit) => {
    const { authorization } = await validCall(kit, sampleClaims(kit), recognizeBody());
    return call(authorization, recognizeBody());
  }),
  attack('SPE-HSH-001', 'x-content-sha256 of the empty string while a body is sent', async (kit) => {
    const { authorization } = await validCall(kit, sampleClaims(kit), NO_BODY);
    return call(authorization, recognizeBody());
  }),
  attack('SPE-HSH-001', 'x-content-sha256 of 64 zeros (signed)', async (kit) => {
    const body = recognizeBody();
    return call(bearer(signed(kit, headerJson(kit), JSON.stringify({ ...sampleClaims(kit), 'x-content-sha256': '0'.repeat(64) }))), body);
  }),
  attack('SPE-HSH-002', 'the audio content changed after signing', async (kit) => {
    const { valid, body } = await base(kit);
    const changed = JSON.parse(body!) as { audio: { content: string } };
    changed.audio.content = randomBytes(320).toString('base64');
    return call(valid.authorization, JSON.stringify(changed));
  }),
  attack('SPE-HSH-002', 'whitespace added to the body after signing (same JSON)', async (kit) => {
    const { valid, body } = await base(kit);
    return call(valid.authorization, JSON.stringify(JSON.parse(body!), null, 2));
  }),
  attack('SPE-HSH-002', 'the body left out after signing', async (kit) => {
    const { valid } = await base(kit);
    return call(valid.authorization, undefined);
  }),
  attack('SPE-BRR-001', 'the token alone, without the Bearer scheme', async (kit) => {
    const { valid } = await base(kit);
    return call(valid.token, valid.body);
  }),
  attack('SPE-BRR-001', 'the token under the scheme "JWT" instead of "Bearer"', async (kit) => {
    const { valid } = await base(kit);
    return call(`JWT ${valid.token}`, valid.body);
  }),
  attack('SPE-BRR-002', 'no Authorization header', async () => call(null, recognizeBody())),
  attack('SPE-BRR-002', '"Bearer" with no token after it', async () => call('Bearer ', recognizeBody())),
];
