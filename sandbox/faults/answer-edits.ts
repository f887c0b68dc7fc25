/**
 * Edits of a JSON answer that a conforming backend may well make and that say nothing of its area: keys
 * in another order, a charset parameter, an error told without a body or as RFC 9457 problem details.
 * Latitudes of any area are written with them (sandbox/services/<area>/latitudes.ts).
 */
import type { Answer } from '../exchange.ts';

/** The same JSON value with every object's keys in reverse order (JSON objects are unordered, RFC 8259). */
export function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .reverse()
      .map(([k, v]) => [k, reversedKeys(v)]),
  );
}

/** A JSON answer labelled with a charset parameter, as many frameworks write it. */
export function withCharset<A extends Answer>(answer: A): A {
  const type = answer.headers['content-type'];
  return type && /^application\/json$/i.test(type.trim())
    ? { ...answer, headers: { ...answer.headers, 'content-type': 'application/json; charset=utf-8' } }
    : answer;
}

/** The answer without one header (a header name in lower case, as answers keep them). */
export function withoutHeader<A extends Answer>(answer: A, name: string): A {
  const { [name]: _dropped, ...headers } = answer.headers;
  return { ...answer, headers };
}

/** An error answer told by its status alone: no body, no Content-Type. */
export function withoutBody<A extends Answer>(answer: A): A {
  const { 'content-type': _type, ...headers } = answer.headers;
  return { ...answer, headers, body: undefined };
}

/** An error answer as RFC 9457 problem details (application/problem+json), the error's own words as its detail. */
export function asProblem<A extends Answer>(answer: A, title: string): A {
  const body = answer.body as Record<string, unknown> | undefined;
  const detail = typeof body?.message === 'string' ? body.message : title;
  return {
    ...answer,
    headers: { ...answer.headers, 'content-type': 'application/problem+json' },
    body: { type: 'about:blank', title, status: answer.status, detail },
  };
}
