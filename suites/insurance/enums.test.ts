/** Spec 2.5 and 4.4: the currency and productType enumerations, in full and just outside. */
import { describe } from 'vitest';
import { schemaId, schemaRegistry } from '../../harness/spec/schemas.ts';
import { requirementTest } from '../../harness/test/suite.ts';
import { sampleItem, sampleRequest } from '../../harness/insurance/requests.ts';
import { expectAccepted, expectRefused, sendSurrender } from '../../harness/insurance/client.ts';

const enumOf = (id: string) => schemaRegistry().schema(schemaId(id)).enum as string[];

describe('insurance surrender: enumerations', () => {
  for (const currency of enumOf('insurance/currency')) {
    requirementTest('INS-ENM-001', { row: `currency ${currency} is accepted` }, async (t) => {
      const sent = sampleRequest({ surrender: [sampleItem({ currency })] });
      expectAccepted(t, await sendSurrender(t, sent), sent);
    });
  }
  for (const currency of ['JPY', 'XXX', '']) {
    requirementTest('INS-ENM-002', { row: `currency ${JSON.stringify(currency)} is rejected with 400 or 422` }, async (t) => {
      const res = await sendSurrender(t, sampleRequest({ surrender: [sampleItem({ currency })] }));
      await expectRefused(t, res);
    });
  }
  for (const productType of enumOf('insurance/product-type')) {
    requirementTest('INS-ENM-003', { row: `productType ${productType} is accepted` }, async (t) => {
      const sent = sampleRequest({ productType });
      expectAccepted(t, await sendSurrender(t, sent), sent);
    });
  }
  for (const productType of ['endowment', 'risk', '']) {
    requirementTest('INS-ENM-004', { row: `productType ${JSON.stringify(productType)} is rejected with 400 or 422` }, async (t) => {
      const res = await sendSurrender(t, sampleRequest({ productType }));
      await expectRefused(t, res);
    });
  }
});
