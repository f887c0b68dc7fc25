/**
 * buildSpeechToken against the spec's construction (5.1 steps 2 to 5), recomputed here with node:crypto
 * alone: the builder is checked against the spec, not against jose or itself.
 */
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { schemaId, schemaRegistry } from '../../harness/spec/schemas.ts';
import {
  buildSpeechToken,
  contentSha256,
  hmacKey,
  secretVariants,
  type KeyEncoding,
  type SpeechClaims,
} from '../../harness/speech/token.ts';

const API_KEY = 'partner-api-key-0042';
const BASE64_SECRET = 'hjWAemtz9xalKHfIhz+45d4eafoZ/9Ma8btOk3OKkAw=';
const RAW_SECRET = 'plain text secret, used as given';
const CLAIMS: SpeechClaims = {
  iss: 'issuer',
  sub: 'user-1',
  aud: 'tinkoff.cloud.stt',
  exp: 1_900_000_600,
  iat: 1_900_000_000,
  nbf: 1_900_000_000,
  jti: '3f1c2b7e-8d4a-4c11-9b0e-5a6f7d8e9c01',
  sid: 'session-77',
};
const BODY = '{"config":{"encoding":"LINEAR16"},"audio":{"content":"AAAA"}}';

/** The spec's construction, spelled out with node:crypto only. */
function specToken(
  apiKey: string,
  secret: string,
  encoding: KeyEncoding,
  claims: SpeechClaims,
  body: string | Uint8Array | undefined,
): string {
  const b64url = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  const header = JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: apiKey });
  const hash = createHash('sha256')
    .update(body === undefined ? Buffer.alloc(0) : Buffer.from(body))
    .digest('hex');
  const payload = JSON.stringify({ ...claims, 'x-content-sha256': hash });
  const input = `${b64url(Buffer.from(header, 'utf8'))}.${b64url(Buffer.from(payload, 'utf8'))}`;
  const key = encoding === 'base64' ? Buffer.from(secret, 'base64') : Buffer.from(secret, 'utf8');
  return `${input}.${b64url(createHmac('sha256', key).update(input, 'ascii').digest())}`;
}

const decode = (segment: string) => JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('buildSpeechToken', () => {
  const cases: Array<[string, KeyEncoding, string, string | Uint8Array | undefined]> = [
    ['a base64 secret, decoded (the vendor examples), with a JSON body', 'base64', BASE64_SECRET, BODY],
    ['a secret used as given (the spec wording), with a JSON body', 'raw', RAW_SECRET, BODY],
    ['a call without a body', 'base64', BASE64_SECRET, undefined],
    ['a binary first message of a stream', 'raw', RAW_SECRET, new Uint8Array([0, 1, 2, 253, 254, 255])],
    ['non-ASCII claims and body', 'raw', 'секрет', '{"text":"привет"}'],
  ];
  for (const [what, encoding, secret, body] of cases) {
    it(`equals the spec's construction byte for byte: ${what}`, async () => {
      const claims = what.startsWith('non-ASCII') ? { ...CLAIMS, sub: 'пользователь' } : CLAIMS;
      const token = await buildSpeechToken({ apiKey: API_KEY, secretKey: secret, keyEncoding: encoding, claims, body });
      expect(token).toBe(specToken(API_KEY, secret, encoding, claims, body));
    });
  }

  it('uses base64url without padding in every segment', async () => {
    const token = await buildSpeechToken({ apiKey: API_KEY, secretKey: BASE64_SECRET, keyEncoding: 'base64', claims: CLAIMS, body: BODY });
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  });

  it('writes the header and payload the schemas describe, the body hash in hex', async () => {
    const token = await buildSpeechToken({ apiKey: API_KEY, secretKey: RAW_SECRET, claims: CLAIMS, body: BODY });
    const [h, p] = token.split('.');
    const registry = schemaRegistry();
    const header = registry.validator(schemaId('speech/jwt-header'));
    const payload = registry.validator(schemaId('speech/jwt-payload'));
    expect(header(decode(h)), JSON.stringify(header.errors)).toBe(true);
    expect(payload(decode(p)), JSON.stringify(payload.errors)).toBe(true);
    expect(decode(h)).toEqual({ alg: 'HS256', typ: 'JWT', kid: API_KEY });
    expect(decode(p)['x-content-sha256']).toBe(createHash('sha256').update(BODY).digest('hex'));
  });

  it('hashes a call without a body as the empty string', () => {
    expect(contentSha256()).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(contentSha256('')).toBe(contentSha256());
  });

  it('the payload schema accepts either spelling of the token id and needs one', () => {
    const payload = schemaRegistry().validator(schemaId('speech/jwt-payload'));
    const full = { ...CLAIMS, 'x-content-sha256': contentSha256() };
    const { jti, ...withoutId } = full;
    expect(payload({ ...withoutId, jit: jti })).toBe(true);
    expect(payload(full)).toBe(true);
    expect(payload(withoutId)).toBe(false);
  });

  it('refuses an x-content-sha256 passed in claims: it is always computed from the body', async () => {
    await expect(
      buildSpeechToken({ apiKey: API_KEY, secretKey: RAW_SECRET, claims: { ...CLAIMS, 'x-content-sha256': 'ab' } }),
    ).rejects.toThrow(/computes x-content-sha256/);
  });
});

describe('hmacKey and secretVariants', () => {
  it('rejects a base64 secret that is not base64, without printing it', () => {
    const secret = 'not base64 at all!';
    expect(() => hmacKey(secret, 'base64')).toThrow(/not valid base64/);
    try {
      hmacKey(secret, 'base64');
    } catch (error) {
      expect((error as Error).message).not.toContain(secret);
    }
  });

  it('accepts the standard and the URL-safe base64 alphabets', () => {
    const bytes = Buffer.from(BASE64_SECRET, 'base64');
    expect(Buffer.from(hmacKey(bytes.toString('base64url'), 'base64'))).toEqual(bytes);
    expect(Buffer.from(hmacKey(BASE64_SECRET, 'base64'))).toEqual(bytes);
  });

  it('lists the secret as given and the key bytes as hex, base64 and base64url', () => {
    const bytes = Buffer.from(BASE64_SECRET, 'base64');
    expect(secretVariants(BASE64_SECRET, 'base64')).toEqual(
      expect.arrayContaining([BASE64_SECRET, bytes.toString('hex'), bytes.toString('base64url')]),
    );
    expect(secretVariants(RAW_SECRET, 'raw')).toEqual(expect.arrayContaining([RAW_SECRET, Buffer.from(RAW_SECRET).toString('base64')]));
  });
});
