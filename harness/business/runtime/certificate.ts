/**
 * The client-certificate preconditions of 5.5 that the other business tests take as given: a valid
 * request is not refused for its certificate where the suite sends it. Sent to mtlsUrl with the
 * certificate of services.business.mtls, that is BUS-MTL-005's subject; the cards lists and the
 * single-card read, sent to the plain url without one, BUS-MTL-006's. A refusal for the certificate or
 * the credentials (401, 403, 495, 496) of such a request names that requirement, so a test that depends
 * on it (specs/requirements.yaml `dependsOn`) ends inconclusive naming it instead of failing for the
 * same defect again; any other answer stays the calling test's to judge.
 */
import { notRefusedForCertificate } from '../checks/runtime.ts';
import type { Failure } from '../../checks/failure.ts';
import type { CapturedResponse } from '../../request/http.ts';
import type { OperationPlan } from './plan.ts';
import { type Host, onPlainUrl } from './send.ts';

export const CARDS_LISTS = ['GET /api/v1/card', 'GET /api/v3/card'];
export const CARD_READ = 'GET /api/v1/card/{ucid}';
/** Spec 5.5: "the cards list and single-card methods do not" need a client certificate (v3 is the cards list too). */
export const CARDS_WITHOUT_CERTIFICATE = [...CARDS_LISTS, CARD_READ];

/** The requirement that states a request of the operation sent to `host` is not refused for its certificate, and how it is sent. */
function certificatePrecondition(op: OperationPlan, host: Host): { requirement: string; how: string } | undefined {
  if (!onPlainUrl(op, host)) return host === 'own' ? { requirement: 'BUS-MTL-005', how: 'with the client certificate' } : undefined;
  if (CARDS_WITHOUT_CERTIFICATE.includes(op.row))
    return { requirement: 'BUS-MTL-006', how: 'on the plain url without a client certificate' };
  return undefined;
}

/**
 * A valid request's answer refused for its certificate or credentials where 5.5 says it is not, as a
 * failure of the requirement that says so; nothing for any other answer or operation.
 */
export function refusedForCertificate(op: OperationPlan, host: Host, res: CapturedResponse): Failure[] {
  const precondition = certificatePrecondition(op, host);
  return precondition ? notRefusedForCertificate(res, precondition.requirement, precondition.how) : [];
}
