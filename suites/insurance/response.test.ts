/** Spec 2.5 and 4.4: what a valid request gets back. */
import { describe } from 'vitest';
import { listedFieldsCarried, storedRecordsConsistent } from '../../harness/insurance/checks.ts';
import { Tally } from '../../harness/checks/judged.ts';
import { requirementTest } from '../../harness/test/suite.ts';
import { surrenderRequest } from '../../generators/insurance/surrender.ts';
import { freshContractId, sampleItem, sampleItems, sampleRequest } from '../../harness/insurance/requests.ts';
import { expectAccepted, expectRecord, sendSurrender } from '../../harness/insurance/client.ts';

/** The moment written in Moscow time (+03:00), to the millisecond. */
const inMoscow = (date: Date) => `${new Date(date.getTime() + 3 * 3600_000).toISOString().slice(0, 23)}+03:00`;

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
      // An offset of its own, so that a store that drops it, or echoes another moment, shows.
      updateDate: inMoscow(new Date()),
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
    expectAccepted(t, await sendSurrender(t, sent), sent);
  });

  requirementTest('INS-RSP-003', async (t) => {
    const [first, second, third] = sampleItems(3);
    const sent = sampleRequest({ surrender: [first, { ...second, currency: 'CNY' }, { ...third, currency: 'GBP' }] });
    const res = await sendSurrender(t, sent);
    expectAccepted(t, res, sent);
    const tally = new Tally();
    t.expectNone(tally.add(storedRecordsConsistent(sent, res, t.id)), res);
    const none = tally.nothing('the stored records carry no contractId, id, or createdAt with updatedAt');
    if (none) throw none;
  });

  requirementTest('INS-GEN-001', async (t) => {
    await t.property(surrenderRequest(), async (generated) => {
      const sent = { ...generated, contractId: freshContractId() };
      const res = await sendSurrender(t, sent);
      expectAccepted(t, res, sent, `generated request ${JSON.stringify(sent).slice(0, 300)}`);
    });
  });

  requirementTest('INS-RSP-004', async (t) => {
    const sent = sampleRequest({ surrender: sampleItems(2) });
    const res = await sendSurrender(t, sent);
    expectAccepted(t, res, sent);
    t.expectNone(listedFieldsCarried(res.json, t.id), res);
  });
});
