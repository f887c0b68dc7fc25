/** Spec 2.5, 4.4 and 7: requests that break the contract are rejected (400 or 422), never a 5xx. */
import { describe } from 'vitest';
import { failure } from '../../harness/checks/failure.ts';
import { expectRefusal } from '../../harness/test/refusal.ts';
import { requirementTest } from '../../harness/test/suite.ts';
import { invalidCases } from '../../generators/invalid-cases.ts';
import { surrenderRequest } from '../../generators/insurance/surrender.ts';
import { freshContractId, sampleItem, sampleRequest } from '../../harness/insurance/requests.ts';
import { requirementOfRule, SURRENDER_REQUEST } from '../../harness/insurance/surrender.ts';
import { control, expectRecord, expectRefused, sendSurrender } from '../../harness/insurance/client.ts';

const withoutKey = (obj: object, key: string) => Object.fromEntries(Object.entries(obj).filter(([k]) => k !== key));

describe('insurance surrender: invalid requests', () => {
  for (const field of ['contractId', 'productType', 'surrender', 'updateDate']) {
    requirementTest('INS-REQ-001', { row: `request without ${field} is rejected with 400 or 422` }, async (t) => {
      const res = await sendSurrender(t, withoutKey(sampleRequest(), field));
      await expectRefused(t, res);
    });
  }
  for (const field of ['calcPeriodFrom', 'calcPeriodTo', 'currency', 'surrenderPercent', 'surrenderValue']) {
    requirementTest('INS-REQ-001', { row: `surrender item without ${field} is rejected with 400 or 422` }, async (t) => {
      const res = await sendSurrender(t, { ...sampleRequest(), surrender: [withoutKey(sampleItem(), field)] });
      await expectRefused(t, res);
    });
  }

  const wrongTypes: Array<[string, (r: Record<string, unknown>) => unknown]> = [
    ['contractId as an object', (r) => ({ ...r, contractId: { id: r.contractId } })],
    ['contractId as an array', (r) => ({ ...r, contractId: [r.contractId] })],
    ['productType as an array', (r) => ({ ...r, productType: ['investment'] })],
    ['surrender as an object', (r) => ({ ...r, surrender: sampleItem() })],
    ['updateDate as a boolean', (r) => ({ ...r, updateDate: true })],
    ['a surrender item as a string', (r) => ({ ...r, surrender: ['RUB 100'] })],
    ['surrenderPercent as a non-numeric string', (r) => ({ ...r, surrender: [{ ...sampleItem(), surrenderPercent: 'eighty' }] })],
    ['surrenderValue as an object', (r) => ({ ...r, surrender: [{ ...sampleItem(), surrenderValue: { amount: 1 } }] })],
    ['currency as a number', (r) => ({ ...r, surrender: [{ ...sampleItem(), currency: 643 }] })],
  ];
  for (const [what, mutate] of wrongTypes) {
    requirementTest('INS-TYP-001', { row: `${what} is rejected with 400 or 422` }, async (t) => {
      const res = await sendSurrender(t, mutate(sampleRequest() as unknown as Record<string, unknown>));
      await expectRefused(t, res);
    });
  }

  const badDates: Array<[string, Record<string, unknown>]> = [
    ['calcPeriodFrom 2024-02-30 (no such day)', { calcPeriodFrom: '2024-02-30', calcPeriodTo: '2024-12-31' }],
    ['calcPeriodTo 2023-02-29 (not a leap year)', { calcPeriodFrom: '2023-01-01', calcPeriodTo: '2023-02-29' }],
    ['calcPeriodTo 2024-13-01 (month 13)', { calcPeriodTo: '2024-13-01' }],
  ];
  for (const [what, fields] of badDates) {
    requirementTest('INS-TYP-002', { row: `${what} is rejected with 400 or 422` }, async (t) => {
      const res = await sendSurrender(t, sampleRequest({ surrender: [sampleItem(fields)] }));
      await expectRefused(t, res);
    });
  }
  for (const [what, fields] of [
    ['calcPeriodFrom 01.02.2024 (dd.mm.yyyy)', { calcPeriodFrom: '01.02.2024' }],
    ['calcPeriodTo 12/31/2025 (mm/dd/yyyy)', { calcPeriodTo: '12/31/2025' }],
  ] as const) {
    requirementTest('INS-TYP-003', { row: `${what} is rejected with 400 or 422` }, async (t) => {
      const res = await sendSurrender(t, sampleRequest({ surrender: [sampleItem(fields)] }));
      await expectRefused(t, res);
    });
  }
  for (const updateDate of ['yesterday', '2024-02-30T10:00:00Z', '2024-01-01T25:00:00Z']) {
    requirementTest('INS-TYP-002', { row: `updateDate ${JSON.stringify(updateDate)} is rejected with 400 or 422` }, async (t) => {
      const res = await sendSurrender(t, sampleRequest({ updateDate }));
      await expectRefused(t, res);
    });
  }

  requirementTest('INS-SEM-001', async (t) => {
    const res = await sendSurrender(
      t,
      sampleRequest({ surrender: [sampleItem({ calcPeriodFrom: '2025-12-31', calcPeriodTo: '2025-01-01' })] }),
    );
    await expectRefused(t, res);
  });

  requirementTest('INS-NEG-001', { timeoutMs: 120_000 }, async (t) => {
    // Exhaustive over rules, property-based over values: every one-rule-broken case of each generated
    // request is sent, so no rule is left to the luck of sampling.
    const valid = surrenderRequest().map((r) => ({ ...r, contractId: freshContractId() }));
    await t.property(
      valid,
      async (request) => {
        for (const c of invalidCases(SURRENDER_REQUEST, request)) {
          const res = await sendSurrender(t, c.value);
          // Each rule is one a requirement of its own states (INS-LIM-002, INS-ENM-002, …): a broken one is that one's defect.
          await expectRefused(t, res, {
            note: `${c.description} (breaks ${c.rule} at ${c.path || '/'})`,
            refusalOf: requirementOfRule(c.rule, c.path),
          });
        }
      },
      Math.max(1, Math.ceil(t.runs / 10)),
    );
  });

  const malformed: Array<[string, string]> = [
    ['a truncated JSON object', '{"contractId": "PC-1", "productType": "investment", "surrender": ['],
    ['JSON followed by garbage', `${JSON.stringify({ contractId: 'PC-1' })}bla`],
    ['an empty body', ''],
    ['single-quoted keys', "{'contractId': 'PC-1'}"],
  ];
  for (const [what, raw] of malformed) {
    requirementTest('INS-ERR-001', { row: `${what} is rejected with 400 or 422` }, async (t) => {
      const res = await sendSurrender(t, undefined, { raw });
      await expectRefused(t, res);
    });
  }

  requirementTest('INS-ERR-002', async (t) => {
    const res = await sendSurrender(t, undefined, {
      raw: `contractId=${freshContractId()}&productType=investment`,
      contentType: 'text/plain',
    });
    // Any client error but the credential ones (the token is valid) and 429 (which proves nothing).
    const refused = res.status >= 400 && res.status < 500 && ![401, 403, 429].includes(res.status);
    await expectRefusal(
      t,
      res,
      refused ? [] : [failure(t.id, 'a 4xx refusal of the body (400, 415, 422, …; not 401, 403 or 429)', `status ${res.status}`)],
      () => control(t),
      undefined,
      { jsonBody: false },
    );
  });

  for (const [what, number] of [
    ['surrenderValue 1e400', '1e400'],
    ['surrenderValue of 400 digits', '9'.repeat(400)],
    ['surrenderPercent -1e400', '-1e400'],
  ] as const) {
    requirementTest('INS-ERR-003', { row: `${what} is accepted with 201 or rejected with 400 or 422, never a 5xx` }, async (t) => {
      const field = what.startsWith('surrenderPercent') ? 'surrenderPercent' : 'surrenderValue';
      const placeholder = '"__NUMBER__"';
      const template = JSON.stringify(sampleRequest({ surrender: [sampleItem({ [field]: '__NUMBER__' } as never)] }));
      const res = await sendSurrender(t, undefined, { raw: template.replace(placeholder, number) });
      // Either reading of "number" conforms: served as sent (201 with its record), or refused (400, 422).
      if (res.status === 201) expectRecord(t, res, 'accepted: the answer must then be the contract record');
      else await expectRefused(t, res);
    });
  }
});
