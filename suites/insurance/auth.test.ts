/** Spec 5.4 and 7: authentication (401), authorization (403), X-Request-Id, the documented statuses. */
import { randomUUID } from 'node:crypto';
import { describe } from 'vitest';
import { failure } from '../../harness/checks/failure.ts';
import { rejectedWith, statusDocumented, statusIn } from '../../harness/checks/status.ts';
import { requirementTest } from '../../harness/suite.ts';
import { credentialOf } from '../../harness/target.ts';
import { freshContractId, sampleItem, sampleRequest } from '../../generators/insurance.ts';
import { DOCUMENTED, REJECTED, sendSurrender } from './_surrender.ts';

describe('insurance surrender: access and headers', () => {
  requirementTest('INS-AUT-001', async (t) => {
    const res = await sendSurrender(t, sampleRequest(), { token: null });
    t.expectNone(statusIn(res, [401], t.id), res);
  });

  for (const [what, token] of [
    ['an unknown token', `pc-invalid-${randomUUID()}`],
    ['a malformed token', 'not a token at all'],
  ] as const) {
    requirementTest('INS-AUT-002', { row: `${what} is refused with 401` }, async (t) => {
      const res = await sendSurrender(t, sampleRequest(), { token });
      t.expectNone(statusIn(res, [401], t.id), res);
    });
  }

  requirementTest('INS-AUT-003', async (t) => {
    const token = credentialOf(t.target, 'insurance', 'tokenWithoutScope');
    const res = await sendSurrender(t, sampleRequest(), { token });
    t.expectNone(statusIn(res, [403], t.id), res);
  });

  requirementTest('INS-HDR-001', async (t) => {
    const requestId = randomUUID();
    const withId = await sendSurrender(t, sampleRequest(), { requestId });
    const withOther = await sendSurrender(t, sampleRequest(), { requestId: randomUUID() });
    t.expectNone(statusIn(withId, [201], t.id), withId, 'a valid request with an X-Request-Id');
    t.expectNone(statusIn(withOther, [201], t.id), withOther, 'the same kind of request with another X-Request-Id');
    // The same X-Request-Id again, on a request that must be rejected on its own merits.
    const invalidSameId = await sendSurrender(t, sampleRequest({ contractId: freshContractId(129) }), { requestId });
    t.expectNone(rejectedWith(invalidSameId, REJECTED, t.id), invalidSameId, 'an invalid request that reuses the first X-Request-Id must still be rejected');
    // And on a valid one: it must be stored as itself, not answered with the earlier contract.
    const second = sampleRequest();
    const validSameId = await sendSurrender(t, second, { requestId });
    const echoed = (validSameId.json as { contractId?: unknown } | undefined)?.contractId;
    t.expectNone(
      [...statusIn(validSameId, [201], t.id), ...(echoed === second.contractId ? [] : [failure(t.id, `contractId ${second.contractId}`, JSON.stringify(echoed))])],
      validSameId,
      'a second valid request that reuses the first X-Request-Id',
    );
  });

  requirementTest('INS-STA-001', async (t) => {
    const cases: Array<[string, () => ReturnType<typeof sendSurrender>]> = [
      ['a valid request', () => sendSurrender(t, sampleRequest())],
      ['a request without credentials', () => sendSurrender(t, sampleRequest(), { token: null })],
      ['an unknown token', () => sendSurrender(t, sampleRequest(), { token: `pc-invalid-${randomUUID()}` })],
      ['a missing field', () => sendSurrender(t, { ...sampleRequest(), updateDate: undefined })],
      ['periods out of order', () => sendSurrender(t, sampleRequest({ surrender: [sampleItem({ calcPeriodFrom: '2025-12-31', calcPeriodTo: '2025-01-01' })] }))],
      ['a truncated JSON body', () => sendSurrender(t, undefined, { raw: '{"contractId":' })],
      ['an unknown currency', () => sendSurrender(t, sampleRequest({ surrender: [sampleItem({ currency: 'JPY' })] }))],
    ];
    for (const [what, send] of cases) {
      const res = await send();
      t.expectNone(statusDocumented(res, DOCUMENTED, t.id), res, what);
    }
  });
});
