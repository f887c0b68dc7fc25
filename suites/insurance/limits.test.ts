/** Spec part 8: contractId 1 to 128 characters, surrender array 1 to 1000 items. */
import { describe } from 'vitest';
import { requirementTest } from '../../harness/test/suite.ts';
import { freshContractId, sampleItems, sampleRequest } from '../../harness/insurance/requests.ts';
import { expectAccepted, expectRefused, sendSurrender } from '../../harness/insurance/client.ts';

describe('insurance surrender: limits of part 8', () => {
  for (const length of [1, 128]) {
    requirementTest('INS-LIM-001', { row: `contractId of ${length} character(s) is accepted` }, async (t) => {
      const sent = sampleRequest({ contractId: freshContractId(length) });
      expectAccepted(t, await sendSurrender(t, sent), sent);
    });
  }
  for (const length of [0, 129]) {
    requirementTest('INS-LIM-002', { row: `contractId of ${length} characters is rejected with 400 or 422` }, async (t) => {
      const res = await sendSurrender(t, sampleRequest({ contractId: length === 0 ? '' : freshContractId(length) }));
      await expectRefused(t, res);
    });
  }
  for (const count of [1, 1000]) {
    requirementTest('INS-LIM-003', { row: `surrender array of ${count} item(s) is accepted` }, async (t) => {
      const sent = sampleRequest({ surrender: sampleItems(count) });
      expectAccepted(t, await sendSurrender(t, sent), sent);
    });
  }
  for (const count of [0, 1001]) {
    requirementTest('INS-LIM-004', { row: `surrender array of ${count} items is rejected with 400 or 422` }, async (t) => {
      const res = await sendSurrender(t, sampleRequest({ surrender: sampleItems(count) }));
      await expectRefused(t, res);
    });
  }
});
