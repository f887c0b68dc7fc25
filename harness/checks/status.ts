import type { CapturedResponse } from '../request/http.ts';
import { notRefused } from './answer.ts';
import { failure, type Failure } from './failure.ts';

const list = (statuses: readonly number[]) => (statuses.length === 1 ? `${statuses[0]}` : `one of ${statuses.join(', ')}`);

/** The status is one of `allowed`. */
export function statusIn(res: CapturedResponse, allowed: readonly number[], requirement: string): Failure[] {
  return allowed.includes(res.status) ? [] : [failure(requirement, `status ${list(allowed)}`, `status ${res.status}`)];
}

/** The status is one the spec documents for the operation. */
export function statusDocumented(res: CapturedResponse, documented: readonly number[], requirement: string): Failure[] {
  return documented.includes(res.status)
    ? []
    : [failure(requirement, `a documented status (${documented.join(', ')})`, `undocumented status ${res.status}`)];
}

/** Rejected: a 4xx from `allowed` (the spec's meaning of "rejected"), and never a success or a 5xx. */
export function rejectedWith(res: CapturedResponse, allowed: readonly number[], requirement: string): Failure[] {
  if (allowed.includes(res.status)) return [];
  const what = res.status < 300 ? 'accepted with' : res.status >= 500 ? 'server error' : 'status';
  const defect = notRefused(res.status);
  return [{ ...failure(requirement, `rejected with ${list(allowed)}`, `${what} ${res.status}`), ...(defect ? { defect } : {}) }];
}
