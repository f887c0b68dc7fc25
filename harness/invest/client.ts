/**
 * How the invest suites call GetPortfolio (spec 4.3): {url}/rest/{package}.OperationsService/GetPortfolio.
 * The documented limit is 200 requests a minute, so answers are memoised per test file: the tests of a
 * file each check their own requirement on the same few answers instead of asking again.
 * Evidence: a portfolio answer counts only where it shows a portfolio (200, a JSON object labelled JSON
 * with a field of 2.4; harness/invest/checks.ts whyNoPortfolio), and a refusal only next to the control
 * (the main account's portfolio, read in this run).
 */
import type { Failure } from '../checks/failure.ts';
import { whyNoPortfolio } from './checks.ts';
import { isRefusal, refused } from '../checks/answer.ts';
import { rejectedWith } from '../checks/status.ts';
import { jsonPayload, type CapturedResponse } from '../request/http.ts';
import { REQUEST_CURRENCIES, type PortfolioRequest, type PortfolioRequestOptions, type RequestCurrency as Currency } from './portfolio.ts';
import { expectRefusal } from '../test/refusal.ts';
import type { RequirementContext } from '../test/suite.ts';
import { investConfig, mainAccount, accountsOf } from './config.ts';
import { credentialOf } from '../config/target.ts';
import { PromiseMemo } from '../test/memo.ts';
import { perScope } from '../runner/run-scope.ts';

export const OPERATION = 'POST /rest/{package}.OperationsService/GetPortfolio';
export const CURRENCIES = REQUEST_CURRENCIES;
/** A currency of the request, or `undefined` for a request that leaves the field out. */
export type RequestCurrency = Currency | undefined;

export type RequestOptions = PortfolioRequestOptions;

export function portfolioUrl(t: RequirementContext): string {
  const service = investConfig(t.target);
  return `${service.url.replace(/\/$/, '')}/rest/${service.package}.OperationsService/GetPortfolio`;
}

export async function sendPortfolio(t: RequirementContext, body: unknown, options: RequestOptions = {}): Promise<CapturedResponse> {
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

// Kept even when rejected: a test file reads each answer once, as the documented limit asks.
const answers = perScope(() => new PromiseMemo<string, CapturedResponse>('keep'));

/** The (memoised) answer for one account in one currency (`undefined`: the field is left out). */
export function portfolioOf(t: RequirementContext, accountId: string, currency: RequestCurrency): Promise<CapturedResponse> {
  return answers().get(`account\u0000${accountId}\u0000${currency ?? ''}`, () =>
    sendPortfolio(t, currency === undefined ? { accountId } : { accountId, currency }),
  );
}

/** One case of the error matrix, as its caller hands it over (generators/invest/errors.ts makes them). */
export interface ErrorRequest {
  id: string;
  request(t: RequirementContext): PortfolioRequest;
}

/** The (memoised, by case id) answer to one case of the error matrix. */
export function answerTo(t: RequirementContext, errorCase: ErrorRequest): Promise<CapturedResponse> {
  return answers().get(`error\u0000${errorCase.id}`, () => {
    const { body, options } = errorCase.request(t);
    return sendPortfolio(t, body, options);
  });
}

export interface SampledPortfolio {
  accountId: string;
  currency: RequestCurrency;
  res: CapturedResponse;
}

/** Every account of the target file in every currency and with none: the area's whole sample. */
export async function sample(t: RequirementContext): Promise<SampledPortfolio[]> {
  const out: SampledPortfolio[] = [];
  for (const accountId of accountsOf(t)) {
    for (const currency of [undefined, ...CURRENCIES]) out.push({ accountId, currency, res: await portfolioOf(t, accountId, currency) });
  }
  return out;
}

export const describeRequest = (s: Pick<SampledPortfolio, 'accountId' | 'currency'>) =>
  `account ${s.accountId}, currency ${s.currency ?? '(omitted)'}`;

/** The control of every refusal test: the main account's portfolio (memoised), shown in this run. */
export function control(t: RequirementContext): Promise<CapturedResponse> {
  return t.control(
    'invest: GetPortfolio of services.invest.accountId with services.invest.token',
    () => portfolioOf(t, mainAccount(t), undefined),
    (res) => whyNoPortfolio(res) === undefined,
  );
}

export interface RefusalOptions {
  /** What the request was, for the failure note. */
  note?: string;
  /** The statuses the spec allows for the case, or 'any' refusal (neither 2xx nor 5xx) where part 7 leaves it open. Default: 'any'. */
  allowed?: readonly number[] | 'any';
  /** What else the case's own check found in the answer. */
  extra?: Failure[];
  /**
   * The requirement whose subject it is that the case is refused at all, where it is not the test's own
   * (a vendor's or a policy's exact status takes the spec's refusal as given): an answer that is no
   * refusal (a 2xx, a 5xx) fails that one, and this test, which depends on it, ends inconclusive.
   */
  refusalOf?: string;
}

/**
 * A refusal with one of `allowed`, or any refusal where part 7 leaves the status open, and whatever else
 * `extra` finds, counted only next to the control. Its body's label is INV-CTY-001's, which reads the
 * whole error matrix: one cause, one failure.
 */
export async function expectRefused(t: RequirementContext, res: CapturedResponse, options: RefusalOptions = {}): Promise<CapturedResponse> {
  const { allowed = 'any', note, extra = [], refusalOf } = options;
  // An answer that is no refusal at all breaks what `refusalOf` states, in the words of its own check.
  const status =
    refusalOf !== undefined && !isRefusal(res.status)
      ? refused(res, refusalOf)
      : allowed === 'any'
        ? refused(res, t.id)
        : rejectedWith(res, allowed, t.id);
  await expectRefusal(t, res, [...status, ...extra], () => control(t), note, { jsonBody: false });
  return res;
}
