/**
 * Spec 5.3 and 7: access, bad requests and the documented statuses; the vendor's stricter statuses and
 * error body (public facts) on the same answers. One request per case of the matrix in _errors.ts.
 */
import { describe } from 'vitest';
import { noPortfolioIn, vendorErrorBody } from '../../harness/checks/invest.ts';
import { rejectedWith, statusIn } from '../../harness/checks/status.ts';
import { isSkip } from '../../harness/errors.ts';
import { requirementTest } from '../../harness/suite.ts';
import { answerTo, ERROR_CASES, errorCase } from './_errors.ts';
import { statusDocumentedOrError } from './_portfolio.ts';

/** Requirement, the matrix cases it reads, and the statuses the spec accepts for them. */
const SPEC_ROWS: Array<[string, string[], number[]]> = [
  ['INV-AUT-001', ['no-token'], [401]],
  ['INV-AUT-002', ['unknown-token', 'malformed-token'], [401]],
  ['INV-AUT-003', ['other-account', 'token-without-access'], [403, 404]],
  ['INV-ACC-001', ['unknown-account'], [404, 403]],
  ['INV-REQ-001', ['missing-account'], [400]],
  ['INV-REQ-002', ['account-number', 'account-object'], [400]],
  ['INV-CUR-004', ['currency-gbp', 'currency-rur'], [400]],
  ['INV-ERR-001', ['json-truncated', 'json-trailing'], [400]],
  ['INV-ERR-002', ['form-body'], [415, 400]],
];

describe('invest portfolio: errors of part 7', () => {
  for (const [id, cases, allowed] of SPEC_ROWS) {
    for (const caseId of cases) {
      const c = errorCase(caseId);
      const row = `${c.what} is refused with ${allowed.join(' or ')}`;
      requirementTest(id, { row }, async (t) => {
        const res = await answerTo(t, caseId);
        const leak = id === 'INV-AUT-003' || id === 'INV-ACC-001' ? noPortfolioIn(res, t.id) : [];
        t.expectNone([...rejectedWith(res, allowed, t.id), ...leak], res, c.what);
      });
    }
  }

  for (const [id, cases] of [
    ['INV-AUT-004', ['other-account', 'token-without-access']],
    ['INV-ACC-002', ['unknown-account']],
  ] as const) {
    for (const caseId of cases) {
      const c = errorCase(caseId);
      requirementTest(id, { row: `${c.what} is refused with exactly ${c.vendor!.status}` }, async (t) => {
        const res = await answerTo(t, caseId);
        t.expectNone(statusIn(res, [c.vendor!.status], t.id), res, c.what);
      });
    }
  }

  for (const c of ERROR_CASES.filter((e) => e.vendor)) {
    requirementTest('INV-ERR-003', { row: `${c.what}: ${c.vendor!.status} with the vendor's error body, description ${c.vendor!.description}` }, async (t) => {
      const res = await answerTo(t, c.id);
      t.expectNone(vendorErrorBody(res, c.vendor!, t.id), res, c.what);
    });
  }

  requirementTest('INV-STA-001', { row: 'every answer of the error matrix has a documented status' }, async (t) => {
    let checked = 0;
    for (const c of ERROR_CASES) {
      let res;
      try {
        res = await answerTo(t, c.id);
      } catch (error) {
        if (isSkip(error)) continue;
        throw error;
      }
      t.expectNone(statusDocumentedOrError(res, t.id), res, c.what);
      checked++;
    }
    if (checked === 0) throw new Error('no case of the error matrix could be sent');
  });
});
