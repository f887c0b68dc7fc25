/**
 * The root cause of a contract failure: the answer of the target it comes from. Failures with the same
 * key came from the same request and the same response (its hash, for grouping); `about` names that
 * answer in words for the reports: the request, the status and the start of the body.
 */
import { createHash } from 'node:crypto';
import type { CapturedResponse } from '../http.ts';

const BODY_SHOWN = 80;

export function rootCauseOf(
  response: CapturedResponse | undefined,
  redact: (text: string) => string,
): { key: string; about: string } | undefined {
  if (!response) return undefined;
  const { method, url } = response.request;
  const key = createHash('sha256').update(`${method} ${url}\n${response.status}\n${response.rawBody}`).digest('hex').slice(0, 16);
  const text = response.rawBody.replace(/\s+/g, ' ').trim();
  const body = text === '' ? 'an empty body' : text.length > BODY_SHOWN ? `${text.slice(0, BODY_SHOWN)}…` : text;
  return { key, about: redact(`${method} ${url.split('?')[0]} answered ${response.status} with ${body}`) };
}
