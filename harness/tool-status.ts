/**
 * Answers that are no verdict of the target on the request but a problem of the exchange: a redirect
 * (the suite never follows one) and a 429 that outlived the client's bounded retries. They end the test
 * as a tool error with their code, so that no check ever reads them as a refusal, an acceptance or a pass.
 */
import { ToolError } from './errors.ts';
import type { CapturedResponse } from './http.ts';

export function throwOnToolStatus(res: CapturedResponse): CapturedResponse {
  const where = `${res.request.method} ${res.request.url.split('?')[0]}`;
  if (res.status >= 300 && res.status < 400) {
    throw new ToolError('TARGET_REDIRECT', `${where} was answered ${res.status} to ${res.headers.location ?? '(no Location)'}; the suite never follows a redirect`);
  }
  if (res.status === 429) {
    throw new ToolError('TARGET_RATE_LIMITED', `${where} was still answered 429 after ${res.retried429} bounded retries`);
  }
  return res;
}
