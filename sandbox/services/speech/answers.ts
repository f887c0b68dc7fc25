/**
 * What the speech service answers. The spec shows no error body for speech: the sandbox uses the vendor
 * gateway's gRPC status shape { code, message: "<NAME>: <reason>", details } (README.md). A refused
 * token is 401 with `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750 section 3.1).
 */
import { jsonAnswer, type Answer } from '../../exchange.ts';

const GRPC_CODES: Record<number, [number, string]> = {
  400: [3, 'INVALID_ARGUMENT'],
  401: [16, 'UNAUTHENTICATED'],
  403: [7, 'PERMISSION_DENIED'],
  413: [8, 'RESOURCE_EXHAUSTED'],
  429: [8, 'RESOURCE_EXHAUSTED'],
};
const grpcOf = (status: number): [number, string] => GRPC_CODES[status] ?? [2, 'UNKNOWN'];

/** Why an answer is an error, for the faults that write it another way. Never sent. */
export interface Said {
  reason: string;
}

export type SpeechAnswer = Answer<Said>;

/** Why a rule refuses a call, when it is not the token (the token's rules give only a reason: 401). */
export interface Refusal {
  status: number;
  reason: string;
}

/** The gRPC status name of an HTTP status, as the error body's message starts. */
export const statusName = (status: number): string => grpcOf(status)[1];

export function errorAnswer(status: number, reason: string, rule: string, details: unknown[] = []): SpeechAnswer {
  const [code, name] = grpcOf(status);
  const challenge: Record<string, string> = status === 401 ? { 'www-authenticate': 'Bearer error="invalid_token"' } : {};
  return { ...jsonAnswer(status, { code, message: `${name}: ${reason}`, details }, challenge), refusedBy: rule, facts: { reason } };
}
