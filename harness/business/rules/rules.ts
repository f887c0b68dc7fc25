/**
 * What the business-rule suites share (spec 2.6, 3.2, 4.5, 7, 8). A rule test sends requests that are
 * valid against the served document and meet every rule of 2.6 but the one under test: it starts from
 * a request generated from the document, then sets the fields the spec names (found by name wherever
 * the operation's body schema declares them, through $ref, allOf and arrays: schema-sites.ts) to values that meet the
 * rules, and breaks one. Acceptance is the operation's documented success (a 2xx with the body the
 * served document gives it); refusal is neither a 2xx nor a 5xx (the spec fixes no status; 400 or 422
 * where a policy requirement asks for the vendor's practice), and counts only next to a control: the same
 * operation, with every rule met, accepted in this run (else the test ends inconclusive, NO_CONTROL).
 * A 429 the client could not wait out is a tool error (TARGET_RATE_LIMITED), never a verdict.
 *
 * Fixtures the rules need and the spec does not give (which payer accounts are fresh, the free limit of
 * instant payments, a self-employed taxpayer) come from services.business.rules in the target file; the
 * sandbox writes its own. A test whose fixture is missing is skipped and names the key.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { documentedSuccess } from '../checks/runtime.ts';
import { refused as refusedAnswer } from '../../checks/answer.ts';
import { rejectedWith } from '../../checks/status.ts';
import type { Failure } from '../../checks/failure.ts';
import { inconclusive, ToolError } from '../../errors.ts';
import type { CapturedResponse, RequestSpec } from '../../request/http.ts';
import type { RequirementContext } from '../../test/suite.ts';
import { rulesSection, type RulesSection } from '../config.ts';
import { credentialOf } from '../../config/target.ts';
import type { GeneratedRequest } from '../runtime/request.ts';
import { isJsonObject, type JsonObject } from '../../text/json.ts';
import { innIndividual, innLegal } from './inn.ts';
import { seedFor } from '../../text/seeds.ts';
import { notAfterServerError } from '../runtime/judge.ts';
import { loadedPlan, validRequests, type OperationPlan } from '../runtime/plan.ts';
import { baseUrl, sendOperation } from '../runtime/send.ts';
import { refusedForCertificate } from '../runtime/certificate.ts';

/** The served document's operation of this catalog row, if it describes it (after runtimePlan()). */
export const opOf = (row: string): OperationPlan | undefined => loadedPlan().operations.find((op) => op.row === row);

/** The vendor's practice for a broken business rule, where a policy requirement asks for it. */
export const REFUSED_BY_PRACTICE = [400, 422];

// ── Fixtures of the target file ─────────────────────────────────────────────────────────────────────

export type RulesConfig = RulesSection;

export function rulesConfig(): RulesConfig {
  return rulesSection(loadedPlan().run.target);
}

const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');

/**
 * What each payment test pays from, by role: 0 to 4 are the limit tests (a single transfer at the limit,
 * one above it, the day's total, the counterparty count, instant payments), 5 carries the small payments
 * of every other test. Each needs nothing paid today (and this month) for its limit to be judged.
 */
export const PAYER_ROLES = { singleAtLimit: 0, singleAbove: 1, day: 2, counterparty: 3, sbp: 4, other: 5 } as const;

/**
 * A payer account of the company for a role: a new one made from rules.payerAccountPrefix (the
 * sandbox's way: every such account is fresh), or the role's entry of rules.payerAccounts. Skips the
 * test, naming the key, when there is none.
 */
export function payerAccount(
  role: number,
  source: { payerAccountPrefix?: string; payerAccounts?: string[] } = rulesConfig(),
  key = 'services.business.rules.payerAccountPrefix or payerAccounts',
): string {
  if (typeof source.payerAccountPrefix === 'string' && /^\d{0,19}$/.test(source.payerAccountPrefix))
    return source.payerAccountPrefix + digits(20 - source.payerAccountPrefix.length);
  const listed = source.payerAccounts ?? [];
  if (role < listed.length) return listed[role];
  throw new ToolError(
    'CREDENTIAL_MISSING',
    `a payer account with nothing paid today is needed: the target file gives none for this test (${key}, entry ${role + 1})`,
  );
}

/** A fresh counterparty: an account number and an inn nobody has paid today. */
export function freshCounterparty(kind: 'legal' | 'individual'): { accountNumber: string; inn: string } {
  return kind === 'legal'
    ? { accountNumber: `40702810${digits(12)}`, inn: innLegal() }
    : { accountNumber: `40817810${digits(12)}`, inn: innIndividual() };
}

export const uniqueId = (prefix = 'pc') => `${prefix}-${randomUUID()}`;

// ── Requests ────────────────────────────────────────────────────────────────────────────────────────

/**
 * A generated valid request of the operation whose body satisfies `wanted` (tried over up to 40
 * generated requests, seeded by the purpose it is made for), with a copy of its body to edit. Skips
 * when none does.
 */
export function generatedRequest(
  op: OperationPlan,
  purpose: string,
  wanted: (body: JsonObject) => boolean = () => true,
): GeneratedRequest & { body: JsonObject } {
  for (let i = 0; i < 40; i++) {
    const [request] = validRequests(loadedPlan(), op, seedFor(op.seed, purpose, i), 1);
    if (isJsonObject(request.body) && wanted(request.body)) return { ...request, body: structuredClone(request.body) };
  }
  throw new ToolError('PRECONDITION_MISSING', `no request generated from the served document for ${op.row} had the shape the rule needs`);
}

/** Whether the request is valid against the served document; when `must`, a miss skips the test. */
export function fitsDocument(op: OperationPlan, request: GeneratedRequest, what: string, must = true): boolean {
  const ok = loadedPlan().requests.validOnWire(op.model, request);
  if (!ok && must)
    throw new ToolError(
      'PRECONDITION_MISSING',
      `${what}, built to meet every rule of 2.6, is not valid against the served document's schema of ${op.row}; the rule cannot be tried on it`,
    );
  return ok;
}

/**
 * Sends a request of the rule suites and returns an answer that is not a 429 (else a TARGET_RATE_LIMITED
 * tool error). Once the operation drew a 5xx in this run, a later answer of it that is not one proves
 * nothing (a flaky target may serve a repeat): the test ends inconclusive.
 */
export async function submit(op: OperationPlan, request: GeneratedRequest, note: string): Promise<CapturedResponse> {
  const exchange = await sendOperation(loadedPlan(), op, request, 'valid', note, { retryServerError: false });
  const res = exchange.response!;
  if (res.status === 429)
    throw new ToolError('TARGET_RATE_LIMITED', `${op.row} (${note}) stayed 429 (rate limited) after the client's bounded retries`);
  notAfterServerError(op, res);
  return res;
}

/** Sends a raw body (not JSON-encoded by the client) to the operation. */
export async function submitRaw(op: OperationPlan, request: GeneratedRequest, raw: string, note: string): Promise<CapturedResponse> {
  const plan = loadedPlan();
  const { target, client } = plan.run;
  const { url, dispatcher } = baseUrl(plan, op, 'own');
  const path = op.model.path.replace(/\{([^{}/]*)\}/g, (_m, name: string) => encodeURIComponent(String(request.path[name])));
  const spec: RequestSpec = {
    area: 'business',
    operation: `${op.row} (${note})`,
    sideEffect: op.catalog.sideEffect,
    method: op.model.method as RequestSpec['method'],
    url: `${url}${path}`,
    headers: {
      authorization: `Bearer ${credentialOf(target, 'business', 'token')}`,
      'content-type': 'application/json',
      ...Object.fromEntries(Object.entries(request.header).map(([k, v]) => [k, String(v)])),
    },
    body: raw,
    rateGroup: op.rateGroup,
    dispatcher,
  };
  return client.send(spec);
}

/**
 * Accepted: the operation's documented success, a 2xx with the body the served document gives it. Refused
 * for its certificate where 5.5 says it is not is BUS-MTL-005's or BUS-MTL-006's subject (every request
 * of the rule suites goes to the operation's own host: submit, submitRaw).
 */
export function accepted(op: OperationPlan, res: CapturedResponse, id: string): Failure[] {
  const certificate = refusedForCertificate(op, 'own', res);
  return certificate.length ? certificate : documentedSuccess(op.model, res, loadedPlan().schemas, id);
}
/** Refused: neither a 2xx nor a 5xx (the spec fixes no status for a broken business rule). */
export const refused = (res: CapturedResponse, id: string): Failure[] => refusedAnswer(res, id);
/** Refused with 400 or 422: the vendor's practice, for the policy requirements that ask for it. */
export const refusedByPractice = (res: CapturedResponse, id: string): Failure[] => rejectedWith(res, REFUSED_BY_PRACTICE, id);

/**
 * The control of a refusal: the same operation with a request that meets every rule (`build`), accepted
 * in this run. Made once per worker and key; when it was not accepted the test ends inconclusive.
 */
export function ruleControl(
  t: RequirementContext,
  op: OperationPlan,
  key: string,
  build: () => GeneratedRequest,
): Promise<CapturedResponse> {
  return t.control(
    `rules ${op.row}: ${key}`,
    () => submit(op, build(), `the control: ${key}`),
    (res) => accepted(op, res, t.id).length === 0,
  );
}

/**
 * A refusal of a broken rule (neither a 2xx nor a 5xx; `judge` may ask for more). An acceptance or a
 * server error fails whatever the control;
 * any other answer is judged only after `control` (the same operation, every rule met, accepted in this
 * run): a target that refuses valid requests too says nothing by refusing this one.
 */
export async function expectRuleRefused(
  t: RequirementContext,
  res: CapturedResponse,
  control: () => Promise<unknown>,
  note?: string,
  judge = refused,
): Promise<void> {
  if (res.status < 300 || res.status >= 500) t.expectNone(judge(res, t.id), res, note);
  await control();
  t.expectNone(judge(res, t.id), res, note);
}

/**
 * The acceptance of a request that differs from its control in what the rule allows (a uin, an amount
 * at a limit). A 2xx must be the documented success (its form is BUS-RUN-002..004's, which the
 * acceptance rows depend on), and a server error fails whatever the control. A refusal is judged only
 * next to `control`, the same kind of request with nothing in question, accepted in this run: where
 * the target refuses that too (for a reason outside 2.6, which BUS-RUN-005 leaves open), the refusal is
 * not this rule's and the test ends inconclusive (NO_CONTROL), so one such reason fails no row.
 */
export async function expectRuleAccepted(
  t: RequirementContext,
  op: OperationPlan,
  res: CapturedResponse,
  control: () => Promise<unknown>,
  note?: string,
): Promise<void> {
  const failures = accepted(op, res, t.id);
  if (!failures.length) return;
  if (res.status < 300 || res.status >= 500) t.expectNone(failures, res, note);
  await control();
  t.expectNone(failures, res, note);
}

/** Inconclusive for a request the rule is judged on top of that the target did not accept. */
export function controlRefused(what: string, res: CapturedResponse): never {
  const body = res.rawBody.length > 300 ? `${res.rawBody.slice(0, 300)}…` : res.rawBody;
  throw inconclusive(
    'NO_CONTROL',
    `${what} was not accepted as documented (HTTP ${res.status}: ${body}), so the rule cannot be judged on top of it`,
  );
}
