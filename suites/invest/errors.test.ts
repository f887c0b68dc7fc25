/**
 * Spec 5.3 and 7: access, bad requests and the documented statuses; the vendor's stricter statuses and
 * error body (public facts) on the same answers. One request per case of the matrix in generators/invest/errors.ts.
 * Every refusal counts only next to the control (the main account's portfolio read in this run).
 */
import { isRefusal, isServerError, refused } from '../../harness/checks/answer.ts';
import { describe } from 'vitest';
import { noPortfolioIn, portfolioStatusDocumented, vendorErrorBody } from '../../harness/invest/checks.ts';
import { jsonWhereBody } from '../../harness/checks/json-answer.ts';
import { inconclusive, isSkip, ToolError } from '../../harness/errors.ts';
import type { CapturedResponse } from '../../harness/request/http.ts';
import { expectRefusal } from '../../harness/test/refusal.ts';
import type { RequirementContext } from '../../harness/test/suite.ts';
import { requirementTest } from '../../harness/test/suite.ts';
import { ERROR_CASES, errorCase, type PortfolioErrorCase } from '../../generators/invest/errors.ts';
import { answerTo, control, expectRefused } from '../../harness/invest/client.ts';

/**
 * Requirement, the matrix cases it reads, and the statuses the spec accepts for them. Part 7 lists the
 * statuses of the method, ends with "default: unexpected error" and maps no case to a status, so a case
 * the spec refuses may be refused with any client error ('any': neither 2xx nor 5xx), a request without
 * credentials too (5.3 says only "bearer API token"); where 7 lists what the case can only be (an
 * account that is not the caller's: 403 or 404) the row says so. HTTP's statuses for credentials (401,
 * 403; RFC 6750's 400 for a malformed one) are INV-AUT-006's policy, the vendor's exact statuses the
 * vendor rows below; both take the spec's refusal as given (`refusalOf`).
 */
const SPEC_ROWS: Array<[string, string[], number[] | 'any']> = [
  ['INV-AUT-001', ['no-token'], 'any'],
  ['INV-AUT-002', ['unknown-token', 'malformed-token'], 'any'],
  ['INV-AUT-003', ['other-account', 'token-without-access'], [403, 404]],
  ['INV-ACC-001', ['unknown-account'], [404, 403]],
  ['INV-REQ-001', ['missing-account'], 'any'],
  ['INV-REQ-002', ['account-number', 'account-object'], 'any'],
  ['INV-CUR-004', ['currency-gbp', 'currency-rur'], 'any'],
  ['INV-ERR-001', ['json-truncated', 'json-trailing'], 'any'],
  ['INV-ERR-002', ['form-body'], 'any'],
];

/** The spec requirement that a case is refused at all. */
const refusalOf = (caseId: string): string => SPEC_ROWS.find(([, cases]) => cases.includes(caseId))![0];

/** HTTP's statuses for credentials refused (INV-AUT-006, policy): 401 or 403, and RFC 6750's 400 for a credential that is no bearer syntax. */
const CREDENTIAL_ROWS: Array<[string, number[]]> = [
  ['no-token', [401, 403]],
  ['unknown-token', [401, 403]],
  ['malformed-token', [400, 401, 403]],
];

/** The cases outside the request table of 4.3 whose exact 400 is the vendor's (INV-REQ-003). */
const VENDOR_BAD_REQUESTS = [
  'missing-account',
  'account-number',
  'account-object',
  'currency-gbp',
  'currency-rur',
  'json-truncated',
  'json-trailing',
];

/**
 * The answers of the whole matrix that could be sent here (a case whose key the target file lacks is
 * left out). A matrix answered only with server errors shows how the target fails, not what it
 * answers: the tests that read the whole matrix are then inconclusive (each case's own test fails).
 */
async function matrixAnswers(t: RequirementContext): Promise<Array<[PortfolioErrorCase, CapturedResponse]>> {
  const out: Array<[PortfolioErrorCase, CapturedResponse]> = [];
  for (const c of ERROR_CASES) {
    try {
      out.push([c, await answerTo(t, c)]);
    } catch (error) {
      if (!isSkip(error)) throw error;
    }
  }
  if (out.length === 0)
    throw new ToolError(
      'FIXTURE_MISSING',
      'no case of the error matrix could be sent: the target file lacks what every case needs (services.invest.accountId)',
    );
  if (out.every(([, res]) => isServerError(res.status)))
    throw inconclusive(
      'PRECONDITION_MISSING',
      `every case of the error matrix was answered with a server error (${out.map(([, r]) => r.status).join(', ')}): the target processed none of them`,
    );
  return out;
}

describe('invest portfolio: errors of part 7', () => {
  for (const [id, cases, allowed] of SPEC_ROWS) {
    for (const caseId of cases) {
      const c = errorCase(caseId);
      const row = `${c.what} is refused with ${allowed === 'any' ? 'a client error (neither 2xx nor 5xx)' : allowed.join(' or ')}`;
      requirementTest(id, { row }, async (t) => {
        const res = await answerTo(t, c);
        const leak = id === 'INV-AUT-003' || id === 'INV-ACC-001' ? noPortfolioIn(res, t.id) : [];
        await expectRefused(t, res, { allowed, note: c.what, extra: leak });
      });
    }
  }

  for (const [caseId, allowed] of CREDENTIAL_ROWS) {
    const c = errorCase(caseId);
    requirementTest('INV-AUT-006', { row: `${c.what} is refused with ${allowed.join(' or ')}` }, async (t) => {
      await expectRefused(t, await answerTo(t, c), { allowed, note: c.what, refusalOf: refusalOf(caseId) });
    });
  }

  for (const [id, cases] of [
    ['INV-AUT-005', ['no-token', 'unknown-token', 'malformed-token']],
    ['INV-AUT-004', ['other-account', 'token-without-access']],
    ['INV-ACC-002', ['unknown-account']],
  ] as const) {
    for (const caseId of cases) {
      const c = errorCase(caseId);
      requirementTest(id, { row: `${c.what} is refused with exactly ${c.vendor!.status}` }, async (t) => {
        await expectRefused(t, await answerTo(t, c), { allowed: [c.vendor!.status], note: c.what, refusalOf: refusalOf(caseId) });
      });
    }
  }

  for (const caseId of VENDOR_BAD_REQUESTS) {
    const c = errorCase(caseId);
    requirementTest('INV-REQ-003', { row: `${c.what} is refused with exactly 400` }, async (t) => {
      await expectRefused(t, await answerTo(t, c), { allowed: [400], note: c.what, refusalOf: refusalOf(caseId) });
    });
  }

  for (const c of ERROR_CASES.filter((e) => e.vendor)) {
    requirementTest(
      'INV-ERR-003',
      { row: `${c.what}: ${c.vendor!.status} with the vendor's error body, description ${c.vendor!.description}` },
      async (t) => {
        const res = await answerTo(t, c);
        // An answer that is no refusal at all is the spec's refusal row's defect, which this one takes as given.
        const failures = isRefusal(res.status) ? vendorErrorBody(res, c.vendor!, t.id) : refused(res, refusalOf(c.id));
        await expectRefusal(t, res, failures, () => control(t), c.what, { jsonBody: false });
      },
    );
  }

  requirementTest('INV-STA-001', { row: 'every answer of the error matrix has a documented status' }, async (t) => {
    for (const [c, res] of await matrixAnswers(t)) t.expectNone(portfolioStatusDocumented(res, t.id), res, c.what);
    // A documented status alone proves nothing (401 to everything is documented): the control must have been served.
    await control(t);
  });

  requirementTest(
    'INV-CTY-001',
    { row: 'every answer of the error matrix that carries a body is JSON, labelled application/json' },
    async (t) => {
      for (const [c, res] of await matrixAnswers(t)) t.expectNone(jsonWhereBody(res, t.id), res, c.what);
      await control(t);
    },
  );
});
