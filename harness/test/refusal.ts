/**
 * How a refusal test reaches its verdict (the verdict model's "a refusal counts only next to a
 * control"): a success or a server error where a refusal was due fails at once, since no control can
 * excuse it; any other answer is judged only once the control (the same operation, valid, with valid
 * credentials) was served in this run, else the test ends inconclusive (NO_CONTROL). Every answer
 * with a body must be JSON (spec 4: "All bodies are JSON unless stated"), unless `jsonBody: false`:
 * where part 7 shows no error of the operation at all (speech, userinfo), how a refusal's body is
 * written is a policy of the area, not part of the refusal.
 */
import { isServerError, isSuccess } from '../checks/answer.ts';
import { failure, type Failure } from '../checks/failure.ts';
import { jsonWhereBody } from '../checks/json-answer.ts';
import type { CapturedResponse } from '../request/http.ts';
import type { RequirementContext } from './suite.ts';

export async function expectRefusal(
  t: RequirementContext,
  res: CapturedResponse,
  refusal: Failure[],
  control: () => Promise<unknown>,
  note?: string,
  options: { jsonBody?: boolean } = {},
): Promise<void> {
  const failures = [...refusal, ...(options.jsonBody === false ? [] : jsonWhereBody(res, t.id))];
  if (isSuccess(res.status) || isServerError(res.status))
    t.expectNone(failures.length ? failures : [failure(t.id, 'a refusal', `status ${res.status}`)], res, note);
  await control();
  t.expectNone(failures, res, note);
}
