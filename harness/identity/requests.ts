/**
 * The userinfo request the identity client sends (spec 4.2): its form pairs, their encoding (with fresh
 * bytes for client_id on every request) and the equivalent variations the suite may send it under.
 * Which variations to send is drawn in generators/identity/userinfo.ts.
 */

export interface RequestVariation {
  /** The auth scheme's spelling: scheme names are case-insensitive (RFC 9110 section 11.1). */
  scheme: string;
  /** client_secret before client_id in the form. */
  secretFirst: boolean;
  /** `; charset=UTF-8` after application/x-www-form-urlencoded. */
  charset: boolean;
  /** Every byte of every name and value written as %XX, which a form decoder reads as the same text. */
  percentEncodeAll: boolean;
  /** A form field the operation does not define. */
  extraField?: [string, string];
}

export const CANONICAL_REQUEST: Readonly<RequestVariation> = Object.freeze({
  scheme: 'Bearer',
  secretFirst: false,
  charset: false,
  percentEncodeAll: false,
});

/** Every byte as %XX (upper-case hex). */
export function percentEncodeAll(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/** An escape, or a character a form encoder leaves plain. */
const TOKEN = /%[0-9A-Fa-f]{2}|[A-Za-z0-9._~*-]/g;

/**
 * Encoded form text made different on every call without changing what it says: each plain character
 * percent-encoded with probability one half, and every escape in a random hex case. A form decoder
 * reads the same text (application/x-www-form-urlencoded); the bytes are new (for a value of n plain
 * characters, two calls collide with a probability of about 2^-n).
 */
export function freshlyEncoded(encoded: string, random: () => number = Math.random): string {
  const hexCase = (hex: string) => (random() < 0.5 ? hex.toUpperCase() : hex.toLowerCase());
  return encoded.replace(TOKEN, (t) => {
    if (t.startsWith('%')) return `%${hexCase(t.slice(1))}`;
    return random() < 0.5 ? `%${hexCase(t.charCodeAt(0).toString(16).padStart(2, '0'))}` : t;
  });
}

/**
 * application/x-www-form-urlencoded text of the pairs, in their order. The value of `freshField`, when
 * given, is `freshlyEncoded`: no two requests of a run then carry the same bytes, so a target (or a
 * cache before it) that answers a repeated request otherwise than a new one cannot hide a failure
 * behind a repeat, such as a 5xx the first time a request is seen.
 */
export function encodeForm(pairs: ReadonlyArray<readonly [string, string]>, encodeAll = false, freshField?: string): string {
  const encode = encodeAll ? percentEncodeAll : (s: string) => new URLSearchParams([['', s]]).toString().slice(1);
  return pairs.map(([k, v]) => `${encode(k)}=${k === freshField ? freshlyEncoded(encode(v)) : encode(v)}`).join('&');
}

/** The form pairs of a userinfo request under a variation; `undefined` leaves a field out. */
export function formPairs(
  clientId: string | undefined,
  clientSecret: string | undefined,
  v: RequestVariation = CANONICAL_REQUEST,
): Array<[string, string]> {
  const id: Array<[string, string]> = clientId === undefined ? [] : [['client_id', clientId]];
  const secret: Array<[string, string]> = clientSecret === undefined ? [] : [['client_secret', clientSecret]];
  const pairs = v.secretFirst ? [...secret, ...id] : [...id, ...secret];
  if (v.extraField) pairs.splice(1, 0, v.extraField);
  return pairs;
}
