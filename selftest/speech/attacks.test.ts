/**
 * The attack matrix breaks exactly the rule its requirement names. A small strict reading of 2.1 and 5.1
 * (node:crypto only, written for this test) lists every rule a call violates; each attack must violate
 * its own rule and nothing unrelated, and every valid call must violate none.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requirements } from '../../harness/spec/requirements.ts';
import { ROOT } from '../helpers.ts';
import { ATTACKS, STREAM_ATTACKS } from '../../generators/speech/attacks.ts';
import { bodyDigest, callWithHashText } from '../../generators/speech/calls.ts';
import {
  claimsAt,
  NO_BODY,
  recognizeBody,
  sampleClaims,
  streamMessages,
  validCall,
  validStream,
  type SpeechCall,
} from '../../harness/speech/requests.ts';
import type { SpeechKit } from '../../harness/speech/token.ts';

const KIT: SpeechKit = {
  apiKey: 'kit-api-key-01',
  secretKey: 'hjWAemtz9xalKHfIhz+45d4eafoZ/9Ma8btOk3OKkAw=',
  keyEncoding: 'base64',
  audience: 'tinkoff.cloud.stt',
  tokenIdClaim: 'jti',
};

type Rule =
  | 'token'
  | 'scheme'
  | 'format'
  | 'alg'
  | 'typ'
  | 'kid'
  | 'signature'
  | 'exp'
  | 'nbf'
  | 'iat'
  | 'aud'
  | 'hash'
  | 'hashForm'
  | 'claimType';

const HEX = /^[0-9a-fA-F]{64}$/;
/** What a stream's token hashes: its first message (spec 2.1); a plain call's: its whole body. */
const hashedPart = (call: SpeechCall) => (call.endpoint === 'stream' ? (call.body ?? '').split('\n')[0] : (call.body ?? ''));

function violations(call: SpeechCall, kit: SpeechKit, now = Math.floor(Date.now() / 1000)): Rule[] {
  if (call.authorization === null || /^bearer\s*$/i.test(call.authorization.trim())) return ['token'];
  const m = /^Bearer (\S+)$/.exec(call.authorization);
  if (!m) return ['scheme'];
  const parts = m[1].split('.');
  if (parts.length !== 3) return ['format'];
  const json = (s: string): unknown => {
    try {
      return JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
  };
  const header = json(parts[0]) as Record<string, unknown> | undefined;
  const payload = json(parts[1]) as Record<string, unknown> | undefined;
  if (!header || typeof header !== 'object' || Array.isArray(header) || !payload || typeof payload !== 'object' || Array.isArray(payload))
    return ['format'];
  const out: Rule[] = [];
  if (header.alg !== 'HS256') out.push('alg');
  if (header.typ !== 'JWT') out.push('typ');
  if (header.kid !== kit.apiKey) out.push('kid');
  const expected = createHmac('sha256', Buffer.from(kit.secretKey, 'base64')).update(`${parts[0]}.${parts[1]}`).digest();
  const received = Buffer.from(parts[2], 'base64url');
  if (received.length !== expected.length || !timingSafeEqual(received, expected) || received.toString('base64url') !== parts[2])
    out.push('signature');
  for (const name of ['exp', 'nbf', 'iat'] as const)
    if (payload[name] !== undefined && !Number.isInteger(payload[name])) out.push('claimType');
  for (const name of ['iss', 'sub', 'sid', 'jti', 'jit', 'aud', 'x-content-sha256'] as const)
    if (payload[name] !== undefined && typeof payload[name] !== 'string') out.push('claimType');
  if (typeof payload.exp !== 'number' || payload.exp < now) out.push('exp');
  if (Number(payload.nbf) > now) out.push('nbf');
  if (Number(payload.iat) > now) out.push('iat');
  if (payload.aud !== kit.audience) out.push('aud');
  const claimed = payload['x-content-sha256'];
  if (typeof claimed === 'string' && !HEX.test(claimed)) out.push('hashForm');
  else if (typeof claimed !== 'string' || claimed.toLowerCase() !== createHash('sha256').update(hashedPart(call)).digest('hex'))
    out.push('hash');
  return [...new Set(out)];
}

/** The rules an attack on each requirement may break: it must break at least one, and no other. */
const EXPECTED: Record<string, Rule[]> = {
  'SPE-SIG-001': ['signature'],
  'SPE-SIG-002': ['signature'],
  'SPE-SIG-003': ['signature', 'typ'],
  'SPE-SIG-004': ['signature'],
  'SPE-SIG-005': ['alg', 'signature'],
  'SPE-SIG-006': ['alg', 'signature'],
  'SPE-SIG-007': ['alg', 'signature'],
  'SPE-FMT-001': ['format', 'signature'],
  'SPE-KID-001': ['kid'],
  'SPE-TYP-001': ['typ'],
  'SPE-KID-002': ['kid'],
  'SPE-TIM-001': ['exp'],
  'SPE-TIM-002': ['nbf'],
  'SPE-TIM-003': ['iat'],
  'SPE-TIM-004': ['exp'],
  'SPE-AUD-001': ['aud', 'claimType'],
  'SPE-HSH-001': ['hash'],
  'SPE-HSH-002': ['hash'],
  'SPE-HSH-004': ['hashForm'],
  'SPE-CTY-001': ['claimType', 'exp', 'nbf'],
  'SPE-CTY-002': ['claimType', 'aud', 'hash'],
  'SPE-CTY-003': ['claimType'],
  'SPE-STR-002': ['hash'],
  'SPE-BRR-001': ['scheme'],
  'SPE-BRR-002': ['token'],
};

describe('the speech attack matrix', () => {
  it('valid calls break no rule: with a body or without, a stream, the hash in upper-case hex', async () => {
    expect(violations(await validCall(KIT), KIT)).toEqual([]);
    expect(violations(await validCall(KIT, sampleClaims(KIT), NO_BODY), KIT)).toEqual([]);
    const draft = { iss: 'i', sub: 's', sid: 'x', expiresIn: 60, issuedAgo: 5 };
    expect(violations(await validCall(KIT, claimsAt(draft, KIT), recognizeBody()), KIT)).toEqual([]);
    expect(violations(await validStream(KIT, streamMessages()), KIT)).toEqual([]);
    const body = recognizeBody();
    expect(violations(callWithHashText(KIT, body, bodyDigest(body).toString('hex').toUpperCase()), KIT)).toEqual([]);
  });

  for (const attack of [...ATTACKS, ...STREAM_ATTACKS]) {
    it(`${attack.requirement} ${attack.row}: breaks ${EXPECTED[attack.requirement]?.join(' or ')} and nothing unrelated`, async () => {
      const allowed = EXPECTED[attack.requirement];
      expect(allowed, `no expectation for ${attack.requirement}`).toBeDefined();
      const built = await attack.build(KIT);
      const broken = violations(built, KIT);
      expect(
        broken.some((r) => allowed.includes(r)),
        `breaks ${broken.join(', ') || 'nothing'}`,
      ).toBe(true);
      expect(broken.filter((r) => !allowed.includes(r))).toEqual([]);
      if (built.before) expect(violations(built.before, KIT)).toEqual([]);
    });
  }

  it('a call without a body has none, and its token carries the hash of the empty string', async () => {
    const call = await validCall(KIT, sampleClaims(KIT), NO_BODY);
    expect(call.body).toBeUndefined();
    const payload = JSON.parse(Buffer.from(call.token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(payload['x-content-sha256']).toBe(createHash('sha256').update('').digest('hex'));
  });

  it('every attack names a speech requirement of specs/requirements.yaml that a suite file runs', () => {
    const suites = readdirSync(join(ROOT, 'suites', 'speech'))
      .map((name) => readFileSync(join(ROOT, 'suites', 'speech', name), 'utf8'))
      .join('\n');
    for (const attack of [...ATTACKS, ...STREAM_ATTACKS]) {
      expect(requirements().get(attack.requirement)?.area, attack.requirement).toBe('speech');
      expect(suites.includes(`'${attack.requirement}'`), `no suites/speech file names ${attack.requirement}`).toBe(true);
    }
  });

  it('every attack builds a fresh call: no token or body is repeated', async () => {
    const seen = new Set<string>();
    for (const attack of [...ATTACKS, ...STREAM_ATTACKS]) {
      const built = await attack.build(KIT);
      const key = `${built.authorization}|${built.body}`;
      expect(seen.has(key), attack.row).toBe(false);
      seen.add(key);
    }
  });
});
