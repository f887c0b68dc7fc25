/**
 * Which read follows which create, which GET checks a DELETE, and where a needed identifier comes
 * from: inferred from the sandbox's document alone, and the heuristic's edges (an action that names
 * an existing thing is not a create; the nearest of two similar reads wins).
 */
import { describe, expect, it } from 'vitest';
import { cleanDocument } from '../../../sandbox/services/business/document.ts';
import { deletePairs, readLinks, sourcesOf } from '../../../harness/business/runtime/links.ts';
import { operationPlans } from '../../../harness/business/runtime/plan.ts';

const raw = cleanDocument();
const operations = operationPlans(raw, [], 1);
const links = readLinks(raw, operations);
const pairs = links.map((l) => `${l.create.row} -> ${l.read.row}`);
const NOMINAL = '/api/v1/nominal-accounts';

describe('create and read links', () => {
  it('pairs the creates with the read of what they made', () => {
    expect(pairs).toEqual(
      expect.arrayContaining([
        'POST /api/v2/checkout/order -> GET /api/v2/checkout/order/{shopId}/by/{orderId}',
        'POST /api/v1/rules -> GET /api/v1/rules/{ruleId}',
        `POST ${NOMINAL}/beneficiaries/{beneficiaryId}/bank-details -> GET ${NOMINAL}/beneficiaries/{beneficiaryId}/bank-details/{bankDetailsId}`,
        `POST ${NOMINAL}/deals/{dealId}/steps/{stepId}/recipients -> GET ${NOMINAL}/deals/{dealId}/steps/{stepId}/recipients/{recipientId}`,
        'POST /api/v1/e-invoice -> GET /api/v1/e-invoice/{id}/status',
        'POST /api/offline/partners/v1/create -> GET /api/offline/partners/v1/orders/{orderNumber}/info',
        'POST /api/offline/partners/v1/demo/create -> GET /api/offline/partners/v1/demo/orders/{orderNumber}/info',
      ]),
    );
  });

  it('does not take an action on an existing thing for a create', () => {
    expect(
      pairs.filter(
        (p) => p.startsWith('POST /api/v1/self-employed/payment-registry/pay') || p.startsWith('POST /api/v1/payment/payment-registry/pay'),
      ),
    ).toEqual([]);
    expect(pairs.filter((p) => /\/(cancel|commit|confirm|block|bind) ->/.test(p))).toEqual([]);
  });

  it('pairs each DELETE with the GET of the same template, and with the create of what it reads', () => {
    const found = deletePairs(operations, links).map((p) => `${p.remove.row} | ${p.read.row} | ${p.link?.create.row ?? 'none'}`);
    expect(found).toEqual([
      `DELETE ${NOMINAL}/beneficiaries/{beneficiaryId}/bank-details/{bankDetailsId} | GET ${NOMINAL}/beneficiaries/{beneficiaryId}/bank-details/{bankDetailsId} | POST ${NOMINAL}/beneficiaries/{beneficiaryId}/bank-details`,
      `DELETE ${NOMINAL}/deals/{dealId}/steps/{stepId}/recipients/{recipientId} | GET ${NOMINAL}/deals/{dealId}/steps/{stepId}/recipients/{recipientId} | POST ${NOMINAL}/deals/{dealId}/steps/{stepId}/recipients`,
      `DELETE ${NOMINAL}/deals/{dealId}/steps/{stepId}/deponents/{beneficiaryId} | GET ${NOMINAL}/deals/{dealId}/steps/{stepId}/deponents/{beneficiaryId} | none`,
    ]);
  });
});

describe('sources of an identifier a create needs', () => {
  const recipients = operations.find((o) => o.row === `POST ${NOMINAL}/deals/{dealId}/steps/{stepId}/recipients`)!;

  it('looks first where the path is nearest: the deals list for a deal, the steps list for a step', () => {
    expect(sourcesOf(raw, operations, 'dealId', recipients)[0]).toMatchObject({ kind: 'list', op: { row: `GET ${NOMINAL}/deals` } });
    expect(sourcesOf(raw, operations, 'stepId', recipients)[0]).toMatchObject({
      kind: 'list',
      op: { row: `GET ${NOMINAL}/deals/{dealId}/steps` },
    });
  });

  it("looks in the operation's own area first: a self-employed registry is no salary registry of the same name", () => {
    const submit = operations.find((o) => o.row === 'POST /api/v1/self-employed/payment-registry/submit')!;
    const sources = sourcesOf(raw, operations, 'paymentRegistryId', submit);
    expect(sources[0].op.catalog.area).toBe('self-employed');
    expect(sources.findIndex((s) => s.op.row === 'GET /api/v1/salary/payment-registry/')).toBeGreaterThan(
      sources.findIndex((s) => s.op.catalog.area === 'self-employed'),
    );
  });

  it('takes a beneficiary from the create of one', () => {
    const bankDetails = operations.find((o) => o.row === `POST ${NOMINAL}/beneficiaries/{beneficiaryId}/bank-details`)!;
    expect(sourcesOf(raw, operations, 'beneficiaryId', bankDetails)[0]).toMatchObject({
      kind: 'create',
      op: { row: `POST ${NOMINAL}/beneficiaries` },
    });
  });
});
