/** Spec 2.5 and 4.4: what a valid request gets back. */
import { describe } from 'vitest';
import { echoesRequest, storedRecordsConsistent } from '../../harness/insurance/checks.ts';
import { Tally } from '../../harness/checks/judged.ts';
import { requirementTest } from '../../harness/suite.ts';
import { surrenderRequest } from '../../generators/insurance/surrender.ts';
import { freshContractId, sampleItem, sampleRequest } from '../../harness/insurance/requests.ts';
import { expectAccepted, expectRecord, sendSurrender } from '../../harness/insurance/client.ts';

describe('insurance surrender: the 201 answer', () => {
  requirementTest('INS-RSP-001', async (t) => {
    const sent = sampleRequest({
      surrender: [
        sampleItem(),
        sampleItem({
          currency: 'USD',
          calcPeriodFrom: '2026-01-01',
          calcPeriodTo: '2026-06-30',
          surrenderPercent: 12.25,
          surrenderValue: 9.99,
        }),
      ],
    });
    const res = await sendSurrender(t, sent);
    expectRecord(t, res);
  });

  requirementTest('INS-RSP-002', async (t) => {
    const sent = sampleRequest({
      productType: 'universal',
      surrender: [
        sampleItem(),
        sampleItem({
          currency: 'EUR',
          surrenderPercent: 0.5,
          surrenderValue: 1000.01,
          calcPeriodFrom: '2024-03-01',
          calcPeriodTo: '2024-03-01',
        }),
      ],
    });
    const res = await sendSurrender(t, sent);
    expectAccepted(t, res);
    const tally = new Tally();
    t.expectNone(tally.add(echoesRequest(sent, res.json, t.id)), res);
    const none = tally.nothing(
      "the contract record carries none of the fields sent (contractId, productType, updateDate, the items' periods, currencies, percents and values)",
    );
    if (none) throw none;
  });

  requirementTest('INS-RSP-003', async (t) => {
    const sent = sampleRequest({ surrender: [sampleItem(), sampleItem({ currency: 'CNY' }), sampleItem({ currency: 'GBP' })] });
    const res = await sendSurrender(t, sent);
    expectAccepted(t, res);
    const tally = new Tally();
    t.expectNone(tally.add(storedRecordsConsistent(sent, res.json, t.id)), res);
    const none = tally.nothing('the stored records carry no contractId, id, or createdAt with updatedAt');
    if (none) throw none;
  });

  requirementTest('INS-GEN-001', async (t) => {
    await t.property(surrenderRequest(), async (generated) => {
      const sent = { ...generated, contractId: freshContractId() };
      const res = await sendSurrender(t, sent);
      expectAccepted(t, res, `generated request ${JSON.stringify(sent).slice(0, 300)}`);
    });
  });
});
