/**
 * Verifies the token of one call, step by step (token-rules.ts, then claim-rules.ts): each step reads
 * what the one before it let through, and each check is a named one looked up in `checks`, so that a
 * fault can replace one. The first rule that refuses names the reason.
 */
import { firstFound } from '../../faults/modifiers.ts';
import { CLAIM_RULES } from './claim-rules.ts';
import {
  AUTHORIZATION_RULES,
  BEARER,
  FORM_RULES,
  HEADER_JSON_RULES,
  HEADER_RULES,
  LOOKUP_RULES,
  PAYLOAD_RULES,
  readSegment,
  SIGNATURE_RULES,
} from './token-rules.ts';

export const TOKEN_RULES = {
  ...AUTHORIZATION_RULES,
  ...FORM_RULES,
  ...HEADER_JSON_RULES,
  ...HEADER_RULES,
  ...LOOKUP_RULES,
  ...SIGNATURE_RULES,
  ...PAYLOAD_RULES,
  ...CLAIM_RULES,
};

/** Whether a rule is one of the token's (its refusals are the token's: 401). */
export const isTokenRule = (rule: string | undefined): boolean => rule !== undefined && Object.hasOwn(TOKEN_RULES, rule);

export interface TokenCall {
  authorization: string | undefined;
  body: Buffer;
  /** The bytes x-content-sha256 covers. */
  hashed: Buffer;
  now: number;
}

/** The rule that refuses the call's token and why, or undefined when the token verifies. */
export function refusalOfToken(
  checks: typeof TOKEN_RULES,
  keys: ReadonlyMap<string, Buffer>,
  call: TokenCall,
): { rule: string; found: string } | undefined {
  const unauthorized = firstFound(checks, AUTHORIZATION_RULES, call.authorization);
  if (unauthorized) return unauthorized;
  const parts = BEARER.exec(call.authorization!)![1].split('.');
  const malformed = firstFound(checks, FORM_RULES, parts);
  if (malformed) return malformed;

  const headerRead = readSegment(parts[0]);
  const unreadable = firstFound(checks, HEADER_JSON_RULES, headerRead);
  if (unreadable) return unreadable;
  const header = (headerRead as { value: Record<string, unknown> }).value;
  const badHeader = firstFound(checks, HEADER_RULES, header);
  if (badHeader) return badHeader;
  const unsigned = firstFound(checks, SIGNATURE_RULES, { parts, header, key: checks['key.lookup'](keys, header.kid) });
  if (unsigned) return unsigned;

  const payloadRead = readSegment(parts[1]);
  const unreadablePayload = firstFound(checks, PAYLOAD_RULES, payloadRead);
  if (unreadablePayload) return unreadablePayload;
  const claims = (payloadRead as { value: Record<string, unknown> }).value;
  return firstFound(checks, CLAIM_RULES, { claims, now: call.now, body: call.body, hashed: call.hashed });
}
