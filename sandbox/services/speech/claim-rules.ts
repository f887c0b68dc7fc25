/**
 * The sandbox's reading of the claims of spec 2.1, as named rules in the order they are checked: the
 * types of 2.1, exp (required), nbf and iat (when present) with LEEWAY_SECONDS of clock leeway, aud,
 * and x-content-sha256 (hex, either case) against the bytes the call's hash covers. Each rule gives the
 * reason it refuses (401); a rule ignores an absent claim unless it is the claim's `required` rule.
 * The rule makers are exported so that a fault can build a variant.
 */
import { createHash } from 'node:crypto';
import { namedRules } from '../../faults/modifiers.ts';

export const LEEWAY_SECONDS = 30;
export const AUDIENCE = 'tinkoff.cloud.stt';
const STRING_CLAIMS = ['iss', 'sub', 'jti', 'jit', 'sid'];

type Reason = string | undefined;

/** A token whose signature verified: its claims, the sandbox clock, and the bytes of the call. */
export interface Presented {
  claims: Record<string, unknown>;
  /** Unix seconds. */
  now: number;
  /** The body as received. */
  body: Buffer;
  /** The bytes x-content-sha256 covers: the body, or the first message of a stream (2.1). */
  hashed: Buffer;
}

export const sha256hex = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/** A time claim's type: an integer Unix time by default; `accepts` says what else passes. */
export const timeType =
  (name: 'exp' | 'nbf' | 'iat', accepts: (value: unknown) => boolean = Number.isInteger) =>
  ({ claims }: Presented): Reason =>
    claims[name] !== undefined && !accepts(claims[name]) ? `${name} must be an integer Unix time` : undefined;

/** The rule on aud, which passes when `accepts` takes the claim. */
export const audienceRule =
  (accepts: (aud: unknown) => boolean) =>
  ({ claims }: Presented): Reason =>
    accepts(claims.aud) ? undefined : 'the token is not meant for this service (aud)';

/** aud as 2.1 has it: one value, or an array that holds one, that `matches`. */
export const oneOf = (matches: (aud: unknown) => boolean) => (aud: unknown) => (Array.isArray(aud) ? aud.some(matches) : matches(aud));

/** How x-content-sha256 is compared: the claim as read, the digest of the covered bytes, and the comparison. */
export interface HashReading {
  textOf: (claimed: unknown) => unknown;
  digestOf: (bytes: Buffer) => string;
  matches: (claimed: string, hex: string) => boolean;
}

const HEX_SHA256: HashReading = {
  textOf: (claimed) => claimed,
  digestOf: sha256hex,
  // base16 is case-insensitive (RFC 4648 section 8).
  matches: (claimed, hex) => claimed.toLowerCase() === hex,
};

export const bodyHashRule =
  (reading: Partial<HashReading> = {}) =>
  ({ claims, hashed }: Presented): Reason => {
    const { textOf, digestOf, matches } = { ...HEX_SHA256, ...reading };
    const text = textOf(claims['x-content-sha256']);
    if (typeof text !== 'string') return 'the token has no x-content-sha256 string';
    return matches(text, digestOf(hashed)) ? undefined : 'x-content-sha256 is not the SHA-256 of the request body';
  };

export const CLAIM_RULES = namedRules<(presented: Presented) => Reason>()({
  // 2.1: the token id occurs as jti and as jit; neither spelling, nor any other claim, is refused for its name.
  'claims.names': () => undefined,
  'claims.types': ({ claims }) => {
    const wrong = STRING_CLAIMS.find((name) => claims[name] !== undefined && typeof claims[name] !== 'string');
    return wrong ? `${wrong} must be a string` : undefined;
  },
  'exp.type': timeType('exp'),
  'exp.required': ({ claims }) => (claims.exp === undefined ? 'the token has no exp' : undefined),
  'exp.expiry': ({ claims, now }) =>
    claims.exp !== undefined && now > Number(claims.exp) + LEEWAY_SECONDS ? 'the token has expired' : undefined,
  'nbf.type': timeType('nbf'),
  'nbf.window': ({ claims, now }) =>
    claims.nbf !== undefined && now < Number(claims.nbf) - LEEWAY_SECONDS ? 'the token is not valid yet (nbf)' : undefined,
  'iat.type': timeType('iat'),
  'iat.future': ({ claims, now }) =>
    claims.iat !== undefined && Number(claims.iat) > now + LEEWAY_SECONDS ? 'the token is issued in the future (iat)' : undefined,
  aud: audienceRule(oneOf((aud) => aud === AUDIENCE)),
  'x-content-sha256': bodyHashRule(),
});
