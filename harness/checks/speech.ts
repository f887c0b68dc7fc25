/** Checks of speech calls (spec 2.1, 4.1, 5.1): acceptance, refusal, leeway figures, secret echoes. */
import type { CapturedResponse } from '../http.ts';
import { failure, type Failure } from './failure.ts';

const isSuccess = (status: number) => status >= 200 && status < 300;
/** The spec shows no speech errors: an authentication refusal is 401 or 403. */
export const REFUSED = [401, 403] as const;
const isRefusal = (status: number) => (REFUSED as readonly number[]).includes(status);

/** The call was accepted: any 2xx (the spec documents no success status for the recognize call). */
export function accepted(res: CapturedResponse, requirement: string): Failure[] {
  if (isSuccess(res.status)) return [];
  const what = isRefusal(res.status) ? 'refused with' : res.status >= 500 ? 'server error' : 'status';
  return [failure(requirement, 'accepted (2xx)', `${what} ${res.status}`)];
}

/** Not refused on authentication grounds (401/403) and no server error; any other answer is the target's business. */
export function notRefusedAsUnauthenticated(res: CapturedResponse, requirement: string): Failure[] {
  if (isRefusal(res.status)) return [failure(requirement, 'not refused as unauthenticated (any status but 401 and 403)', `refused with ${res.status}`)];
  if (res.status >= 500) return [failure(requirement, 'no server error', `server error ${res.status}`)];
  return [];
}

/**
 * The response (body or any header) contains none of the secrets. `secrets` pairs a label with the
 * value; the value itself never goes into the failure (the redactor would mask it anyway).
 */
export function echoesNoSecret(res: CapturedResponse, secrets: ReadonlyArray<readonly [label: string, value: string]>, requirement: string): Failure[] {
  const out: Failure[] = [];
  for (const [label, value] of secrets) {
    if (value.length < 8) continue;
    const places = [res.rawBody.includes(value) ? 'body' : '', ...Object.entries(res.headers).filter(([, v]) => v.includes(value)).map(([k]) => `header ${k}`)].filter(Boolean);
    if (places.length) out.push(failure(requirement, `no ${label} in the response`, `the ${label} in the response ${places.join(', ')}`));
  }
  return out;
}

export interface LeewayProbe {
  /** Seconds past exp, or ahead for nbf and iat. */
  offsetSeconds: number;
  status: number;
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
 * as a leeway: a status other than 2xx, 401 or 403, or a larger offset accepted after a smaller one was
 * refused. A wide leeway is a figure to report, not a failure (the expiry tests judge the hour).
 */
export function leewayFigure(claim: string, probes: readonly LeewayProbe[], requirement: string, direction = claim === 'exp' ? 'after' : 'before'): LeewayFigure {
  const failures: Failure[] = [];
  const sorted = [...probes].sort((a, b) => a.offsetSeconds - b.offsetSeconds);
  for (const p of sorted) {
    if (!isSuccess(p.status) && !isRefusal(p.status)) {
      failures.push(failure(requirement, `2xx, 401 or 403 for a token ${p.offsetSeconds} s ${direction} ${claim}`, `status ${p.status}`));
    }
  }
  const acceptedOffsets = sorted.filter((p) => isSuccess(p.status)).map((p) => p.offsetSeconds);
  const refusedOffsets = sorted.filter((p) => isRefusal(p.status)).map((p) => p.offsetSeconds);
  const acceptedUpTo = acceptedOffsets.length ? Math.max(...acceptedOffsets) : undefined;
  const refusedFrom = refusedOffsets.length ? Math.min(...refusedOffsets) : undefined;
  if (acceptedUpTo !== undefined && refusedFrom !== undefined && acceptedUpTo > refusedFrom) {
    failures.push(failure(requirement, `a single threshold: once a token ${direction} ${claim} by some margin is refused, larger margins are refused too`, `refused at ${refusedFrom} s but accepted at ${acceptedUpTo} s; probes ${sorted.map((p) => `${p.offsetSeconds}s→${p.status}`).join(', ')}`));
  }
  const max = sorted.length ? sorted[sorted.length - 1].offsetSeconds : 0;
  const min = sorted.length ? sorted[0].offsetSeconds : 0;
  let text: string;
  if (refusedFrom === undefined) text = `${claim}: accepted up to at least ${max} s ${direction} (no probe refused)`;
  else if (acceptedUpTo === undefined) text = `${claim}: refused from ${min} s ${direction} (leeway under ${min} s)`;
  else text = `${claim}: accepted ${acceptedUpTo} s ${direction}, refused ${refusedFrom} s ${direction} (leeway between ${acceptedUpTo} and ${refusedFrom} s)`;
  return { acceptedUpTo, refusedFrom, text, failures };
}

/** The target's clock minus ours, in whole seconds, from the Date header (undefined without one). */
export function clockOffsetSeconds(res: CapturedResponse, sentAtMs: number): number | undefined {
  const date = Date.parse(res.headers.date ?? '');
  if (!Number.isFinite(date)) return undefined;
  const midpoint = sentAtMs + res.durationMs / 2;
  return Math.round((date + 500 - midpoint) / 1000);
}
