/**
 * What the surrender handler answers. The error body is the sandbox's choice (the spec shows none):
 * { code, message, details }, JSON like every body (spec 4).
 */
import { jsonAnswer, type Answer } from '../../exchange.ts';

/** One problem of a request body: where, which rule (a JSON Schema keyword or a name of ours), and what. */
export interface Problem {
  field: string;
  rule: string;
  message: string;
}

/** Why a rule refuses a request: the status, the error body's code and message, and headers of its own. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
  details?: Problem[];
  headers?: Record<string, string>;
}

export const problem = (field: string, rule: string, message: string): Problem => ({ field, rule, message });

/** 400: the request breaks spec 2.5 or 4.4. */
export const invalid = (p: Problem): Refusal => ({
  status: 400,
  code: 'VALIDATION_ERROR',
  message: `${p.field} ${p.message}`,
  details: [p],
});

/** 422: well-formed data the sandbox cannot process. */
export const unprocessable = (p: Problem): Refusal => ({
  status: 422,
  code: 'UNPROCESSABLE',
  message: `${p.field} ${p.message}`,
  details: [p],
});

export const badRequest = (message: string): Refusal => ({ status: 400, code: 'BAD_REQUEST', message });

/** What a crashing handler answers (faults only). */
export const internalError = (message: string): Refusal => ({ status: 500, code: 'INTERNAL', message });

export function refusalAnswer(rule: string, refusal: Refusal, headers: Record<string, string>): Answer {
  const { status, code, message, details } = refusal;
  return { ...jsonAnswer(status, { code, message, ...(details ? { details } : {}) }, { ...headers, ...refusal.headers }), refusedBy: rule };
}

/** The refusal of one rule turned into a crash (500) with the same headers (faults and latitudes only). */
export const crash =
  (message: string) =>
  (answer: Answer): Answer =>
    refusalAnswer(answer.refusedBy ?? 'crash', internalError(message), answer.headers);
