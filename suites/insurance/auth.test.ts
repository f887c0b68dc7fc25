/** Spec 5.4 and 7: authentication (401), authorization (403), X-Request-Id, the documented statuses. */
import { randomUUID } from 'node:crypto';
import { describe } from 'vitest';
import { jsonWhereBody } from '../../harness/checks/json-answer.ts';
import { requirementTest } from '../../harness/test/suite.ts';
import { credentialOf } from '../../harness/config/target.ts';
import { freshContractId, sampleItem, sampleRequest } from '../../harness/insurance/requests.ts';
import { acceptedWith201, control, expectAccepted, expectRefused, sendSurrender } from '../../harness/insurance/client.ts';
import { SURRENDER_STATUSES } from '../../harness/insurance/surrender.ts';
import { statusDocumented } from '../../harness/checks/status.ts';

describe('insurance surrender: access and headers', () => {
  requirementTest('INS-AUT-001', async (t) => {
    const res = await sendSurrender(t, sampleRequest(), { token: null });
    await expectRefused(t, res, { allowed: [401] });
  });

  for (const [what, token] of [
    ['an unknown token', `pc-invalid-${randomUUID()}`],
    ['a malformed token', 'not a token at all'],
  ] as const) {
    requirementTest('INS-AUT-002', { row: `${what} is refused with 401` }, async (t) => {
      const res = await sendSurrender(t, sampleRequest(), { token });
      await expectRefused(t, res, { allowed: [401] });
    });
  }

  requirementTest('INS-AUT-003', async (t) => {
    const token = credentialOf(t.target, 'insurance', 'tokenWithoutScope');
    const res = await sendSurrender(t, sampleRequest(), { token });
    await expectRefused(t, res, { allowed: [403] });
  });

  for (const [key, scope] of [
    ['tokenWithoutInteractionScope', 'interaction with partners'],
    ['tokenWithoutDataTransferScope', 'transfer of partner data'],
  ] as const) {
    requirementTest(
      'INS-AUT-004',
      { row: `a token with every partner scope but the one for ${scope} (services.insurance.${key}) is refused with 403` },
      async (t) => {
        const token = credentialOf(t.target, 'insurance', key);
        const res = await sendSurrender(t, sampleRequest(), { token });
        await expectRefused(t, res, { allowed: [403] });
      },
    );
  }

  requirementTest('INS-HDR-001', async (t) => {
    const requestId = randomUUID();
    const first = sampleRequest();
    expectAccepted(t, await sendSurrender(t, first, { requestId }), first, 'a valid request with an X-Request-Id');
    const other = sampleRequest();
    expectAccepted(
      t,
      await sendSurrender(t, other, { requestId: randomUUID() }),
      other,
      'the same kind of request with another X-Request-Id',
    );
    // The same X-Request-Id again, on a request that must be rejected on its own merits.
    const invalidSameId = await sendSurrender(t, sampleRequest({ contractId: freshContractId(129) }), { requestId });
    await expectRefused(t, invalidSameId, {
      note: 'an invalid request that reuses the first X-Request-Id must still be rejected',
      refusalOf: 'INS-LIM-002',
    });
    // And on a valid one, with other amounts: it must be stored as itself, not answered with the earlier contract.
    const second = sampleRequest({ surrender: [sampleItem({ surrenderPercent: 42.42, surrenderValue: 4242.42 })] });
    const validSameId = await sendSurrender(t, second, { requestId });
    expectAccepted(t, validSameId, second, 'a second valid request that reuses the first X-Request-Id, stored as itself');
  });

  requirementTest('INS-HDR-002', async (t) => {
    const sent = sampleRequest();
    expectAccepted(t, await sendSurrender(t, sent, { requestId: null }), sent, 'a valid request without X-Request-Id');
  });

  for (const [what, requestId] of [
    ['a word', 'trace-me'],
    ['a UUID without hyphens', randomUUID().replaceAll('-', '')],
    ['an empty value', ''],
  ] as const) {
    requirementTest('INS-HDR-003', { row: `a valid request whose X-Request-Id is ${what} is accepted with 201` }, async (t) => {
      const sent = sampleRequest();
      expectAccepted(t, await sendSurrender(t, sent, { requestId }), sent, `X-Request-Id ${JSON.stringify(requestId)}`);
    });
  }

  requirementTest('INS-STA-001', async (t) => {
    const cases: Array<[string, () => ReturnType<typeof sendSurrender>]> = [
      ['a valid request', () => sendSurrender(t, sampleRequest())],
      ['a request without credentials', () => sendSurrender(t, sampleRequest(), { token: null })],
      ['an unknown token', () => sendSurrender(t, sampleRequest(), { token: `pc-invalid-${randomUUID()}` })],
      ['a missing field', () => sendSurrender(t, { ...sampleRequest(), updateDate: undefined })],
      [
        'periods out of order',
        () => sendSurrender(t, sampleRequest({ surrender: [sampleItem({ calcPeriodFrom: '2025-12-31', calcPeriodTo: '2025-01-01' })] })),
      ],
      ['a truncated JSON body', () => sendSurrender(t, undefined, { raw: '{"contractId":' })],
      ['an unknown currency', () => sendSurrender(t, sampleRequest({ surrender: [sampleItem({ currency: 'JPY' })] }))],
    ];
    for (const [what, send] of cases) {
      const res = await send();
      // A valid request answered with an undocumented status instead of 201 is INS-RSP-001's defect, counted there once.
      if (what === 'a valid request' && !(SURRENDER_STATUSES as readonly number[]).includes(res.status))
        t.expectNone(acceptedWith201(res, t.id), res, what);
      t.expectNone(statusDocumented(res, SURRENDER_STATUSES, t.id), res, what);
    }
    // Documented statuses alone prove nothing (401 to everything is documented): the valid request must have been served.
    await control(t);
  });

  requirementTest('INS-CTY-001', { row: 'a valid request and four that must be refused: every answer with a body is JSON' }, async (t) => {
    const valid = await sendSurrender(t, sampleRequest());
    // The 201's own body must be labelled JSON; a served control is what makes the refusals below count.
    t.expectNone(jsonWhereBody(valid, t.id), valid, 'a valid request: its 201 carries the contract record');
    await control(t);
    const refusals: Array<[string, () => ReturnType<typeof sendSurrender>]> = [
      ['a request without credentials', () => sendSurrender(t, sampleRequest(), { token: null })],
      ['a request without surrender', () => sendSurrender(t, { ...sampleRequest(), surrender: undefined })],
      ['a contractId of 129 characters', () => sendSurrender(t, sampleRequest({ contractId: freshContractId(129) }))],
      ['a truncated JSON body', () => sendSurrender(t, undefined, { raw: '{"contractId":' })],
    ];
    for (const [what, send] of refusals) {
      const res = await send();
      t.expectNone(jsonWhereBody(res, t.id), res, what);
    }
  });
});
