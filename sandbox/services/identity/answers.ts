/**
 * What userinfo answers (public facts for the identity service): the person's claims (200, no-store),
 * or the vendor error body { errorId, errorMessage, errorCode }; 401 also carries
 * `WWW-Authenticate: Bearer error="..."`. Every answer carries X-Request-Id (the handler's headers).
 */
import { randomUUID } from 'node:crypto';
import { jsonAnswer, type Answer } from '../../exchange.ts';
import type { Grant } from './access.ts';
import { claimsOf } from './claims.ts';
import type { Person } from './people.ts';

export interface Refusal {
  status: number;
  /** The vendor's errorCode, and the RFC 6750 / 6749 error name (the 401 challenge names it). */
  code: string;
  oauthError: string;
  message: string;
  /** The person concerned, when the refusal is about their consent or their token's scopes. */
  person?: Person;
}

/** What an answer served or refused, for the faults that edit it. Never sent. */
export interface Facts {
  grant?: Grant;
  refusal?: Refusal;
}

export type UserinfoAnswer = Answer<Facts>;

export const refuse = (status: number, code: string, oauthError: string, message: string, person?: Person): Refusal => ({
  status,
  code,
  oauthError,
  message,
  person,
});

export function refusalAnswer(rule: string, refusal: Refusal, headers: Record<string, string>): UserinfoAnswer {
  const challenge: Record<string, string> = refusal.status === 401 ? { 'www-authenticate': `Bearer error="${refusal.oauthError}"` } : {};
  const body = { errorId: randomUUID(), errorMessage: refusal.message, errorCode: refusal.code };
  return { ...jsonAnswer(refusal.status, body, { ...headers, ...challenge }), refusedBy: rule, facts: { refusal } };
}

export function userinfoAnswer(grant: Grant, headers: Record<string, string>): UserinfoAnswer {
  return { ...jsonAnswer(200, claimsOf(grant.person, grant.scopes), { ...headers, 'cache-control': 'no-store' }), facts: { grant } };
}
