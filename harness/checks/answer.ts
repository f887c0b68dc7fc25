/**
 * Checks every answer of the speech and identity areas goes through, whatever the test is about.
 * Where the spec fixes no error status (speech, userinfo: "errors of the speech and userinfo calls: not
 * shown", part 7), a refusal is what the spec supports: not a success and not a server error.
 * Redirects and a 429 that outlived the client's retries never reach these checks (harness/tool-status.ts).
 */
import type { CapturedResponse } from '../http.ts';
import { failure, type Failure } from './failure.ts';

export const isSuccess = (status: number) => status >= 200 && status < 300;
export const isServerError = (status: number) => status >= 500;
/** Neither a success nor a server error. */
export const isRefusal = (status: number) => !isSuccess(status) && !isServerError(status);

/** A 5xx always counts, whatever else the test looks at. */
export function noServerError(res: CapturedResponse, requirement: string): Failure[] {
  return isServerError(res.status) ? [failure(requirement, 'no server error', `server error ${res.status}`)] : [];
}

/** Refused: not a 2xx and not a 5xx (the spec fixes no status). */
export function refused(res: CapturedResponse, requirement: string): Failure[] {
  if (isRefusal(res.status)) return [];
  return [failure(requirement, 'refused (neither 2xx nor 5xx)', `${isSuccess(res.status) ? 'accepted with' : 'server error'} ${res.status}`)];
}

/** JSON media types: application/json and the structured suffix +json (application/problem+json). */
const JSON_MEDIA = /^application\/(?:[a-z0-9!#$&^_.-]+\+)?json$/;

/**
 * Spec part 4, "All bodies are JSON unless stated": an answer with a body carries JSON and says so in
 * its Content-Type (type/subtype compared, parameters such as charset ignored). An empty body needs no label.
 */
export function jsonWhenBody(res: CapturedResponse, requirement: string): Failure[] {
  if (res.rawBody === '') return [];
  const raw = res.headers['content-type'];
  const media = raw?.split(';')[0].trim().toLowerCase();
  const out: Failure[] = [];
  if (!media || !JSON_MEDIA.test(media)) {
    out.push(failure(requirement, 'a body labelled JSON (Content-Type application/json; spec 4: all bodies are JSON)', raw ? `Content-Type ${raw}` : 'a body without a Content-Type'));
  }
  if (res.jsonError) out.push(failure(requirement, 'a JSON body', `a body that is not JSON (${res.jsonError})`));
  return out;
}
