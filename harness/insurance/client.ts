/**
 * How the insurance suites call the surrender method (spec 4.4) and judge its answers. No answer passes
 * a test without evidence: an acceptance is a 201 that shows its stored surrender records, each the
 * item it stored as sent; a refusal counts only next to a control (a valid request with valid
 * credentials served in the same run; see harness/test/refusal.ts). One cause, one failure: the record's
 * shape is INS-RSP-001's, its label INS-CTY-001's, what it stores INS-RSP-002's; a test of another
 * requirement that meets them broken ends inconclusive naming them (`dependsOn`).
 */
import { randomUUID } from 'node:crypto';
import { recordBody, recordConforms, servedAsSent, storedAsSent, whyNotStored } from './checks.ts';
import { isSuccess } from '../checks/answer.ts';
import { failure, type Failure } from '../checks/failure.ts';
import { jsonWhereBody } from '../checks/json-answer.ts';
import { rejectedWith, statusIn } from '../checks/status.ts';
import { expectRefusal } from '../test/refusal.ts';
import { jsonPayload, type CapturedResponse } from '../request/http.ts';
import type { RequirementContext } from '../test/suite.ts';
import { insuranceConfig } from './config.ts';
import { SURRENDER_REJECTED } from './surrender.ts';
import { ordinaryToken } from './tokens.ts';
import { credentialOf } from '../config/target.ts';
import { sampleRequest } from './requests.ts';
import type { SurrenderRequest } from './surrender.ts';

export const SURRENDER_PATH = '/invest/axiom/providers-api/v1/contracts/surrender/create/';
export const OPERATION = `POST ${SURRENDER_PATH}`;

export interface RequestOptions {
  /**
   * Bearer token to use; `null` sends no Authorization header. Default: services.insurance.token, or for
   * a paced request where the limit counts per token, the pool's tokens in turn (harness/insurance/tokens.ts).
   */
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

export async function sendSurrender(t: RequirementContext, body: unknown, options: RequestOptions = {}): Promise<CapturedResponse> {
  const token =
    options.token !== undefined
      ? options.token
      : options.pacing === 'burst'
        ? credentialOf(t.target, 'insurance', 'token')
        : ordinaryToken(t.target);
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

/**
 * Waits until the budget a burst counts against (services.insurance.token's, or the service's) has been
 * free of this run's paced requests for `ms`: the cool-down before a burst of the rate-limit tests.
 */
export function quietBeforeBurst(t: RequirementContext, ms: number): Promise<void> {
  return t.client.quiet({ area: 'insurance', headers: { authorization: `Bearer ${credentialOf(t.target, 'insurance', 'token')}` } }, ms);
}

/** The control of every refusal test: a valid request with valid credentials, served in this run. */
export function control(t: RequirementContext): Promise<CapturedResponse> {
  // Made once per worker: the answer is judged against the request it answered, read back from it.
  const sentOf = (res: CapturedResponse) => JSON.parse(res.request.bodyText ?? '{}') as SurrenderRequest;
  return t.control(
    'insurance: a valid surrender request with a valid token (services.insurance.token, or one of its tokenPool)',
    () => sendSurrender(t, sampleRequest()),
    (res) => servedAsSent(res, sentOf(res)),
  );
}

/**
 * Whose subject an acceptance is: a valid request answered 201 with the contract record and its stored
 * records is INS-RSP-001's (4.4 "Response 201: the contract record of 2.5 with the stored surrender
 * records"), the record's JSON label INS-CTY-001's, and that what was sent comes back stored as sent
 * INS-RSP-002's. A test of another requirement takes them as given (specs/requirements.yaml
 * `dependsOn`): when they break, it ends inconclusive naming them, and the defect is counted once; where
 * one breaks only in that test (a boundary value stored otherwise than sent), the test is counted failed.
 */
export const ACCEPTANCE = 'INS-RSP-001';
export const LABEL = 'INS-CTY-001';
export const RETURNED = 'INS-RSP-002';

/**
 * Whose defect a status other than 201 to a valid request is: another success (200 for 201) is how the
 * target accepts, INS-RSP-001's; a refusal or a server error is the test's own (the value it tried refused).
 */
export function acceptedWith201(res: CapturedResponse, id: string): Failure[] {
  return statusIn(res, [201], isSuccess(res.status) ? ACCEPTANCE : id);
}

/**
 * Accepted: 201 with its stored records (INS-RSP-001's subject), labelled JSON (INS-CTY-001's), and
 * judged on the whole answer: what it shows is what was sent (`storedAsSent`, INS-RSP-002's subject:
 * every item in a stored record of its own, with its period, currency, percent and value).
 */
export function expectAccepted(t: RequirementContext, res: CapturedResponse, sent: SurrenderRequest, note?: string): void {
  t.expectNone(acceptedWith201(res, t.id), res, note);
  const label = jsonWhereBody(res, LABEL);
  if (res.rawBody !== '' && label.length) t.expectNone(label, res, note);
  const why = whyNotStored(res);
  if (why) t.expectNone([failure(ACCEPTANCE, 'a 201 that shows its stored surrender records', why)], res, note);
  const stored = storedAsSent(sent, res.json, RETURNED);
  t.expectNone(stored.failures, res, note);
  if (stored.judged === 0)
    t.expectNone(
      [
        failure(
          ACCEPTANCE,
          'a contract record with fields of the types 2.5 gives them',
          'none of the fields sent in its type: nothing shows what was stored',
        ),
      ],
      res,
      note,
    );
}

/**
 * Spec 4.4 "Response 201: the contract record of 2.5": 201, a JSON body with the types of 2.5 and its
 * stored records (INS-RSP-001's subject). A body not labelled JSON is INS-CTY-001's.
 */
export function expectRecord(t: RequirementContext, res: CapturedResponse, note?: string): void {
  t.expectNone([...acceptedWith201(res, t.id), ...(res.status === 201 ? recordBody(res, ACCEPTANCE) : [])], res, note);
  const label = jsonWhereBody(res, LABEL);
  if (label.length) t.expectNone(label, res, note);
  t.expectNone(recordConforms(res, ACCEPTANCE), res, note);
}

export interface RefusalOptions {
  /** What the request was, for the failure note. */
  note?: string;
  /** The statuses the case may be refused with. Default: "rejected" (400 or 422). */
  allowed?: readonly number[];
  /**
   * The requirement whose subject the refusal of this case is, where it is not the test's own (a case
   * of the property over every broken rule, the invalid request of another test): the refusal's
   * failures name it, and the test, which depends on it, ends inconclusive where it failed too.
   */
  refusalOf?: string;
}

/** A refusal with one of `allowed`, counted only next to the control (harness/test/refusal.ts); its body's label is INS-CTY-001's. */
export async function expectRefused(t: RequirementContext, res: CapturedResponse, options: RefusalOptions = {}): Promise<CapturedResponse> {
  const { allowed = SURRENDER_REJECTED, note, refusalOf = t.id } = options;
  await expectRefusal(t, res, rejectedWith(res, allowed, refusalOf), () => control(t), note, { jsonBody: false });
  return res;
}
