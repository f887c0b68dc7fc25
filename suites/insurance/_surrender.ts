/** How the insurance suites call the surrender method (spec 4.4). */
import { randomUUID } from 'node:crypto';
import type { CapturedResponse } from '../../harness/http.ts';
import type { RequirementContext } from '../../harness/suite.ts';
import { insuranceConfig } from '../../harness/config/insurance.ts';
import { credentialOf } from '../../harness/target.ts';

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
  requestId?: string;
  pacing?: 'paced' | 'burst';
}

export function surrenderUrl(t: RequirementContext): string {
  return `${insuranceConfig(t.target).url.replace(/\/$/, '')}${SURRENDER_PATH}`;
}

export async function sendSurrender(t: RequirementContext, body: unknown, options: SendOptions = {}): Promise<CapturedResponse> {
  const token = options.token === undefined ? credentialOf(t.target, 'insurance', 'token') : options.token;
  const headers: Record<string, string> = { 'x-request-id': options.requestId ?? randomUUID() };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const contentType = options.contentType ?? (options.raw !== undefined ? 'application/json' : undefined);
  if (contentType) headers['content-type'] = contentType;
  return t.client.send({
    area: 'insurance',
    operation: OPERATION,
    sideEffect: 'write',
    method: 'POST',
    url: surrenderUrl(t),
    headers,
    ...(options.raw !== undefined ? { body: options.raw } : { json: body }),
    pacing: options.pacing,
  });
}
