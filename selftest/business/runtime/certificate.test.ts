/**
 * The client-certificate preconditions (harness/business/runtime/certificate.ts): a valid request refused
 * for its certificate or credentials names the requirement of 5.5 that says it is not (BUS-MTL-005 with
 * the certificate on mtlsUrl, BUS-MTL-006 for the cards on the plain url), so the tests that take it as
 * given end inconclusive naming it; every other answer, operation and host is left to the calling test.
 */
import { describe, expect, it } from 'vitest';
import { refusedForCertificate } from '../../../harness/business/runtime/certificate.ts';
import type { OperationPlan } from '../../../harness/business/runtime/plan.ts';
import { dependenciesOf } from '../../../harness/spec/requirements.ts';
import { cannedResponse } from '../../helpers.ts';

const op = (row: string, mtls: boolean) => ({ row, mtls }) as OperationPlan;
const res = (status: number) => cannedResponse(status, { errorId: 'e', errorCode: 'FORBIDDEN', errorMessage: 'wrong TLS certificate' });
const PAYMENT = op('POST /api/v1/payment/ruble-transfer/pay', true);
const CARDS = op('GET /api/v1/card', false);
const CARD = op('GET /api/v1/card/{ucid}', false);
const RULES = op('GET /api/v1/rules', false);

describe('refusedForCertificate', () => {
  it("a secured operation refused with its certificate on mtlsUrl is BUS-MTL-005's", () => {
    for (const status of [401, 403, 495, 496]) {
      const [f] = refusedForCertificate(PAYMENT, 'own', res(status));
      expect(f.requirement).toBe('BUS-MTL-005');
      expect(f.defect).toBe('served with the client certificate (no 401, 403, 495 or 496)');
      expect(f.received).toMatch(new RegExp(`^status ${status}: `));
    }
  });

  it("the cards lists and the single-card read refused on the plain url are BUS-MTL-006's, one defect for all", () => {
    const failures = [
      ...refusedForCertificate(CARDS, 'own', res(403)),
      ...refusedForCertificate(CARDS, 'plain', res(401)),
      ...refusedForCertificate(CARD, 'plain', res(496)),
    ];
    expect(failures.map((f) => f.requirement)).toEqual(['BUS-MTL-006', 'BUS-MTL-006', 'BUS-MTL-006']);
    expect(new Set(failures.map((f) => f.defect))).toEqual(
      new Set(['served on the plain url without a client certificate (no 401, 403, 495 or 496)']),
    );
  });

  it('leaves every other answer to the calling test', () => {
    for (const status of [200, 204, 400, 404, 409, 422, 500]) {
      expect(refusedForCertificate(PAYMENT, 'own', res(status))).toEqual([]);
      expect(refusedForCertificate(CARDS, 'own', res(status))).toEqual([]);
    }
  });

  it('states nothing where 5.5 says nothing of the certificate', () => {
    // An operation that needs no certificate and is not a cards method: a 403 is the calling test's (BUS-RUN-005's own).
    expect(refusedForCertificate(RULES, 'own', res(403))).toEqual([]);
    // Without the certificate on mtlsUrl, or on the plain url, a secured operation is meant to be refused.
    expect(refusedForCertificate(PAYMENT, 'secured-without-certificate', res(403))).toEqual([]);
    expect(refusedForCertificate(PAYMENT, 'plain', res(403))).toEqual([]);
    // A cards list the target file lists as secured is sent with the certificate: BUS-MTL-005 judges it there.
    expect(refusedForCertificate(op('GET /api/v1/card', true), 'own', res(403))[0].requirement).toBe('BUS-MTL-005');
  });

  it('the tests that take the preconditions as given depend on them, with no cycle', () => {
    expect([...dependenciesOf('BUS-RUN-005')]).toEqual(expect.arrayContaining(['BUS-MTL-005', 'BUS-MTL-006']));
    for (const id of ['BUS-CRD-002', 'BUS-CRD-003', 'BUS-CRD-004']) expect(dependenciesOf(id).has('BUS-MTL-006')).toBe(true);
    expect(dependenciesOf('BUS-CRD-003').has('BUS-CRD-002')).toBe(true);
    for (const id of ['BUS-MTL-005', 'BUS-MTL-006', 'BUS-CRD-002']) expect(dependenciesOf(id).has(id)).toBe(false);
  });
});
