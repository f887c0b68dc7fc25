/**
 * The redactor against every form a secret takes on its way to a message, with secrets made of every
 * ASCII punctuation character (issue: a client secret with `~` or `!` leaked through URLSearchParams,
 * the speech API key leaked base64url-encoded in a partial JWT header, a password in a service URL
 * leaked in every curl line).
 */
import { describe, expect, it } from 'vitest';
import { ConformanceError, failure } from '../../harness/checks/failure.ts';
import { curlOf } from '../../harness/secrets/curl.ts';
import { cannedResponse } from '../helpers.ts';
import { Redactor } from '../../harness/secrets/redact.ts';

const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

/** Secrets that exercise every punctuation character: all of them at once, and each one inside letters. */
const SECRETS = [
  `Pc${PUNCTUATION}Zz`,
  ...[...PUNCTUATION].map((ch, i) => `sec${i}${ch}ret${ch}${ch}Value${i}`),
  `space in ${'~!'} secret`,
  'plainAlnumSecret0123456789',
  'кириллица-секрет',
];

const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');

const shellQuoted = (s: string) => s.replace(/'/g, `'\\''`);

/**
 * Every encoding a secret meets between the target file and a report: the form that must not survive,
 * and (where it matters) the text it sits in.
 */
const FORMS: Array<[string, (s: string) => string, ((form: string, s: string) => string)?]> = [
  ['raw', (s) => s],
  ['encodeURIComponent', encodeURIComponent],
  ['encodeURIComponent, lower-case hex', (s) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
  ['encodeURI', encodeURI],
  ['URLSearchParams', (s) => new URLSearchParams({ x: s }).toString().slice(2), (form) => `client_id=c&client_secret=${form}`],
  ['JSON-escaped', (s) => JSON.stringify(s).slice(1, -1)],
  ['JSON-escaped twice', (s) => JSON.stringify(JSON.stringify(s)).slice(1, -1)],
  [
    'JSON with \\u escapes (as Go writes <, >, &)',
    (s) =>
      JSON.stringify(s)
        .slice(1, -1)
        .replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`),
  ],
  ['JSON with \\/ (as PHP writes /)', (s) => JSON.stringify(s).slice(1, -1).replace(/\//g, '\\/')],
  [
    'shell-quoted in a curl header',
    shellQuoted,
    (_f, s) => curlOf({ method: 'POST', url: 'https://x.test/a', headers: { 'x-note': s }, bodyText: 'x' }),
  ],
  [
    'JSON inside a shell-quoted curl body',
    (s) => shellQuoted(JSON.stringify(s).slice(1, -1)),
    (_f, s) => curlOf({ method: 'POST', url: 'https://x.test/a', headers: {}, bodyText: JSON.stringify({ secret: s }) }),
  ],
  [
    'a form inside a shell-quoted curl body',
    (s) => shellQuoted(new URLSearchParams({ x: s }).toString().slice(2)),
    (_f, s) =>
      curlOf({
        method: 'POST',
        url: 'https://x.test/a',
        headers: {},
        bodyText: new URLSearchParams({ client_id: 'c', client_secret: s }).toString(),
      }),
  ],
  [
    'HTML-escaped',
    (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
  ],
  ['hex', (s) => Buffer.from(s).toString('hex')],
  ['HEX', (s) => Buffer.from(s).toString('hex').toUpperCase()],
  ['base64', b64],
  ['base64url', b64url],
  ['basic credentials', (s) => b64(`partner:${s}`), (form) => `-H 'x-forwarded-authorization: Basic ${form}'`],
  ['base64 inside a longer base64 string', (s) => b64(`prefix-${s}-suffix`)],
  ['the kid of a JWT header (base64url)', (s) => b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: s }))],
  ['the kid of a JWT header with another key first', (s) => b64url(JSON.stringify({ a: 1, kid: s, alg: 'HS256' }))],
];

function redactorWith(...secrets: string[]): Redactor {
  const r = new Redactor();
  r.register(...secrets);
  return r;
}

describe('redactor: every form of a secret of punctuation', () => {
  for (const [name, encode, context] of FORMS) {
    it(`masks the ${name} form`, () => {
      for (const secret of SECRETS) {
        const r = redactorWith(secret);
        const form = encode(secret);
        const out = r.redact(`before ${context ? context(form, secret) : form} after`);
        expect(out.includes(form), `${name} of ${JSON.stringify(secret)}: ${out}`).toBe(false);
        expect(out.includes(secret), `${name} of ${JSON.stringify(secret)}: ${out}`).toBe(false);
        expect(out, 'the text around it stays').toMatch(/^before .*after$/s);
      }
    });
  }

  it('masks a JWT header cut short, whose kid is cut too (a truncated snippet)', () => {
    for (const secret of SECRETS.filter((s) => s.length >= 12)) {
      const r = redactorWith(secret);
      const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: secret }));
      // Cut in the middle of the kid, at every alignment of the base64 groups.
      const kidStart = Math.ceil(((JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: '' }).length - 2) * 4) / 3);
      for (const extra of [8, 9, 10, 11]) {
        const cut = header.slice(0, kidStart + extra);
        const out = r.redact(`authorization: JWT ${cut}… (cut)`);
        expect(out, `${JSON.stringify(secret)} cut at ${cut.length}`).not.toContain(cut.slice(-8));
      }
    }
  });

  it('masks a base64 run cut short in the middle of a secret, whatever it starts with', () => {
    for (const secret of SECRETS.filter((s) => s.length >= 12)) {
      const r = redactorWith(secret);
      const plain = `note: ${JSON.stringify({ kid: secret })}`;
      const encoded = b64url(plain);
      const kidAt = Math.ceil(((plain.indexOf(JSON.stringify(secret)) + 1) * 4) / 3);
      for (const extra of [8, 9, 10, 11]) {
        const cut = encoded.slice(0, kidAt + extra);
        expect(cut.startsWith('eyJ')).toBe(false);
        const out = r.redact(`body ${cut}…(512 bytes)`);
        expect(out, `${JSON.stringify(secret)} cut at ${cut.length}`).not.toContain(cut.slice(-8));
      }
    }
  });

  it('masks a secret cut short by an ellipsis, in its raw and encoded forms', () => {
    for (const secret of SECRETS.filter((s) => s.length >= 12)) {
      const r = redactorWith(secret);
      for (const form of [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]) {
        const part = form.slice(0, 10);
        const out = r.redact(`body: {"echo":"${part}…(2000 bytes in all)`);
        expect(out, JSON.stringify(secret)).not.toContain(part);
      }
    }
  });

  it('masks a secret in a mix of encodings of one request (a form inside JSON inside a shell line)', () => {
    for (const secret of SECRETS) {
      const r = redactorWith(secret);
      const form = new URLSearchParams({ client_id: 'c', client_secret: secret }).toString();
      const out = r.redact(curlOf({ method: 'POST', url: 'https://x.test/userinfo', headers: {}, bodyText: JSON.stringify({ form }) }));
      expect(out).not.toContain(new URLSearchParams({ x: secret }).toString().slice(2));
      expect(out).toContain('client_id=c');
    }
  });

  it('leaves ordinary text alone', () => {
    const r = redactorWith(...SECRETS);
    const text =
      'INS-LIM-002 §8 contractId of 129 characters is rejected with 400 or 422; Expected: rejected; Received: accepted with 201 at /items/0/value';
    expect(r.redact(text)).toBe(text);
    const curl = curlOf({ method: 'GET', url: 'https://x.test/api/v1/cards?limit=1000&offset=0', headers: { accept: 'application/json' } });
    expect(r.redact(curl)).toBe(curl);
  });

  it('is idempotent', () => {
    const r = redactorWith(...SECRETS);
    const text = SECRETS.map((s) => `${s} ${encodeURIComponent(s)} ${b64url(JSON.stringify({ kid: s }))}`).join('\n');
    const once = r.redact(text);
    expect(r.redact(once)).toBe(once);
  });
});

describe('redactor: credentials by their shape', () => {
  const r = new Redactor();

  it('masks the user:password@ of a URL in a curl line', () => {
    const out = r.redact(curlOf({ method: 'GET', url: 'https://partner:p%40ss~w0rd!@x.test/a', headers: {} }));
    expect(out).not.toContain('p%40ss~w0rd!');
    expect(out).not.toContain('partner:');
    expect(out).toContain('https://***@x.test/a');
  });

  it('masks query and form parameters named like a key, token, secret or password', () => {
    const url = 'https://x.test/a?apikey=K1~!&access_token=T2&client_secret=S3&password=P4&signature=G5&limit=10';
    const out = r.redact(curlOf({ method: 'POST', url, headers: {}, bodyText: 'client_id=c&client_secret=S6%7E' }));
    for (const value of ['K1~!', 'T2', 'S3', 'P4', 'G5', 'S6%7E']) expect(out).not.toContain(value);
    expect(out).toContain('limit=10');
    expect(out).toContain('client_id=c');
  });

  it('masks credential fields of a JSON body and credential headers of a curl line', () => {
    const out = r.redact(
      `${JSON.stringify({ access_token: 'abc"def', client_secret: 'x\\y', name: 'Ivan' })} -H 'x-api-key: k\\'\\''ey' -H 'accept: */*'`,
    );
    expect(out).not.toContain('abc');
    expect(out).not.toContain('x\\\\y');
    expect(out).not.toContain("k\\'\\''ey");
    expect(out).toContain('"name":"Ivan"');
    expect(out).toContain("-H 'accept: */*'");
    expect(r.redact("-H 'idempotency-key: 5f0c'")).toBe("-H 'idempotency-key: 5f0c'");
  });

  it('masks JWTs, lone JWT segments and Authorization values', () => {
    const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: 'unregistered-key' }));
    const jwt = `${header}.${b64url('{"sub":"1"}')}.c2lnbmF0dXJl`;
    const out = r.redact(`jwt ${jwt} header ${header} -H 'authorization: Bearer opaque-123' -H 'authorization: Basic dXNlcjpwYXNz'`);
    for (const leakedPart of [jwt, header, 'opaque-123', 'dXNlcjpwYXNz']) expect(out).not.toContain(leakedPart);
  });
});

describe('a contract failure as error serialisers see it', () => {
  it('serialises to its redacted message only, never the raw request or the failure data', () => {
    const r = redactorWith('Tok3n~!secret');
    const res = cannedResponse(200, { echo: 'Tok3n~!secret' });
    res.request = { method: 'GET', url: 'https://x.test/a', headers: { authorization: 'Bearer Tok3n~!secret' } };
    res.curl = r.redact(curlOf(res.request));
    const error = new ConformanceError([failure('X-1', 'no echo', 'echoed Tok3n~!secret')], {
      title: 'X-1 title',
      response: res,
      redactor: r,
    });
    // vitest serialises an Error through its toJSON when it has one (worker messages, the junit report).
    const serialised = JSON.stringify(error);
    expect(serialised).not.toContain('Tok3n');
    expect(Object.keys(JSON.parse(serialised)).sort()).toEqual(['message', 'name', 'stack']);
    expect(error.response).toBe(res);
    expect(error.failures).toHaveLength(1);
  });
});
