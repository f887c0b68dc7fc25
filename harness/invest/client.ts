/**
 * How the invest suites call GetPortfolio (spec 4.3): {url}/rest/{package}.OperationsService/GetPortfolio.
 * The documented limit is 200 requests a minute, so answers are memoised per test file: the tests of a
 * file each check their own requirement on the same few answers instead of asking again.
 * Evidence: a portfolio answer counts only where it shows a portfolio (200, a JSON object labelled JSON
 * with a field of 2.4; harness/checks/invest.ts whyNoPortfolio), and a refusal only next to the control
 * (the main account's portfolio, read in this run).
 */
import type { Failure } from '../checks/failure.ts';
import { failure } from '../checks/failure.ts';
import { whyNoPortfolio } from './checks.ts';
import { refused } from '../checks/answer.ts';
import { rejectedWith } from '../checks/status.ts';
import { ToolError } from '../errors.ts';
import { jsonPayload, type CapturedResponse } from '../http.ts';
import { REQUEST_CURRENCIES, type RequestCurrency as Currency } from './portfolio.ts';
import { expectRefusal } from '../refusal.ts';
import type { RequirementContext } from '../suite.ts';
import { investConfig, type InvestSection } from './config.ts';
import { credentialOf, type StringKey } from '../target.ts';
import { accountIdLike } from '../../generators/invest/portfolio.ts';
import { ScopedMap } from '../runner/run-scope.ts';

export const OPERATION = 'POST /rest/{package}.OperationsService/GetPortfolio';
/** Spec part 7, besides "default: unexpected error". */
export const DOCUMENTED = [200, 400, 401, 403, 404, 408, 415, 429, 500, 501, 503, 504] as const;
export const CURRENCIES = REQUEST_CURRENCIES;
/** A currency of the request, or `undefined` for a request that leaves the field out. */
export type RequestCurrency = Currency | undefined;

export interface SendOptions {
  /** Bearer token; `null` sends no Authorization header. Default: services.invest.token. */
  token?: string | null;
  /** A whole Authorization header value instead of a bearer token. */
  authorization?: string;
  /** Raw body instead of JSON. */
  raw?: string;
  contentType?: string;
  pacing?: 'paced' | 'burst';
}

export function portfolioUrl(t: RequirementContext): string {
  const service = investConfig(t.target);
  return `${service.url.replace(/\/$/, '')}/rest/${service.package}.OperationsService/GetPortfolio`;
}

export async function sendPortfolio(t: RequirementContext, body: unknown, options: SendOptions = {}): Promise<CapturedResponse> {
  const token = options.token === undefined ? credentialOf(t.target, 'invest', 'token') : options.token;
  const headers: Record<string, string> = {};
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  else if (token !== null) headers.authorization = `Bearer ${token}`;
  // A paced request still answered 429 after the client's bounded waits ends as TARGET_RATE_LIMITED there.
  return t.client.send({
    area: 'invest',
    operation: OPERATION,
    sideEffect: 'read',
    method: 'POST',
    url: portfolioUrl(t),
    ...jsonPayload(body, options, headers),
    pacing: options.pacing,
  });
}

/** Test data of the target file (an account), or a FIXTURE_MISSING skip that names the key. */
export function fixtureOf(t: RequirementContext, key: StringKey<InvestSection>): string {
  const value = investConfig(t.target)[key];
  if (!value) throw new ToolError('FIXTURE_MISSING', `the target file ${t.target.name} has no services.invest.${key}`);
  return value;
}

/** The account every test reads first: services.invest.accountId. */
export const mainAccount = (t: RequirementContext) => fixtureOf(t, 'accountId');

/** services.invest.accountId first, then services.invest.accountIds. */
export function accountsOf(t: RequirementContext): string[] {
  return [...new Set([mainAccount(t), ...investConfig(t.target).accountIds])];
}

const answers = new ScopedMap<string, Promise<CapturedResponse>>();

/** The (memoised) answer for one account in one currency (`undefined`: the field is left out). */
export function portfolioOf(t: RequirementContext, accountId: string, currency: RequestCurrency): Promise<CapturedResponse> {
  const key = `${accountId}\u0000${currency ?? ''}`;
  let answer = answers.get(key);
  if (!answer) {
    answer = sendPortfolio(t, currency === undefined ? { accountId } : { accountId, currency });
    answers.set(key, answer);
  }
  return answer;
}

export interface Sampled {
  accountId: string;
  currency: RequestCurrency;
  res: CapturedResponse;
}

/** Every account of the target file in every currency and with none: the area's whole sample. */
export async function sample(t: RequirementContext): Promise<Sampled[]> {
  const out: Sampled[] = [];
  for (const accountId of accountsOf(t)) {
    for (const currency of [undefined, ...CURRENCIES]) out.push({ accountId, currency, res: await portfolioOf(t, accountId, currency) });
  }
  return out;
}

export const describeRequest = (s: Pick<Sampled, 'accountId' | 'currency'>) => `account ${s.accountId}, currency ${s.currency ?? '(omitted)'}`;

/** A well-formed account id that names no account: shaped like services.invest.accountId, drawn afresh. */
export function unknownAccountLike(t: RequirementContext): string {
  const known = new Set([...accountsOf(t), investConfig(t.target).otherAccountId ?? '']);
  return accountIdLike(mainAccount(t), known);
}

/** The control of every refusal test: the main account's portfolio (memoised), shown in this run. */
export function control(t: RequirementContext): Promise<CapturedResponse> {
  return t.control('invest: GetPortfolio of services.invest.accountId with services.invest.token', () => portfolioOf(t, mainAccount(t), undefined), (res) => whyNoPortfolio(res) === undefined);
}

/**
 * A refusal with one of `allowed`, or any refusal (neither 2xx nor 5xx) where part 7 leaves the status
 * open, and whatever else `extra` finds, counted only next to the control. Its body's label is
 * INV-CTY-001's, which reads the whole error matrix: one cause, one failure.
 */
export async function expectRefused(t: RequirementContext, res: CapturedResponse, allowed: readonly number[] | 'any', note?: string, extra: Failure[] = []): Promise<void> {
  const status = allowed === 'any' ? refused(res, t.id) : rejectedWith(res, allowed, t.id);
  await expectRefusal(t, res, [...status, ...extra], () => control(t), note, { jsonBody: false });
}

/**
 * A status of the list, or an error status, which "default: unexpected error" covers. A success other
 * than 200 or a redirect is outside both.
 */
export function statusDocumentedOrError(res: CapturedResponse, requirement: string): Failure[] {
  if ((DOCUMENTED as readonly number[]).includes(res.status) || res.status >= 400) return [];
  return [failure(requirement, `a documented status (${DOCUMENTED.join(', ')}) or an error status (default: unexpected error)`, `status ${res.status}`)];
}
