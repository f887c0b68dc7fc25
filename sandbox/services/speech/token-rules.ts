/**
 * The sandbox's own reading of spec 2.1 and 5.1 for the token itself (independent of harness/: a real
 * staging does not share the suite's token builder), as named rules in the order they are checked: the
 * Bearer scheme, three base64url segments, the header (alg exactly HS256, typ JWT, a known kid), the
 * HMAC-SHA256 signature over the bytes received (constant-time compare), then the payload. Each rule
 * gives the reason it refuses (401). The rule makers are exported so that a fault can build a variant.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { namedRules } from '../../faults/modifiers.ts';
import { isJsonObject } from '../../json.ts';

type Node = Record<string, unknown>;
type Reason = string | undefined;

/** `Bearer` in any case, then one token. */
export const BEARER = /^Bearer +(\S+)\s*$/i;
const SEGMENT = /^[A-Za-z0-9_-]+$/;
const SIGNATURE_SEGMENT = /^[A-Za-z0-9_-]*$/;

const isObject = (v: unknown): v is Node => isJsonObject<Node>(v);

/** A base64url segment read as JSON, or why it does not parse. */
export type SegmentRead = { value: unknown } | { error: string };

export function readSegment(segment: string): SegmentRead {
  try {
    return { value: JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

export const AUTHORIZATION_RULES = namedRules<(authorization: string | undefined) => Reason>()({
  'authorization.present': (authorization) =>
    authorization === undefined || authorization.trim() === '' ? 'a bearer token is required' : undefined,
  'authorization.bearer': (authorization) =>
    authorization !== undefined && authorization.trim() !== '' && !BEARER.test(authorization)
      ? 'the Authorization header must use the Bearer scheme'
      : undefined,
});

export const FORM_RULES = namedRules<(parts: string[]) => Reason>()({
  'token.segments': (parts) =>
    parts.length !== 3 || !SEGMENT.test(parts[0]) || !SEGMENT.test(parts[1]) || !SIGNATURE_SEGMENT.test(parts[2])
      ? 'the token is not three base64url segments'
      : undefined,
});

const segmentRules = (name: 'header' | 'payload') => ({
  json: (read: SegmentRead): Reason => ('error' in read ? `the token ${name} is not base64url JSON` : undefined),
  object: (read: SegmentRead): Reason => ('value' in read && !isObject(read.value) ? `the token ${name} is not a JSON object` : undefined),
});
const header = segmentRules('header');
const payload = segmentRules('payload');

export const HEADER_JSON_RULES = namedRules<(read: SegmentRead) => Reason>()({
  'header.json': header.json,
  'header.object': header.object,
});

export const HEADER_RULES = namedRules<(header: Node) => Reason>()({
  'header.alg': (h) => (h.alg !== 'HS256' ? `alg must be HS256, got ${JSON.stringify(h.alg)}` : undefined),
  'header.typ': (h) =>
    typeof h.typ !== 'string' || h.typ.toUpperCase() !== 'JWT' ? `typ must be JWT, got ${JSON.stringify(h.typ)}` : undefined,
  'header.kid': (h) => (typeof h.kid !== 'string' || h.kid === '' ? 'the token header has no kid' : undefined),
});

/** How the handler finds the HMAC key of a kid (the API key). */
export type KeyLookup = (keys: ReadonlyMap<string, Buffer>, kid: unknown) => Buffer | undefined;

export const LOOKUP_RULES = { 'key.lookup': ((keys, kid) => (typeof kid === 'string' ? keys.get(kid) : undefined)) as KeyLookup };

/** A token whose header passed: its segments, its header and the key its kid names (if known). */
export interface Signed {
  parts: string[];
  header: Node;
  key?: Buffer;
}

/** How a signature is verified: which hash, over which input, compared how. */
export interface SignatureReading {
  hashOf: (header: Node) => string;
  inputOf: (parts: string[]) => string;
  equal: (received: Buffer, expected: Buffer, segment: string) => boolean;
}

const HMAC_SHA256: SignatureReading = {
  hashOf: () => 'sha256',
  // The bytes received, never a re-serialisation of the JSON.
  inputOf: ([h, p]) => `${h}.${p}`,
  equal: (received, expected) => received.length === expected.length && timingSafeEqual(received, expected),
};

export const signatureRule =
  (reading: Partial<SignatureReading> = {}) =>
  ({ parts, header, key }: Signed): Reason => {
    const { hashOf, inputOf, equal } = { ...HMAC_SHA256, ...reading };
    const expected = createHmac(hashOf(header), key!).update(inputOf(parts), 'ascii').digest();
    return equal(Buffer.from(parts[2], 'base64url'), expected, parts[2]) ? undefined : 'the signature does not verify';
  };

export const SIGNATURE_RULES = namedRules<(signed: Signed) => Reason>()({
  'key.known': ({ key }) => (key === undefined ? 'unknown kid' : undefined),
  signature: signatureRule(),
});

export const PAYLOAD_RULES = namedRules<(read: SegmentRead) => Reason>()({
  'payload.json': payload.json,
  'payload.object': payload.object,
});
