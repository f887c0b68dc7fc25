/**
 * The speech faults: each entry names what it breaks and says how, as an edit around the handler
 * (sandbox/faults/modifiers.ts): a rule of the verifier replaced or switched off, the request or the
 * answer edited. The handler (handler.ts) and the verifier (verify.ts) know none of them.
 */
import { timingSafeEqual } from 'node:crypto';
import { editBody, faultsOf, never, onRefusal } from '../../faults/modifiers.ts';
import { errorAnswer, statusName, type SpeechAnswer } from './answers.ts';
import type { SpeechCall } from './call.ts';
import { AUDIENCE, audienceRule, bodyHashRule, CLAIM_RULES, oneOf, sha256hex, timeType, type Presented } from './claim-rules.ts';
import type { SpeechShape } from './handler.ts';
import { recognitionOf } from './recognition.ts';
import { BEARER, HEADER_RULES, SIGNATURE_RULES, signatureRule, type Signed } from './token-rules.ts';
import { isTokenRule } from './verify.ts';

type Node = Record<string, unknown>;

const f = faultsOf<SpeechShape>('speech');

const HMAC_HASHES: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };
const isNone = (alg: unknown) => typeof alg === 'string' && alg.toLowerCase() === 'none';
const reencode = (segment: string) =>
  Buffer.from(JSON.stringify(JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')))).toString('base64url');
const signature = SIGNATURE_RULES.signature;
const bodyHash = CLAIM_RULES['x-content-sha256'];
/** The hash rule run over the whole body instead of the bytes the call's hash covers. */
const wholeBody = (presented: Presented) => bodyHash({ ...presented, hashed: presented.body });
const asText = (value: unknown) => (value !== undefined ? String(value) : value);
/** The type rules of exp, nbf and iat, passing what `accepts` takes (every integer among it). */
const timesTaking = (accepts: (value: unknown) => boolean) => ({
  'exp.type': timeType('exp', accepts),
  'nbf.type': timeType('nbf', accepts),
  'iat.type': timeType('iat', accepts),
});

/** The same error answer with another status (and the details it had). */
const restated = (a: SpeechAnswer, status: number) =>
  errorAnswer(status, a.facts!.reason, a.refusedBy!, (a.body as { details: unknown[] }).details);
const tokenRefused = (a: SpeechAnswer) => isTokenRule(a.refusedBy);
const served = (a: SpeechAnswer) => a.status === 200;

export const speechFaults = [
  f('spe-expired-accepted', ['SPE-TIM-001', 'SPE-TIM-004'], 'exp is never checked: expired tokens and tokens without exp are accepted', {
    checks: { 'exp.type': never, 'exp.required': never, 'exp.expiry': never },
  }),
  f('spe-exp-optional', ['SPE-TIM-004'], 'exp is checked only when present: a token without exp never expires', {
    checks: { 'exp.required': never },
  }),
  f('spe-expired-400', ['SPE-STA-001'], 'an expired token is answered 400 (a validation error) instead of 401', {
    answer: onRefusal('exp.expiry', (a: SpeechAnswer) => restated(a, 400)),
  }),
  f('spe-nbf-ignored', ['SPE-TIM-002'], 'nbf is not checked: a token valid only from an hour ahead is accepted now', {
    checks: { 'nbf.window': never },
  }),
  f('spe-iat-future-accepted', ['SPE-TIM-003'], 'iat is not checked: a token issued an hour in the future is accepted', {
    checks: { 'iat.future': never },
  }),
  f('spe-aud-ignored', ['SPE-AUD-001'], 'aud is not checked: a token meant for another service is accepted', { checks: { aud: never } }),
  f('spe-aud-prefix', ['SPE-AUD-001'], 'aud is compared with startsWith: the audience with a suffix appended is accepted', {
    checks: { aud: audienceRule(oneOf((aud) => aud === AUDIENCE || (typeof aud === 'string' && aud.startsWith(AUDIENCE)))) },
  }),
  f(
    'spe-aud-only-string-checked',
    ['SPE-AUD-001'],
    'aud is compared only when it is a string: an array of other services, or a number, passes',
    {
      checks: { aud: audienceRule((aud) => typeof aud !== 'string' || aud === AUDIENCE) },
    },
  ),
  f('spe-aud-set-refused', ['SPE-AUD-002'], 'aud must be exactly the service as one string: a set of services that names it is refused', {
    checks: { aud: audienceRule((aud) => aud === AUDIENCE) },
  }),
  f('spe-alg-none-accepted', ['SPE-SIG-005'], 'a header with alg "none" (any case) skips signature verification', {
    checks: {
      'header.alg': (header: Node) => (isNone(header.alg) ? undefined : HEADER_RULES['header.alg'](header)),
      signature: (signed: Signed) => (isNone(signed.header.alg) ? undefined : signature(signed)),
    },
  }),
  f('spe-alg-from-header', ['SPE-SIG-006'], 'the HMAC hash is taken from the header: HS384 and HS512 tokens are verified and accepted', {
    checks: {
      'header.alg': (header: Node) =>
        typeof header.alg === 'string' && Object.hasOwn(HMAC_HASHES, header.alg) ? undefined : HEADER_RULES['header.alg'](header),
      signature: signatureRule({ hashOf: (header) => HMAC_HASHES[header.alg as string] }),
    },
  }),
  f(
    'spe-alg-label-ignored',
    ['SPE-SIG-007'],
    'the header alg is never read: an RS256-labelled token with an HMAC-SHA256 signature is accepted',
    { checks: { 'header.alg': never } },
  ),
  f('spe-kid-any', ['SPE-KID-001', 'SPE-KID-002'], 'kid is not checked: the one secret verifies tokens with any kid or none', {
    checks: { 'header.kid': never, 'key.lookup': (keys: ReadonlyMap<string, Buffer>) => [...keys.values()][0] },
  }),
  f('spe-sig-not-verified', ['SPE-SIG-001', 'SPE-SIG-002', 'SPE-SIG-003', 'SPE-SIG-004'], 'the signature is decoded but never verified', {
    checks: { signature: never },
  }),
  f('spe-sig-prefix-16', ['SPE-SIG-004'], 'only the first 16 bytes of the signature are compared (a truncated HMAC)', {
    checks: {
      signature: signatureRule({
        equal: (received, expected) => received.length >= 16 && timingSafeEqual(received.subarray(0, 16), expected.subarray(0, 16)),
      }),
    },
  }),
  f('spe-sig-case-insensitive', ['SPE-SIG-004'], 'signatures are compared as base64url text, ignoring letter case', {
    checks: {
      signature: signatureRule({
        equal: (_received, expected, segment) => segment.toLowerCase() === expected.toString('base64url').toLowerCase(),
      }),
    },
  }),
  f(
    'spe-sig-over-reserialised-json',
    ['SPE-SIG-002', 'SPE-SIG-003'],
    'the signature is checked over re-serialised header and payload JSON, not over the bytes received',
    {
      checks: { signature: signatureRule({ inputOf: ([h, p]) => `${reencode(h)}.${reencode(p)}` }) },
    },
  ),
  f(
    'spe-verify-cache-by-signature',
    ['SPE-SIG-002', 'SPE-SIG-003'],
    'a verification cache keyed by the signature segment alone: a changed header or payload with a known signature is accepted',
    {
      checks: (verified) => ({
        signature: (signed: Signed) => {
          if (verified.has(signed.parts[2])) return undefined;
          const refused = signature(signed);
          if (refused === undefined) verified.set(signed.parts[2], true);
          return refused;
        },
      }),
    },
  ),
  f('spe-hash-ignored', ['SPE-HSH-001', 'SPE-HSH-002', 'SPE-HSH-004', 'SPE-STR-002'], 'x-content-sha256 is never compared with the body', {
    checks: { 'x-content-sha256': never },
  }),
  f(
    'spe-hash-over-reserialised-json',
    ['SPE-HSH-002'],
    'the body hash is computed over re-serialised JSON, not the raw bytes: whitespace changes go unnoticed',
    {
      checks: {
        'x-content-sha256': bodyHashRule({
          digestOf: (bytes) => {
            try {
              return sha256hex(JSON.stringify(JSON.parse(bytes.toString('utf8'))));
            } catch {
              return sha256hex(bytes);
            }
          },
        }),
      },
    },
  ),
  f(
    'spe-empty-body-hashed-as-braces',
    ['SPE-HSH-003'],
    'a call without a body is hashed as "{}" (the framework defaults the body to an empty object)',
    {
      checks: { 'x-content-sha256': bodyHashRule({ digestOf: (bytes) => sha256hex(bytes.length === 0 ? '{}' : bytes) }) },
    },
  ),
  f('spe-no-bearer-accepted', ['SPE-BRR-001'], 'the Authorization scheme is not checked: a bare token or another scheme is accepted', {
    // As if the scheme were read leniently: the last word of the header is taken for the token.
    request: (call: SpeechCall) => {
      const authorization = call.headers.authorization;
      if (authorization === undefined || authorization.trim() === '' || BEARER.test(authorization)) return call;
      return { ...call, headers: { ...call.headers, authorization: `Bearer ${authorization.trim().split(/\s+/).pop()}` } };
    },
  }),
  f('spe-no-auth-served', ['SPE-BRR-002'], 'the token check is skipped when no token is sent', {
    answer: onRefusal('authorization.present', (_a: SpeechAnswer, call: SpeechCall) => recognitionOf(call)),
  }),
  f(
    'spe-valid-token-403',
    ['SPE-TOK-001'],
    'a token that passes every check is refused 403 (a permission table the API key is missing from), while bad tokens still get 401',
    { answer: (a) => (served(a) ? errorAnswer(403, 'the API key may not use this service', 'permissions') : a) },
  ),
  f('spe-refuse-403', ['SPE-STA-001'], 'every refused token is answered 403 instead of 401', {
    answer: (a) => (tokenRefused(a) && a.status === 401 ? restated(a, 403) : a),
  }),
  f('spe-echo-token', ['SPE-KEY-001'], 'error answers echo the received token in their details (a debugging aid left on)', {
    answer: (a, call) => {
      const receivedToken = call.headers.authorization?.replace(/^bearer\s+/i, '') ?? null;
      return editBody<SpeechAnswer, { details: unknown[] }>(tokenRefused, (body) => void (body.details = [{ receivedToken }]))(a);
    },
  }),
  f('spe-transcript-renamed', ['SPE-RSP-001'], 'recognition alternatives carry `text` instead of `transcript`', {
    answer: editBody<SpeechAnswer, { results: Array<{ alternatives: Node[] }> }>(served, (body) => {
      for (const result of body.results)
        result.alternatives = result.alternatives.map((alt) =>
          Object.fromEntries(Object.entries(alt).map(([k, v]) => [k === 'transcript' ? 'text' : k, v])),
        );
    }),
  }),
  f('spe-jit-only', ['SPE-TOK-001'], 'a strict claim allowlist that knows only the older `jit` spelling refuses tokens carrying `jti`', {
    checks: { 'claims.names': ({ claims }: Presented) => ('jti' in claims ? 'unknown claim jti' : undefined) },
  }),
  f('spe-jit-500', ['SPE-JTI-001'], "a token whose id is spelled jit (the claim list's spelling) crashes the claim check (500)", {
    checks: {
      'claims.names': ({ claims }: Presented) => {
        if ('jit' in claims) throw new TypeError('claim jit is not mapped');
        return undefined;
      },
    },
  }),
  f(
    'spe-jti-refused-for-jit',
    ['SPE-JTI-002'],
    "the target file says its tokens spell the id jit, and a strict allowlist that knows only jit refuses tokens carrying jti, the vendor's newer spelling",
    { checks: { 'claims.names': ({ claims }: Presented) => ('jti' in claims ? 'unknown claim jti' : undefined) } },
  ),
  f(
    'spe-token-id-refused',
    ['SPE-TOK-001'],
    'a strict claim allowlist that knows neither spelling of the token id refuses tokens carrying one',
    {
      checks: { 'claims.names': ({ claims }: Presented) => ('jti' in claims || 'jit' in claims ? 'unknown claim' : undefined) },
    },
  ),
  f('spe-malformed-500', ['SPE-FMT-001'], 'a token whose header is not JSON crashes the handler (500)', {
    // The header parsed without a guard: a parse error escapes, and a header that is no object goes on.
    checks: {
      'header.json': (read) => {
        if ('error' in read) throw new SyntaxError(read.error);
        return undefined;
      },
      'header.object': never,
    },
  }),
  f(
    'spe-future-iat-500',
    ['SPE-TIM-005', 'SPE-TIM-003'],
    'a token issued in the future beyond the leeway crashes the handler (its age goes negative): 500',
    {
      checks: {
        'iat.future': (presented: Presented) => {
          if (CLAIM_RULES['iat.future'](presented)) throw new RangeError('token age is negative');
          return undefined;
        },
      },
    },
  ),
  f('spe-typ-unchecked', ['SPE-TYP-001'], 'the header typ is never read: a correctly signed token with typ "JWS" or none is accepted', {
    checks: { 'header.typ': never },
  }),
  f('spe-time-claims-coerced', ['SPE-CTY-001'], 'exp, nbf and iat go through Number(): a numeric string is taken for a Unix time', {
    checks: timesTaking((v) => Number.isFinite(Number(v))),
  }),
  f(
    'spe-claims-compared-as-text',
    ['SPE-CTY-002'],
    'aud and x-content-sha256 are compared as String(value): a nested array holding the service, or an array holding the hash, matches',
    {
      checks: { aud: audienceRule((aud) => String(aud) === AUDIENCE), 'x-content-sha256': bodyHashRule({ textOf: asText }) },
    },
  ),
  f(
    'spe-claim-types-unchecked',
    ['SPE-CTY-003'],
    'iss, sub, sid, jti and jit may have any type, and exp, nbf, iat any number (fractions too)',
    {
      checks: {
        'claims.types': never,
        ...timesTaking((v) => typeof v === 'number'),
      },
    },
  ),
  f('spe-hash-any-encoding', ['SPE-HSH-004'], 'x-content-sha256 is also accepted as the base64 or base64url of the digest', {
    checks: {
      'x-content-sha256': bodyHashRule({
        matches: (claimed, hex) => {
          const digest = Buffer.from(hex, 'hex');
          return claimed === digest.toString('base64') || claimed === digest.toString('base64url') || claimed.toLowerCase() === hex;
        },
      }),
    },
  }),
  f(
    'spe-hash-case-sensitive',
    ['SPE-HSH-005'],
    'x-content-sha256 is compared with the lower-case hex digest as text: upper-case hex is refused',
    {
      checks: { 'x-content-sha256': bodyHashRule({ matches: (claimed, hex) => claimed === hex }) },
    },
  ),
  f(
    'spe-stream-hash-whole-body',
    ['SPE-STR-001', 'SPE-STR-002'],
    'the streaming call hashes the whole stream instead of its first message',
    {
      checks: { 'x-content-sha256': wholeBody },
    },
  ),
  f(
    'spe-stream-hash-either',
    ['SPE-STR-002'],
    'the streaming call accepts the hash of the whole stream as well as that of its first message',
    {
      checks: { 'x-content-sha256': (presented: Presented) => bodyHash(presented) && wholeBody(presented) },
    },
  ),
  f(
    'spe-json-content-type-refused',
    ['SPE-HDR-001'],
    'the recognize call refuses Content-Type application/json (415): it expects text/plain',
    {
      checks: {
        'content-type': (call: SpeechCall) =>
          call.kind === 'recognize' && String(call.headers['content-type'] ?? '').startsWith('application/json')
            ? { status: 415, reason: 'the recognize call takes text/plain' }
            : undefined,
      },
    },
  ),
  f('spe-get-refused', ['SPE-MTH-001'], 'the recognize call is served with POST only: GET, the method 4.1 lists, is answered 405', {
    answer: (a, call) =>
      call.kind === 'recognize' && call.method === 'GET' ? errorAnswer(405, 'the method GET is not allowed', 'method') : a,
  }),
  f('spe-refusal-html', ['SPE-STA-001'], 'refusals are an HTML error page (text/html) instead of JSON', {
    answer: (a) =>
      a.status >= 400
        ? {
            ...a,
            headers: { ...a.headers, 'content-type': 'text/html; charset=utf-8' },
            body: `<html><body><h1>${a.status} ${statusName(a.status)}</h1></body></html>`,
          }
        : a,
  }),
];
