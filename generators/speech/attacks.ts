/**
 * The speech attack matrix: each attack changes one thing of an otherwise valid call and names the
 * requirement that must refuse it. Tamper cases carry their untampered original (`before`), which the
 * suite sends first. Every attack builds a fresh call (fresh token id, fresh audio).
 */
import { generateKeyPairSync, randomBytes, randomUUID, sign as rsaSign, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { hmacKey, speechHeader, speechPayload } from '../../harness/speech/token.ts';
import { bodyDigest, callWithHashText, headerJsonOf, payloadJsonOf, segment, signedToken } from './calls.ts';
import {
  NO_BODY,
  recognizeBody,
  sampleClaims,
  streamBody,
  streamMessages,
  unixNow,
  validCall,
  validStream,
  type SpeechCall,
} from '../../harness/speech/requests.ts';
import type { SpeechKit } from '../../harness/speech/token.ts';
import type { Attack } from '../../harness/speech/requests.ts';

const attack = (requirement: string, row: string, build: Attack['build']): Attack => ({ requirement, row, build });
const call = (authorization: string | null, body: string | undefined): SpeechCall => ({ authorization, body });
const bearer = (token: string) => `Bearer ${token}`;

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

/** A valid call, its token's three segments and the payload it signed, for attacks that vary one part. */
async function base(kit: SpeechKit, changes: Record<string, unknown> = {}) {
  const valid = await validCall(kit, sampleClaims(kit, changes));
  const [h, p, s] = valid.token.split('.');
  const payload = speechPayload(valid.claims, valid.body);
  return { valid, h, p, s, payload, body: valid.body };
}

/** A correctly signed call whose claims are changed as given (types broken on purpose), the body hash right. */
async function resignedWith(kit: SpeechKit, changes: Record<string, unknown>): Promise<SpeechCall> {
  const { valid, body } = await base(kit);
  return call(bearer(signedToken(kit, headerJsonOf(kit), payloadJsonOf({ ...valid.claims, ...changes }, body))), body);
}

/** A correctly signed call whose header is the given object. */
async function headerResigned(kit: SpeechKit, header: Record<string, unknown>): Promise<SpeechCall> {
  const { valid, body } = await base(kit);
  return call(bearer(signedToken(kit, JSON.stringify(header), payloadJsonOf(valid.claims, body))), body);
}

const signatureAttacks: Attack[] = [
  attack('SPE-SIG-001', 'a token signed with another secret', async (kit) => {
    const other = {
      ...kit,
      secretKey: kit.keyEncoding === 'base64' ? randomBytes(32).toString('base64') : randomBytes(24).toString('hex'),
    };
    const { authorization, body } = await validCall(other);
    return call(authorization, body);
  }),
  attack('SPE-SIG-002', 'the payload with sub changed after signing', async (kit) => {
    const { valid, h, s, payload, body } = await base(kit);
    return { ...call(bearer(`${h}.${segment(JSON.stringify({ ...payload, sub: `${payload.sub}-other` }))}.${s}`), body), before: valid };
  }),
  attack('SPE-SIG-002', 'the payload with exp moved a day later after signing', async (kit) => {
    const { valid, h, s, payload, body } = await base(kit);
    return {
      ...call(bearer(`${h}.${segment(JSON.stringify({ ...payload, exp: (payload.exp as number) + 86_400 }))}.${s}`), body),
      before: valid,
    };
  }),
  attack('SPE-SIG-002', 'the payload re-encoded with whitespace (same claims) after signing', async (kit) => {
    const { valid, h, s, payload, body } = await base(kit);
    return { ...call(bearer(`${h}.${segment(JSON.stringify(payload, null, 1))}.${s}`), body), before: valid };
  }),
  attack('SPE-SIG-003', 'the header re-encoded with a space after each colon (same fields) after signing', async (kit) => {
    const { valid, p, s, body } = await base(kit);
    return { ...call(bearer(`${segment(headerJsonOf(kit).replace(/":/g, '": '))}.${p}.${s}`), body), before: valid };
  }),
  attack('SPE-SIG-003', 'the header fields reordered (kid first) after signing', async (kit) => {
    const { valid, p, s, body } = await base(kit);
    return { ...call(bearer(`${segment(JSON.stringify({ kid: kit.apiKey, alg: 'HS256', typ: 'JWT' }))}.${p}.${s}`), body), before: valid };
  }),
  attack('SPE-SIG-003', 'typ changed to "JWS" after signing', async (kit) => {
    const { valid, p, s, body } = await base(kit);
    return { ...call(bearer(`${segment(JSON.stringify({ ...speechHeader(kit.apiKey), typ: 'JWS' }))}.${p}.${s}`), body), before: valid };
  }),
  ...(
    [
      ['the first signature byte flipped (XOR 0x5A)', (s: string) => flipByte(s, 0)],
      ['the last signature byte flipped (XOR 0x5A)', (s: string) => flipByte(s, -1)],
      ['the signature truncated to its first 16 bytes', (s: string) => Buffer.from(s, 'base64url').subarray(0, 16).toString('base64url')],
      ['the signature text with its letter case swapped', swapCase],
    ] as const
  ).map(([row, alter]) =>
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
      const token = await new SignJWT(payload)
        .setProtectedHeader({ alg, typ: 'JWT', kid: kit.apiKey })
        .sign(hmacKey(kit.secretKey, kit.keyEncoding));
      return call(bearer(token), body);
    }),
  ),
  attack('SPE-SIG-007', 'an RS256 header over an HMAC-SHA256 signature made with the secret', async (kit) =>
    headerResigned(kit, { alg: 'RS256', typ: 'JWT', kid: kit.apiKey }),
  ),
  attack('SPE-SIG-007', 'an RS256 token signed with a freshly generated RSA key', async (kit) => {
    const { valid, body } = await base(kit);
    return call(bearer(rs256(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: kit.apiKey }), payloadJsonOf(valid.claims, body))), body);
  }),
];

const formatAttacks: Attack[] = [
  ...(
    [
      ['a word instead of a token', () => 'not-a-token'],
      ['two segments (no signature part)', (_k, h, p) => `${h}.${p}`],
      ['four segments', (_k, h, p, s) => `${h}.${p}.${s}.${s}`],
      [
        'a header that is not JSON (signed)',
        (k, _h, p) => signedToken(k, 'alg=HS256;kid=none', Buffer.from(p, 'base64url').toString('utf8')),
      ],
      ['a payload that is a JSON array (signed)', (k) => signedToken(k, headerJsonOf(k), '["iss","sub"]')],
    ] as Array<[string, (k: SpeechKit, h: string, p: string, s: string) => string]>
  ).map(([row, make]) =>
    attack('SPE-FMT-001', row, async (kit) => {
      const { h, p, s, body } = await base(kit);
      return call(bearer(make(kit, h, p, s)), body);
    }),
  ),
];

/** Header and claim attacks: kid, typ, times, audience, and every claim of 2.1 with a wrong type. */
const claimAttacks: Attack[] = [
  attack('SPE-KID-001', 'a header without kid (correctly signed)', async (kit) => headerResigned(kit, { alg: 'HS256', typ: 'JWT' })),
  attack('SPE-KID-002', 'an unknown kid (signed with the right secret)', async (kit) =>
    headerResigned(kit, speechHeader(`pc-unknown-key-${randomUUID()}`)),
  ),
  attack('SPE-TYP-001', 'typ "JWS" instead of "JWT" (correctly signed)', async (kit) =>
    headerResigned(kit, { ...speechHeader(kit.apiKey), typ: 'JWS' }),
  ),
  attack('SPE-TYP-001', 'a header without typ (correctly signed)', async (kit) => headerResigned(kit, { alg: 'HS256', kid: kit.apiKey })),
  ...(
    [
      ['SPE-TIM-001', 'exp an hour ago', (now: number) => ({ exp: now - 3600, iat: now - 4200, nbf: now - 4200 })],
      ['SPE-TIM-002', 'nbf an hour ahead', (now: number) => ({ nbf: now + 3600, exp: now + 4200 })],
      ['SPE-TIM-003', 'iat an hour ahead', (now: number) => ({ iat: now + 3600 })],
      ['SPE-TIM-004', 'no exp claim', () => ({ exp: undefined })],
      ['SPE-AUD-001', 'aud of an unrelated service', () => ({ aud: 'pc-invalid-audience.example' })],
    ] as const
  ).map(([requirement, row, changes]) =>
    attack(requirement, row, async (kit) => {
      const { valid } = await base(kit, changes(unixNow()));
      return call(valid.authorization, valid.body);
    }),
  ),
  attack('SPE-AUD-001', 'aud of the service with a suffix appended', async (kit) => {
    const { valid } = await base(kit, { aud: `${kit.audience}.pc-other` });
    return call(valid.authorization, valid.body);
  }),
  attack('SPE-AUD-001', 'aud a set of two other services (an array without this one)', async (kit) => {
    const { valid } = await base(kit, { aud: ['pc-other-a.example', 'pc-other-b.example'] });
    return call(valid.authorization, valid.body);
  }),
  // A number names no service, whatever a lenient reader makes of its type.
  attack('SPE-AUD-001', 'aud as a number (signed)', async (kit) => resignedWith(kit, { aud: 42 })),
  // Claims of another type than 2.1 gives, with the same meaning to a lenient reader: a policy.
  attack('SPE-CTY-001', 'nbf as a numeric string (signed)', async (kit) => resignedWith(kit, { nbf: String(unixNow() - 10) })),
  attack('SPE-CTY-001', 'exp as a numeric string (signed)', async (kit) => resignedWith(kit, { exp: String(unixNow() + 600) })),
  attack('SPE-CTY-001', 'exp as the boolean true (signed)', async (kit) => resignedWith(kit, { exp: true })),
  attack('SPE-CTY-002', 'aud as a nested array holding the service (signed)', async (kit) => resignedWith(kit, { aud: [[kit.audience]] })),
  attack('SPE-CTY-002', 'x-content-sha256 as an array holding the right hash (signed)', async (kit) => {
    const body = recognizeBody();
    return callWithHashText(kit, body, [bodyDigest(body).toString('hex')]);
  }),
  // The other claims of 2.1 with the wrong type: a policy (well-kept JWT libraries ignore these types).
  ...(
    [
      ['iss as a number', () => ({ iss: 42 })],
      ['sub as a number', () => ({ sub: 42 })],
      ['sid as a number', () => ({ sid: 42 })],
      ['jti as a number', () => ({ jti: 42 })],
      ['jit as a number', () => ({ jit: 42 })],
      ['iat as a numeric string', () => ({ iat: String(unixNow() - 10) })],
      ['exp with a fraction of a second', () => ({ exp: unixNow() + 600.5 })],
    ] as Array<[string, () => Record<string, unknown>]>
  ).map(([row, changes]) => attack('SPE-CTY-003', `${row} (signed)`, async (kit) => resignedWith(kit, changes()))),
];

const bodyHashAttacks: Attack[] = [
  attack('SPE-HSH-001', 'x-content-sha256 of another body', async (kit) => {
    const { authorization } = await validCall(kit, sampleClaims(kit), recognizeBody());
    return call(authorization, recognizeBody());
  }),
  attack('SPE-HSH-001', 'x-content-sha256 of the empty string while a body is sent', async (kit) => {
    const { authorization } = await validCall(kit, sampleClaims(kit), NO_BODY);
    return call(authorization, recognizeBody());
  }),
  attack('SPE-HSH-001', 'x-content-sha256 of 64 zeros (signed)', async (kit) => callWithHashText(kit, recognizeBody(), '0'.repeat(64))),
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
  ...(['base64', 'base64url'] as const).map((encoding) =>
    attack('SPE-HSH-004', `x-content-sha256 of the body in ${encoding} instead of hex (signed)`, async (kit) => {
      const body = recognizeBody();
      return callWithHashText(kit, body, bodyDigest(body).toString(encoding));
    }),
  ),
];

const schemeAttacks: Attack[] = [
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

/** Every attack on the recognize call. */
export const ATTACKS: Attack[] = [...signatureAttacks, ...formatAttacks, ...claimAttacks, ...bodyHashAttacks, ...schemeAttacks];

/** Attacks on a stream (spec 2.1: x-content-sha256 is the hash "of the first message of the request when streaming"). */
export const STREAM_ATTACKS: Attack[] = [
  attack('SPE-STR-002', 'a stream whose token carries the SHA-256 of the whole stream, not of its first message', async (kit) => {
    const messages = streamMessages();
    const { authorization } = await validCall(kit, sampleClaims(kit), streamBody(messages));
    return { authorization, body: streamBody(messages), endpoint: 'stream' };
  }),
  attack('SPE-STR-002', 'a stream whose first message was changed after signing', async (kit) => {
    const messages = streamMessages();
    const { authorization } = await validStream(kit, messages);
    return { authorization, body: streamBody([streamMessages()[0], ...messages.slice(1)]), endpoint: 'stream' };
  }),
];
