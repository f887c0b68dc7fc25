/**
 * Checks of the 3-NDFL suites: pure functions of what was sent and what came back, returning
 * failures that name the requirement, what was expected and what was received.
 */
import { isRefusal, isSuccess } from '../../checks/answer.ts';
import { failure, type Failure } from '../../checks/failure.ts';
import type { CapturedResponse } from '../../request/http.ts';
import { isJsonLabelled } from '../../request/media-type.ts';
import { isJsonObject } from '../../text/json.ts';
import type { Snapshot } from './api.ts';
import type { WorkflowOperation } from './workflow.ts';

/**
 * What "refused" means for a workflow call the current state does not allow: neither a 2xx nor a 5xx.
 * The spec fixes no status for it and the vendor says only that it "returns an error"; the call is made
 * with the token and version that the allowed calls of the same run succeed with, so any refusal is the
 * state's (a 429 never reaches a check: the client waits it out or the test ends as a tool error).
 */
export const isWorkflowRefusal = isRefusal;
export const REFUSAL = 'refused (neither a 2xx nor a 5xx)';

const statusText = (res: CapturedResponse) =>
  `HTTP ${res.status}${res.json && typeof res.json === 'object' && 'errorCode' in res.json ? ` ${String((res.json as { errorCode: unknown }).errorCode)}` : ''}`;

/** An accepted call followed by a GET that reads exactly the operation's target state. */
export function landedIn(requirement: string, op: WorkflowOperation, from: string, res: CapturedResponse, after: Snapshot): Failure[] {
  const out: Failure[] = [];
  if (!isSuccess(res.status)) out.push(failure(requirement, `${op.name} from ${from} accepted (2xx)`, statusText(res)));
  else if (after.state !== op.target)
    out.push(failure(requirement, `GET reads state ${op.target} after ${op.name} (3.1)`, `state ${after.state ?? '(none)'}`));
  return out;
}

/** A repeat in the target state: 200, and neither the state nor the version moved. */
export function repeatChangesNothing(
  requirement: string,
  op: WorkflowOperation,
  before: { state: string; version?: string },
  res: CapturedResponse,
  after: Snapshot,
): Failure[] {
  const out: Failure[] = [];
  if (res.status !== 200) out.push(failure(requirement, `${op.name} repeated in ${op.target} answers 200`, statusText(res)));
  if (after.state !== before.state) out.push(failure(requirement, `state stays ${before.state}`, `state ${after.state ?? '(none)'}`));
  if (before.version !== undefined && after.version !== before.version)
    out.push(failure(requirement, `version stays ${before.version}`, `version ${after.version ?? '(none)'}`));
  return out;
}

/**
 * A refused call: one of `allowed` (a 4xx), or with 'any' neither a success nor a server error (where
 * the spec fixes no status), and the request unchanged.
 */
export function refusedUnchanged(
  requirement: string,
  what: string,
  before: { state: string; version?: string },
  res: CapturedResponse,
  after: Snapshot,
  allowed: readonly number[] | 'any' = 'any',
): Failure[] {
  const out: Failure[] = [];
  if (allowed === 'any' ? !isRefusal(res.status) : !allowed.includes(res.status)) {
    const how = isSuccess(res.status) ? 'accepted with' : res.status >= 500 ? 'server error' : 'status';
    out.push(
      failure(
        requirement,
        `${what} refused with ${allowed === 'any' ? 'neither a 2xx nor a 5xx' : allowed.join(', ')}`,
        `${how} ${statusText(res)}`,
      ),
    );
  }
  if (after.state !== before.state)
    out.push(failure(requirement, `${what} leaves the state ${before.state}`, `state ${after.state ?? '(none)'}`));
  else if (before.version !== undefined && after.version !== before.version)
    out.push(failure(requirement, `${what} leaves the version ${before.version}`, `version ${after.version ?? '(none)'}`));
  return out;
}

/** The business error body of the vendor: JSON { errorId, errorMessage, errorCode, errorDetails? }. */
export function businessErrorBody(requirement: string, res: CapturedResponse): Failure[] {
  if (!isJsonLabelled(res))
    return [
      failure(requirement, 'a JSON error body (Content-Type application/json)', `Content-Type ${res.headers['content-type'] ?? '(none)'}`),
    ];
  if (typeof res.json !== 'object' || res.json === null || Array.isArray(res.json))
    return [
      failure(
        requirement,
        'an error object { errorId, errorMessage, errorCode }',
        res.jsonError ? `a body that is not JSON (${res.jsonError})` : JSON.stringify(res.json),
      ),
    ];
  const body = res.json as Record<string, unknown>;
  const out: Failure[] = [];
  for (const key of ['errorId', 'errorMessage', 'errorCode']) {
    if (typeof body[key] !== 'string' || body[key] === '')
      out.push(
        failure(requirement, `${key}: a non-empty string`, body[key] === undefined ? 'absent' : JSON.stringify(body[key]), `/${key}`),
      );
  }
  if (
    body.errorDetails !== undefined &&
    (typeof body.errorDetails !== 'object' || body.errorDetails === null || Array.isArray(body.errorDetails))
  ) {
    out.push(failure(requirement, 'errorDetails, when present, an object', JSON.stringify(body.errorDetails), '/errorDetails'));
  }
  return out;
}

/**
 * Everything written is read back: every key of a written object with an equal value, every element
 * of a written array somewhere in the read array (order is not part of the contract). Extra data the
 * target adds (ids, timestamps, computed fields) is fine.
 */
export function writtenIsRead(requirement: string, written: unknown, read: unknown, at = ''): Failure[] {
  if (Array.isArray(written)) {
    if (!Array.isArray(read))
      return [failure(requirement, `an array as written (${written.length} items)`, JSON.stringify(read) ?? 'nothing', at || '/')];
    return written.flatMap((item, i) =>
      read.some((r) => writtenIsRead(requirement, item, r).length === 0)
        ? []
        : [failure(requirement, `the written item ${JSON.stringify(item)}`, 'no such item read back', `${at}/${i}`)],
    );
  }
  if (isJsonObject(written)) {
    if (!isJsonObject(read)) return [failure(requirement, 'an object as written', JSON.stringify(read) ?? 'nothing', at || '/')];
    return Object.entries(written).flatMap(([key, value]) => writtenIsRead(requirement, value, read[key], `${at}/${key}`));
  }
  return Object.is(written, read)
    ? []
    : [failure(requirement, JSON.stringify(written), read === undefined ? 'nothing' : JSON.stringify(read), at || '/')];
}

/** Some string value anywhere in the JSON body equals `text`. */
export function containsText(body: unknown, text: string): boolean {
  if (typeof body === 'string') return body === text;
  if (Array.isArray(body)) return body.some((v) => containsText(v, text));
  if (isJsonObject(body)) return Object.values(body).some((v) => containsText(v, text));
  return false;
}

/** Every value of `key` anywhere in the JSON body (attachment ids of a form, for example). */
export function valuesOfKey(body: unknown, key: string): unknown[] {
  if (Array.isArray(body)) return body.flatMap((v) => valuesOfKey(v, key));
  if (isJsonObject(body)) return Object.entries(body).flatMap(([k, v]) => (k === key ? [v, ...valuesOfKey(v, key)] : valuesOfKey(v, key)));
  return [];
}
