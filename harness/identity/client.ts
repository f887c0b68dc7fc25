/**
 * How the identity suites call userinfo (spec 4.2, 5.2), read their part of the target file, and give
 * every verdict its evidence: a refusal counts only next to a control (the valid call answered with the
 * userinfo of 4.2 in this run); a check of the fields judges only the people answered with userinfo
 * (who was not is IDN-RSP-001's failure, never another requirement's) and is
 * inconclusive when that leaves nobody; a 5xx always counts; a redirect or an endless 429 is a tool
 * error, never a verdict.
 */
import { noServerError } from '../checks/answer.ts';
import { carriesNoUserValues, isUserinfoAnswer, refusedWithoutData, userValues } from './checks.ts';
import type { CapturedResponse } from '../request/http.ts';
import type { RequirementContext } from '../test/suite.ts';
import { inconclusive } from '../errors.ts';
import { identityConfig, identityToken, type IdentityTokenName } from './config.ts';
import { credentialOf } from '../config/target.ts';
import { expectRefusal } from '../test/refusal.ts';
import { PromiseMemo } from '../test/memo.ts';
import { perScope } from '../runner/run-scope.ts';
import { CANONICAL_REQUEST, encodeForm, formPairs, percentEncodeAll, type RequestVariation } from './requests.ts';

export const USERINFO_PATH = '/userinfo/userinfo';
export const OPERATION = `POST ${USERINFO_PATH}`;
const FORM = 'application/x-www-form-urlencoded';

export interface RequestOptions {
  /** The access token; `null` sends no Authorization header. Default: services.identity.accessToken. */
  token?: string | null;
  /** A raw Authorization header value instead of "<scheme> <token>". */
  authorization?: string;
  /** `null` leaves the field out. Defaults: services.identity.clientId and clientSecret. */
  clientId?: string | null;
  clientSecret?: string | null;
  variation?: RequestVariation;
  /** Send client_id and client_secret as a JSON body instead of the form. */
  asJson?: boolean;
}

export function userinfoUrl(t: RequirementContext): string {
  return `${identityConfig(t.target).url.replace(/\/$/, '')}${USERINFO_PATH}`;
}

export async function sendUserinfo(t: RequirementContext, options: RequestOptions = {}): Promise<CapturedResponse> {
  const v = options.variation ?? CANONICAL_REQUEST;
  const token = options.token === undefined ? credentialOf(t.target, 'identity', 'accessToken') : options.token;
  const clientId = options.clientId === undefined ? credentialOf(t.target, 'identity', 'clientId') : (options.clientId ?? undefined);
  const clientSecret =
    options.clientSecret === undefined ? credentialOf(t.target, 'identity', 'clientSecret') : (options.clientSecret ?? undefined);
  const headers: Record<string, string> = {};
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  else if (token !== null) headers.authorization = `${v.scheme} ${token}`;
  let body: string;
  if (options.asJson) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify({ client_id: clientId, client_secret: clientSecret });
  } else {
    headers['content-type'] = v.charset ? `${FORM}; charset=UTF-8` : FORM;
    // The encoded secret is a secret too: register it before it can reach a curl line or a message.
    if (v.percentEncodeAll && clientSecret) t.target.redactor.register(percentEncodeAll(clientSecret));
    // client_id (never a secret) gets fresh bytes on every request: see encodeForm.
    body = encodeForm(formPairs(clientId, clientSecret, v), v.percentEncodeAll, 'client_id');
  }
  return t.client.send({ area: 'identity', operation: OPERATION, sideEffect: 'read', method: 'POST', url: userinfoUrl(t), headers, body });
}

/** The control of a refusal test: the valid call (accessToken, the partner client, the form) answered with the userinfo of 4.2 in this run. */
export function control(t: RequirementContext): Promise<CapturedResponse> {
  return t.control('identity:userinfo:valid', () => sendUserinfo(t), isUserinfoAnswer);
}

/**
 * Judges an answer to a request that must be refused (harness/test/refusal.ts): a 2xx or a 5xx fails at
 * once; then the control must have succeeded; then neither 2xx nor 5xx and none of the user's data
 * (values in the form of a phone number, an e-mail address or a date under the fields of 2.2, and the
 * values the run's userinfo answers showed for anyone: the main user and the pool). Part 7 shows no userinfo error, so what the refusal's body is
 * written in is IDN-ERR-002's policy, not judged here.
 */
export interface RefusalOptions {
  /** What the request was, for the failure note. */
  note?: string;
  /**
   * The requirement whose subject it is that the call is refused with no user data, where it is not the
   * test's own (how a refusal is written takes the refusal as given): what breaks it names that one, and
   * the test, which depends on it, ends inconclusive naming it.
   */
  refusalOf?: string;
}

export async function expectRefused(t: RequirementContext, res: CapturedResponse, options: RefusalOptions = {}): Promise<CapturedResponse> {
  const { note, refusalOf = t.id } = options;
  await expectRefusal(t, res, refusedWithoutData(res, refusalOf), () => control(t), note, { jsonBody: false });
  t.expectNone(carriesNoUserValues(res, await servedValues(t), refusalOf), res, note);
  return res;
}

// A person asked again by the next test where a request of the pool failed to send.
const poolValues = perScope(() => new PromiseMemo<'pool', string[]>('forget'));

/**
 * The values of 2.2 the run's userinfo answers showed, for the main user and every person of the pool,
 * asked once per worker: a refusal must carry nobody's data, not only its own user's.
 */
function servedValues(t: RequirementContext): Promise<string[]> {
  return poolValues().get('pool', async () => {
    const answers = [await control(t), ...(await askPeople(t)).map((a) => a.res)];
    return [...new Set(answers.filter(isUserinfoAnswer).flatMap((res) => userValues(res.json)))];
  });
}

export interface PersonAnswer {
  label: string;
  token: string;
  res: CapturedResponse;
}

export interface ServedPerson extends PersonAnswer {
  body: Record<string, unknown>;
}

/** Every person of the pool asked once, in the pool's order. */
export async function askPeople(t: RequirementContext): Promise<PersonAnswer[]> {
  const answers: PersonAnswer[] = [];
  for (const person of peopleOf(t)) answers.push({ ...person, res: await sendUserinfo(t, { token: person.token }) });
  return answers;
}

/**
 * The people answered with the userinfo of 4.2, the ones a check of the fields can judge. A 5xx fails
 * the test that saw it; any other answer leaves the person out (IDN-RSP-001 fails on it); nobody left
 * is inconclusive.
 */
export function servedPeople(t: RequirementContext, answers: readonly PersonAnswer[]): ServedPerson[] {
  for (const a of answers) t.expectNone(noServerError(a.res, t.id), a.res, a.label);
  const served = answers.filter((a) => isUserinfoAnswer(a.res)).map((a) => ({ ...a, body: a.res.json as Record<string, unknown> }));
  if (!served.length) {
    const seen = answers.map((a) => `${a.label} ${a.res.status}`).join(', ');
    throw inconclusive(
      'PRECONDITION_MISSING',
      `no person of the pool was answered with the userinfo of 4.2 (${seen}), so there was nothing to judge; IDN-RSP-001 judges those answers`,
    );
  }
  return served;
}

/** A token under services.identity.tokens.<name>, or a CREDENTIAL_MISSING skip naming the key. */
export function tokenOf(t: RequirementContext, name: IdentityTokenName): string {
  return identityToken(t.target, name);
}

/** The people to check: accessToken's user, then services.identity.tokens.people (duplicates dropped). */
export function peopleOf(t: RequirementContext): Array<{ label: string; token: string }> {
  const main = credentialOf(t.target, 'identity', 'accessToken');
  const pool = [...new Set([main, ...(identityConfig(t.target).tokens.people ?? [])])];
  return pool.map((token, i) => ({ label: i === 0 ? 'the user of accessToken' : `person ${i} of tokens.people`, token }));
}

/** Scopes the accessToken and tokens.people carry: services.identity.scopes, or profile, phone, email (and openid). */
export function grantedScopes(t: RequirementContext): string[] {
  return identityConfig(t.target).scopes;
}

/** The secret with its last character changed; still mostly the secret, so it is registered for masking too. */
export function nearMissOf(t: Pick<RequirementContext, 'target'>, secret: string): string {
  const miss = secret.slice(0, -1) + (secret.at(-1) === 'x' ? 'y' : 'x');
  t.target.redactor.register(miss);
  return miss;
}
