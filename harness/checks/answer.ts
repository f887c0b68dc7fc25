/**
 * Status classes for the areas where the spec fixes no error status (speech, userinfo: "errors of the
 * speech and userinfo calls: not shown", part 7): a refusal is what the spec supports, neither a
 * success nor a server error. Redirects and a 429 that outlived the client's retries never reach these
 * checks (the HTTP client ends them as tool errors); the JSON label of a body is json-answer.ts's.
 */
import type { CapturedResponse } from '../request/http.ts';
import { failure, type Failure } from './failure.ts';

export const isSuccess = (status: number) => status >= 200 && status < 300;
export const isServerError = (status: number) => status >= 500;
/** Neither a success nor a server error. */
export const isRefusal = (status: number) => !isSuccess(status) && !isServerError(status);

/** A 5xx always counts, whatever else the test looks at. */
export function noServerError(res: CapturedResponse, requirement: string): Failure[] {
  return isServerError(res.status) ? [failure(requirement, 'no server error', `server error ${res.status}`)] : [];
}

/**
 * The defect an answer shows where a refusal was due, in words that do not depend on which refusal was
 * expected: every test that finds the same call served (or crashing) counts one defect.
 */
export const notRefused = (status: number): string | undefined =>
  isSuccess(status) ? 'served where a refusal was due' : isServerError(status) ? 'a server error where a refusal was due' : undefined;

/** Refused: not a 2xx and not a 5xx (the spec fixes no status). */
export function refused(res: CapturedResponse, requirement: string): Failure[] {
  if (isRefusal(res.status)) return [];
  return [
    {
      ...failure(requirement, 'refused (neither 2xx nor 5xx)', `${isSuccess(res.status) ? 'accepted with' : 'server error'} ${res.status}`),
      defect: notRefused(res.status),
    },
  ];
}
