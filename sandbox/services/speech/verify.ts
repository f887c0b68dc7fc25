/**
 * The sandbox's own reading of spec 2.1 and 5.1 (independent of harness/: a real staging does not share
 * the suite's token builder). Checks, in order: the Bearer scheme, three base64url segments, the header
 * (alg exactly HS256, typ JWT, a known kid), the HMAC-SHA256 signature over the bytes received
 * (constant-time compare), then the claims: the types of 2.1, exp (required), nbf and iat (when present)
 * with LEEWAY_SECONDS of clock leeway, aud, and x-content-sha256 (hex, either case) against the raw
 * body bytes, or against the first message of a stream.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { FaultSet } from '../../faults/types.ts';

export const LEEWAY_SECONDS = 30;

export interface VerifierConfig {
  /** kid (API key) -> HMAC key bytes. */
  keys: ReadonlyMap<string, Buffer>;
  audience: string;
  faults: FaultSet;
  /** Signatures already verified (only the spe-verify-cache-by-signature fault reads it). */
  verified: Set<string>;
}

export type Verdict =
  | { ok: true; claims: Record<string, unknown> }
  | { ok: false; status: number; reason: string };

const SEGMENT = /^[A-Za-z0-9_-]+$/;
const HASHES: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const b64urlJson = (segment: string): unknown => JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
const reencode = (segment: string) => Buffer.from(JSON.stringify(b64urlJson(segment))).toString('base64url');
const sha256hex = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

class Refusal extends Error {
  constructor(
    readonly reason: string,
    readonly status = 401,
  ) {
    super(reason);
  }
}

function bearerToken(authorization: string | undefined, faults: FaultSet): string | undefined {
  if (authorization === undefined || authorization.trim() === '') {
    if (faults.has('spe-no-auth-served')) return undefined;
    throw new Refusal('a bearer token is required');
  }
  const match = /^Bearer +(\S+)\s*$/i.exec(authorization);
  if (match) return match[1];
  if (faults.has('spe-no-bearer-accepted')) return authorization.trim().split(/\s+/).pop();
  throw new Refusal('the Authorization header must use the Bearer scheme');
}

function parseHeader(segment: string, faults: FaultSet): Record<string, unknown> {
  if (faults.has('spe-malformed-500')) return b64urlJson(segment) as Record<string, unknown>;
  let header: unknown;
  try {
    header = b64urlJson(segment);
  } catch {
    throw new Refusal('the token header is not base64url JSON');
  }
  if (!isObject(header)) throw new Refusal('the token header is not a JSON object');
  return header;
}

function parsePayload(segment: string): Record<string, unknown> {
  let payload: unknown;
  try {
    payload = b64urlJson(segment);
  } catch {
    throw new Refusal('the token payload is not base64url JSON');
  }
  if (!isObject(payload)) throw new Refusal('the token payload is not a JSON object');
  return payload;
}

/** Which hash to verify with, or undefined when the signature check is skipped (a fault). */
function hashFor(alg: unknown, faults: FaultSet): string | undefined {
  if (faults.has('spe-alg-none-accepted') && typeof alg === 'string' && alg.toLowerCase() === 'none') return undefined;
  if (faults.has('spe-alg-label-ignored')) return 'sha256';
  if (faults.has('spe-alg-from-header') && typeof alg === 'string' && HASHES[alg]) return HASHES[alg];
  if (alg !== 'HS256') throw new Refusal(`alg must be HS256, got ${JSON.stringify(alg)}`);
  return 'sha256';
}

function checkTyp(typ: unknown, faults: FaultSet): void {
  if (faults.has('spe-typ-unchecked')) return;
  if (typeof typ !== 'string' || typ.toUpperCase() !== 'JWT') throw new Refusal(`typ must be JWT, got ${JSON.stringify(typ)}`);
}

function keyFor(kid: unknown, cfg: VerifierConfig): Buffer {
  if (cfg.faults.has('spe-kid-any')) return [...cfg.keys.values()][0];
  if (typeof kid !== 'string' || kid === '') throw new Refusal('the token header has no kid');
  const key = cfg.keys.get(kid);
  if (!key) throw new Refusal('unknown kid');
  return key;
}

function checkSignature(parts: string[], hash: string, key: Buffer, cfg: VerifierConfig): void {
  const { faults } = cfg;
  const [h, p, s] = parts;
  if (faults.has('spe-sig-not-verified')) return;
  if (faults.has('spe-verify-cache-by-signature') && cfg.verified.has(s)) return;
  const input = faults.has('spe-sig-over-reserialised-json') ? `${reencode(h)}.${reencode(p)}` : `${h}.${p}`;
  const expected = createHmac(hash, key).update(input, 'ascii').digest();
  const received = Buffer.from(s, 'base64url');
  let equal: boolean;
  if (faults.has('spe-sig-case-insensitive')) equal = s.toLowerCase() === expected.toString('base64url').toLowerCase();
  else if (faults.has('spe-sig-prefix-16')) equal = received.length >= 16 && timingSafeEqual(received.subarray(0, 16), expected.subarray(0, 16));
  else equal = received.length === expected.length && timingSafeEqual(received, expected);
  if (!equal) throw new Refusal('the signature does not verify');
  if (faults.has('spe-verify-cache-by-signature')) cfg.verified.add(s);
}

function numericDate(claims: Record<string, unknown>, name: string, faults: FaultSet): number | undefined {
  const value = claims[name];
  if (value === undefined) return undefined;
  // A lenient parser: numeric strings and booleans become numbers.
  if (faults.has('spe-time-claims-coerced') && Number.isFinite(Number(value))) return Number(value);
  if (faults.has('spe-claim-types-unchecked') && typeof value === 'number') return value;
  if (!Number.isInteger(value)) throw new Refusal(`${name} must be an integer Unix time`);
  return value as number;
}

const STRING_CLAIMS = ['iss', 'sub', 'jti', 'jit', 'sid'];

function checkClaimTypes(claims: Record<string, unknown>, faults: FaultSet): void {
  if (faults.has('spe-claim-types-unchecked')) return;
  const wrong = STRING_CLAIMS.find((name) => claims[name] !== undefined && typeof claims[name] !== 'string');
  if (wrong) throw new Refusal(`${wrong} must be a string`);
}

function checkTimes(claims: Record<string, unknown>, faults: FaultSet, now: number): void {
  if (!faults.has('spe-expired-accepted')) {
    const exp = numericDate(claims, 'exp', faults);
    if (exp === undefined && !faults.has('spe-exp-optional')) throw new Refusal('the token has no exp');
    if (exp !== undefined && now > exp + LEEWAY_SECONDS) throw new Refusal('the token has expired', faults.has('spe-expired-400') ? 400 : 401);
  }
  const nbf = numericDate(claims, 'nbf', faults);
  if (nbf !== undefined && now < nbf - LEEWAY_SECONDS && !faults.has('spe-nbf-ignored')) throw new Refusal('the token is not valid yet (nbf)');
  const iat = numericDate(claims, 'iat', faults);
  if (iat !== undefined && iat > now + LEEWAY_SECONDS && faults.has('spe-future-iat-500')) throw new RangeError('token age is negative');
  if (iat !== undefined && iat > now + LEEWAY_SECONDS && !faults.has('spe-iat-future-accepted')) throw new Refusal('the token is issued in the future (iat)');
}

function checkAudience(aud: unknown, cfg: VerifierConfig): void {
  if (cfg.faults.has('spe-aud-ignored')) return;
  const asText = cfg.faults.has('spe-claims-compared-as-text');
  const matches = (a: unknown) => (asText ? String(a) : a) === cfg.audience || (typeof a === 'string' && cfg.faults.has('spe-aud-prefix') && a.startsWith(cfg.audience));
  const ok = Array.isArray(aud) && !asText ? aud.some(matches) : matches(aud);
  if (!ok) throw new Refusal('the token is not meant for this service (aud)');
}

function bodyHash(raw: Buffer, faults: FaultSet): string {
  if (raw.length === 0) return sha256hex(faults.has('spe-empty-body-hashed-as-braces') ? '{}' : '');
  if (faults.has('spe-hash-over-reserialised-json')) {
    try {
      return sha256hex(JSON.stringify(JSON.parse(raw.toString('utf8'))));
    } catch {
      return sha256hex(raw);
    }
  }
  return sha256hex(raw);
}

/** The forms of the hash the service accepts: hex in either case (base16 is case-insensitive, RFC 4648). */
function hashMatches(claimed: string, hex: string, faults: FaultSet): boolean {
  if (faults.has('spe-hash-any-encoding')) {
    const digest = Buffer.from(hex, 'hex');
    if (claimed === digest.toString('base64') || claimed === digest.toString('base64url')) return true;
  }
  return faults.has('spe-hash-case-sensitive') ? claimed === hex : claimed.toLowerCase() === hex;
}

function checkBodyHash(claimed: unknown, raw: Buffer, faults: FaultSet): void {
  if (faults.has('spe-hash-ignored')) return;
  const text = faults.has('spe-claims-compared-as-text') && claimed !== undefined ? String(claimed) : claimed;
  if (typeof text !== 'string') throw new Refusal('the token has no x-content-sha256 string');
  if (!hashMatches(text, bodyHash(raw, faults), faults)) throw new Refusal('x-content-sha256 is not the SHA-256 of the request body');
}

function checkClaimNames(claims: Record<string, unknown>, faults: FaultSet): void {
  if (faults.has('spe-token-id-refused') && ('jti' in claims || 'jit' in claims)) throw new Refusal('unknown claim');
  if (faults.has('spe-jit-only') && 'jti' in claims) throw new Refusal('unknown claim jti');
}

/** Verifies the Authorization header of one call against its raw body. */
export function verifyCall(authorization: string | undefined, raw: Buffer, cfg: VerifierConfig, now = Math.floor(Date.now() / 1000)): Verdict {
  try {
    const token = bearerToken(authorization, cfg.faults);
    if (token === undefined) return { ok: true, claims: {} };
    const parts = token.split('.');
    if (parts.length !== 3 || !SEGMENT.test(parts[0]) || !SEGMENT.test(parts[1]) || !/^[A-Za-z0-9_-]*$/.test(parts[2])) {
      throw new Refusal('the token is not three base64url segments');
    }
    const header = parseHeader(parts[0], cfg.faults);
    const hash = hashFor(header.alg, cfg.faults);
    checkTyp(header.typ, cfg.faults);
    const key = keyFor(header.kid, cfg);
    if (hash) checkSignature(parts, hash, key, cfg);
    const claims = parsePayload(parts[1]);
    checkClaimNames(claims, cfg.faults);
    checkClaimTypes(claims, cfg.faults);
    checkTimes(claims, cfg.faults, now);
    checkAudience(claims.aud, cfg);
    checkBodyHash(claims['x-content-sha256'], raw, cfg.faults);
    return { ok: true, claims };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, status: error.status, reason: error.reason };
    throw error;
  }
}
