/**
 * Checks of speech calls (spec 2.1, 4.1, 5.1): acceptance, refusal, leeway figures, secret echoes.
 * The spec shows no speech error status: a refusal is any answer that is neither 2xx nor 5xx
 * (harness/checks/answer.ts); exactly 401 is a policy of its own (RFC 6750 section 3.1).
 * No check prints a token or a part of one: failures name what was sent, never its value.
 */
import type { CapturedResponse } from '../request/http.ts';
import { isRefusal, isServerError, isSuccess, noServerError } from '../checks/answer.ts';
import { jsonWhereBody } from '../checks/json-answer.ts';
import { failure, type Failure } from '../checks/failure.ts';

/** The call was accepted: any 2xx (the spec documents no success status for the recognize call), and a body, if any, is JSON. */
export function accepted(res: CapturedResponse, requirement: string): Failure[] {
  if (!isSuccess(res.status))
    return [failure(requirement, 'accepted (2xx)', `${isServerError(res.status) ? 'server error' : 'refused with'} ${res.status}`)];
  return jsonWhereBody(res, requirement);
}

/** Whether the call was accepted as `accepted` reads it. */
export const isAccepted = (res: CapturedResponse): boolean => accepted(res, '').length === 0;

/** The defect of a valid token refused with 401 or 403, in the same words wherever a test finds it. */
export const VALID_TOKEN_REFUSED = 'a valid token refused with 401 or 403';

/** How the target answers the same call when its token is missing, and when it is signed with another secret. */
export interface TokenRefusals {
  none: CapturedResponse;
  wrongSecret: CapturedResponse;
}

export interface TokenVerdict {
  failures: Failure[];
  /** Set when the answers prove neither that the token was accepted nor that it was refused. */
  noEvidence?: string;
  /** How the token's acceptance was seen, for the report. */
  seen?: string;
}

/**
 * Whether a valid token was accepted. The spec shows the recognize call's headers but not its body, so
 * a call whose token is good may still be refused for its audio; what must hold is that the target
 * does not refuse it *for its token*. The evidence is the same call without a token and with a token
 * signed with another secret, both refused (else nothing tells tokens apart: no evidence):
 *   a 2xx (a body, if any, JSON: part 4) is an acceptance;
 *   401 or 403 (HTTP's statuses for a credential refused) is a refusal of the token, whatever the bad
 *   tokens got: a failure;
 *   any other status that neither reference got means the token passed and something else was answered
 *   (a 400 about the audio): accepted;
 *   the status of a reference otherwise (a target that judges the body first answers all three alike):
 *   no evidence either way.
 * A 5xx always fails. The refusal of the token names `refusedFor` (SPE-TOK-001 where the plain valid
 * token was refused too: a test of a variation of it takes that as given).
 */
export function tokenAcceptance(
  res: CapturedResponse,
  refusals: TokenRefusals,
  requirement: string,
  refusedFor: string = requirement,
): TokenVerdict {
  if (isServerError(res.status))
    return { failures: [failure(requirement, 'accepted (the token not refused)', `server error ${res.status}`)] };
  const { none, wrongSecret } = refusals;
  for (const [what, ref] of [
    ['without any token', none],
    ['with a token signed with another secret', wrongSecret],
  ] as const) {
    if (isSuccess(ref.status))
      return {
        failures: [],
        noEvidence: `an acceptance proves nothing here: the same call ${what} was accepted too (${ref.status}), so the target does not tell valid tokens from bad ones; control: ${ref.curl}`,
      };
  }
  if (isSuccess(res.status)) return { failures: jsonWhereBody(res, requirement), seen: `accepted with ${res.status}` };
  const references = `the same call without a token was answered ${none.status}, with a token signed with another secret ${wrongSecret.status}`;
  // 401 and 403 are HTTP's refusals of a credential, whatever the bad tokens got: a valid token answered 403
  // while bad ones get 401 is refused too (not authorized rather than not authenticated).
  if (res.status === 401 || res.status === 403) {
    const as = res.status === none.status || res.status === wrongSecret.status ? 'as the bad tokens were' : 'a refusal of a credential';
    return {
      failures: [
        {
          ...failure(refusedFor, 'accepted (the token not refused)', `refused with ${res.status}, ${as} (${references})`),
          defect: VALID_TOKEN_REFUSED,
        },
      ],
    };
  }
  if (res.status !== none.status && res.status !== wrongSecret.status)
    return {
      failures: [],
      seen: `answered ${res.status}, which neither bad token got (${references}): the token passed, and the call was answered for something else`,
    };
  return {
    failures: [],
    noEvidence: `answered ${res.status}, as the bad tokens were (${references}): the spec shows no recognize body, so the target may have refused the call's audio before its token; no evidence either way`,
  };
}

/** RFC 6750 section 3.1: an invalid, expired or malformed token, or none, is answered 401 (a policy; the spec shows no status). */
export function refusedWith401(res: CapturedResponse, requirement: string, row: string): Failure[] {
  if (res.status === 401) return jsonWhereBody(res, requirement);
  return [failure(requirement, `401 for ${row}`, `${isSuccess(res.status) ? 'accepted with' : 'status'} ${res.status}`)];
}

/**
 * A call without a body whose token carries the hash of the empty string (`right`), judged next to the
 * same call whose token carries the hash of "{}" (`wrong`). The spec says nothing of what the recognize
 * call answers without audio, so the evidence is that the target tells the two tokens apart:
 *   right accepted and wrong refused, or right answered otherwise than wrong (400 "no audio" against a
 *   refused token): passes; right refused with 401 or 403 (on authentication grounds): fails;
 *   both answered alike: no evidence either way (whether the hash is checked at all is SPE-HSH-001's).
 */
export function emptyBodyHashVerdict(
  right: CapturedResponse,
  wrong: CapturedResponse,
  requirement: string,
  refusedFor: string = requirement,
): { failures: Failure[]; noEvidence?: string } {
  // An accepted call is the call's success answer, whose body part 4 makes JSON.
  const failures = [
    ...noServerError(right, requirement),
    ...noServerError(wrong, requirement),
    ...(isSuccess(right.status) ? jsonWhereBody(right, requirement) : []),
  ];
  if (failures.length) return { failures };
  if (right.status === 401 || right.status === 403) {
    return {
      failures: [
        {
          ...failure(
            refusedFor,
            'not refused as unauthenticated: a call without a body carries the hash of the empty string',
            `refused with ${right.status}`,
          ),
          defect: VALID_TOKEN_REFUSED,
        },
      ],
    };
  }
  if (isSuccess(right.status) ? !isSuccess(wrong.status) : right.status !== wrong.status) return { failures: [] };
  return {
    failures: [],
    noEvidence: `a call without a body was answered ${right.status} with the hash of the empty string and ${wrong.status} with the hash of "{}": the target did not tell the two tokens apart, so neither answer proves how it hashes an empty body`,
  };
}

/**
 * The response (body or any header) contains none of the secrets. `secrets` pairs a label with the
 * value; the value itself never goes into the failure (the redactor would mask it anyway).
 */
export function echoesNoSecret(
  res: CapturedResponse,
  secrets: ReadonlyArray<readonly [label: string, value: string]>,
  requirement: string,
): Failure[] {
  const out: Failure[] = [];
  for (const [label, value] of secrets) {
    if (value.length < 8) continue;
    const places = [
      res.rawBody.includes(value) ? 'body' : '',
      ...Object.entries(res.headers)
        .filter(([, v]) => v.includes(value))
        .map(([k]) => `header ${k}`),
    ].filter(Boolean);
    if (places.length) out.push(failure(requirement, `no ${label} in the response`, `the ${label} in the response ${places.join(', ')}`));
  }
  return out;
}

export interface LeewayProbe {
  /** Seconds past exp, or ahead for nbf and iat. */
  offsetSeconds: number;
  status: number;
  /** Whether the token was accepted; default: a 2xx (a target that refuses the audio accepts a token by answering as it answered the valid one). */
  accepted?: boolean;
}

export interface LeewayFigure {
  /** Largest offset accepted, if any. */
  acceptedUpTo?: number;
  /** Smallest offset refused, if any. */
  refusedFrom?: number;
  text: string;
  failures: Failure[];
}

/**
 * What a ladder of probes says about a time claim's leeway. Fails only when the answers cannot be read
 * as a leeway: a server error, or a larger offset accepted after a smaller one was refused. A wide
 * leeway is a figure to report, not a failure (the expiry tests judge the hour).
 */
export function leewayFigure(
  claim: string,
  probes: readonly LeewayProbe[],
  requirement: string,
  direction = claim === 'exp' ? 'after' : 'before',
): LeewayFigure {
  const failures: Failure[] = [];
  const sorted = [...probes].sort((a, b) => a.offsetSeconds - b.offsetSeconds);
  for (const p of sorted) {
    if (isServerError(p.status))
      failures.push(failure(requirement, `no server error for a token ${p.offsetSeconds} s ${direction} ${claim}`, `status ${p.status}`));
  }
  const tokenAccepted = (p: LeewayProbe) => p.accepted ?? isSuccess(p.status);
  const acceptedOffsets = sorted.filter(tokenAccepted).map((p) => p.offsetSeconds);
  const refusedOffsets = sorted.filter((p) => !tokenAccepted(p) && isRefusal(p.status)).map((p) => p.offsetSeconds);
  const acceptedUpTo = acceptedOffsets.length ? Math.max(...acceptedOffsets) : undefined;
  const refusedFrom = refusedOffsets.length ? Math.min(...refusedOffsets) : undefined;
  if (acceptedUpTo !== undefined && refusedFrom !== undefined && acceptedUpTo > refusedFrom) {
    failures.push(
      failure(
        requirement,
        `a single threshold: once a token ${direction} ${claim} by some margin is refused, larger margins are refused too`,
        `refused at ${refusedFrom} s but accepted at ${acceptedUpTo} s; probes ${sorted.map((p) => `${p.offsetSeconds}s→${p.status}`).join(', ')}`,
      ),
    );
  }
  const max = sorted.length ? sorted[sorted.length - 1].offsetSeconds : 0;
  const min = sorted.length ? sorted[0].offsetSeconds : 0;
  let text: string;
  if (refusedFrom === undefined) text = `${claim}: accepted up to at least ${max} s ${direction} (no probe refused)`;
  else if (acceptedUpTo === undefined) text = `${claim}: refused from ${min} s ${direction} (leeway under ${min} s)`;
  else
    text = `${claim}: accepted ${acceptedUpTo} s ${direction}, refused ${refusedFrom} s ${direction} (leeway between ${acceptedUpTo} and ${refusedFrom} s)`;
  return { acceptedUpTo, refusedFrom, text, failures };
}

/** The target's clock minus ours, in whole seconds, from the Date header (undefined without one). */
export function clockOffsetSeconds(res: CapturedResponse, sentAtMs: number): number | undefined {
  const date = Date.parse(res.headers.date ?? '');
  if (!Number.isFinite(date)) return undefined;
  const midpoint = sentAtMs + res.durationMs / 2;
  return Math.round((date + 500 - midpoint) / 1000);
}
