/**
 * How the insurance suites call the surrender method (spec 4.4) and judge its answers. No answer passes
 * a test without evidence: an acceptance is a 201 with a conforming contract record; a refusal counts
 * only next to a control (a valid request with valid credentials served in the same run; see
 * harness/refusal.ts); every answer with a body is JSON.
 */
import { randomUUID } from 'node:crypto';
import { acceptedWithRecord, servedAsSent } from '../../harness/checks/insurance.ts';
import { failure } from '../../harness/checks/failure.ts';
import { jsonWhereBody } from '../../harness/checks/json-answer.ts';
import { rejectedWith } from '../../harness/checks/status.ts';
import { expectRefusal } from '../../harness/refusal.ts';
import { jsonPayload, type CapturedResponse } from '../../harness/http.ts';
import type { RequirementContext } from '../../harness/suite.ts';
import { insuranceConfig } from '../../harness/config/insurance.ts';
import { credentialOf } from '../../harness/target.ts';
import { sampleRequest, type SurrenderRequest } from '../../generators/insurance.ts';

export const SURRENDER_PATH = '/invest/axiom/providers-api/v1/contracts/surrender/create/';
export const OPERATION = `POST ${SURRENDER_PATH}`;
/** Spec part 7. */
export const DOCUMENTED = [201, 400, 401, 403, 422, 429, 500] as const;
/** "Rejected" for the surrender method: 400 incorrect request or 422 data processing error. */
export const REJECTED = [400, 422] as const;

export interface SendOptions {
  /** Bearer token to use; `null` sends no Authorization header. Default: services.insurance.token. */
  token?: string | null;
  /** Raw body instead of JSON. */
  raw?: string;
  contentType?: string;
  /** The X-Request-Id to send; `null` sends none. Default: a fresh UUID. */
  requestId?: string | null;
  pacing?: 'paced' | 'burst';
}

export function surrenderUrl(t: RequirementContext): string {
  return `${insuranceConfig(t.target).url.replace(/\/$/, '')}${SURRENDER_PATH}`;
}

export async function sendSurrender(t: RequirementContext, body: unknown, options: SendOptions = {}): Promise<CapturedResponse> {
  const token = options.token === undefined ? credentialOf(t.target, 'insurance', 'token') : options.token;
  const headers: Record<string, string> = {};
  const requestId = options.requestId === undefined ? randomUUID() : options.requestId;
  if (requestId !== null) headers['x-request-id'] = requestId;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  // A paced request still answered 429 after the client's bounded waits ends as TARGET_RATE_LIMITED there.
  return t.client.send({
    area: 'insurance',
    operation: OPERATION,
    sideEffect: 'write',
    method: 'POST',
    url: surrenderUrl(t),
    ...jsonPayload(body, options, headers),
    pacing: options.pacing,
  });
}

/** The control of every refusal test: a valid request with valid credentials, served in this run. */
export function control(t: RequirementContext): Promise<CapturedResponse> {
  // Made once per worker: the answer is judged against the request it answered, read back from it.
  const sentOf = (res: CapturedResponse) => JSON.parse(res.request.bodyText ?? '{}') as SurrenderRequest;
  return t.control('insurance: a valid surrender request with services.insurance.token', () => sendSurrender(t, sampleRequest()), (res) => servedAsSent(res, sentOf(res)));
}

/** Accepted: 201 with a conforming contract record, labelled JSON. */
export function expectAccepted(t: RequirementContext, res: CapturedResponse, note?: string): void {
  t.expectNone(acceptedWithRecord(res, t.id), res, note);
}

/** A refusal with one of `allowed`, counted only next to the control (harness/refusal.ts). */
export async function expectRefused(t: RequirementContext, res: CapturedResponse, allowed: readonly number[] = REJECTED, note?: string): Promise<void> {
  await expectRefusal(t, res, rejectedWith(res, allowed, t.id), () => control(t), note);
}

/** Spec 7: the status is one of the documented set; JSON where there is a body. An undocumented status fails at once. */
export function expectDocumented(t: RequirementContext, res: CapturedResponse, note?: string): void {
  const status = (DOCUMENTED as readonly number[]).includes(res.status) ? [] : [failure(t.id, `a documented status (${DOCUMENTED.join(', ')})`, `undocumented status ${res.status}`)];
  t.expectNone([...status, ...jsonWhereBody(res, t.id)], res, note);
}
