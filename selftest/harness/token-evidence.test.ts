/**
 * The tokens the speech suite sends, as its evidence shows them: header and claims decoded, as they were
 * encoded, so that an auditor sees which token a call carried (the `alg: none` one, the one whose header
 * was re-encoded after signing), with the signature masked and the kid masked whatever it holds; the API
 * key and the secret key in none of their encodings, and no whole token. A token that is itself a
 * credential of the target file (an access token it names) stays masked whole.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../harness/secrets/redact.ts';
import { RecordedExchange } from '../../harness/report/evidence-log.ts';

const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
const API_KEY = `api${PUNCTUATION}key-7f3a`;
const SECRET_KEY = `secret${PUNCTUATION}key-91bc`;
const ACCESS_TOKEN = `${segment({ alg: 'HS256', typ: 'JWT' })}.${segment({ sub: 'partner' })}.c2lnbmF0dXJlLW9mLWFjY2Vzcw`;

function segment(value: unknown): string {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
}

function signed(headerText: string, payloadText: string): string {
  const input = `${segment(headerText)}.${segment(payloadText)}`;
  return `${input}.${createHmac('sha256', SECRET_KEY).update(input).digest('base64url')}`;
}

const header = { alg: 'HS256', typ: 'JWT', kid: API_KEY };
const claims = { iss: 'partner-backend', sub: 'user-1', aud: 'stt', exp: 1900000000, iat: 1800000000, jti: 'j-1' };
const TOKENS = {
  valid: signed(JSON.stringify(header), JSON.stringify(claims)),
  none: `${segment({ alg: 'none', typ: 'JWT', kid: API_KEY })}.${segment(claims)}.`,
  reencoded: `${segment(JSON.stringify(header).replace(/":/g, '": '))}.${segment(claims)}.${signed(JSON.stringify(header), JSON.stringify(claims)).split('.')[2]}`,
  otherKid: signed(JSON.stringify({ ...header, kid: API_KEY.toUpperCase() }), JSON.stringify(claims)),
};

function recorded(authorization: string) {
  const redactor = new Redactor();
  redactor.register(API_KEY, SECRET_KEY, ACCESS_TOKEN);
  const exchange = new RecordedExchange(
    {
      area: 'speech',
      operation: 'GET /v1/stt:recognize',
      method: 'GET',
      url: 'http://127.0.0.1:1/v1/stt:recognize',
      headers: { authorization, 'content-type': 'application/json' },
      pacedMs: 0,
    },
    redactor,
  );
  exchange.answered({ status: 401, headers: {}, rawBody: '', waitMs: 1, receiveMs: 0 });
  const record = exchange.record!;
  return { record, authorization: record.request.headers.find(([name]) => name === 'authorization')![1] };
}

/** Every form of a secret a report could carry it in. */
const formsOf = (secret: string) => [
  secret,
  JSON.stringify(secret).slice(1, -1),
  encodeURIComponent(secret),
  Buffer.from(secret).toString('base64'),
  Buffer.from(secret).toString('base64url'),
  Buffer.from(secret).toString('hex'),
  secret.toUpperCase(),
];

describe('a token in the evidence', () => {
  it("shows the alg none token's header and claims, its signature empty, its kid masked", () => {
    const { authorization } = recorded(`Bearer ${TOKENS.none}`);
    expect(authorization).toMatch(
      /^Bearer eyJ\*\*\* \(a JWT, decoded by the suite: header \{"alg":"none","typ":"JWT","kid":"\*\*\* \(a credential of the target file\)"\}; /,
    );
    expect(authorization).toContain(`claims ${JSON.stringify(claims)}`);
    expect(authorization).toMatch(/; signature empty\)$/);
  });

  it('shows a header as it was encoded (re-encoded after signing), and a kid that is not the API key as masked all the same', () => {
    expect(recorded(`Bearer ${TOKENS.reencoded}`).authorization).toContain(
      'header {"alg": "HS256","typ": "JWT","kid": "*** (a credential of the target file)"}',
    );
    expect(recorded(`Bearer ${TOKENS.otherKid}`).authorization).toContain('"kid":"*** (not a credential of the target file)"');
    expect(recorded(`Bearer ${TOKENS.valid}`).authorization).toMatch(/; signature \*\*\* \(43 characters\)\)$/);
  });

  it('carries neither key in any encoding, nor a signature, nor a whole token', () => {
    for (const token of Object.values(TOKENS)) {
      const text = JSON.stringify(recorded(`Bearer ${token}`).record);
      for (const secret of [API_KEY, SECRET_KEY]) for (const form of formsOf(secret)) expect(text).not.toContain(form);
      const signature = token.split('.')[2];
      if (signature) expect(text).not.toContain(signature);
      expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*\./);
    }
  });

  it('leaves a credential of the target file masked whole', () => {
    expect(recorded(`Bearer ${ACCESS_TOKEN}`).authorization).toBe('Bearer ***');
  });
});
