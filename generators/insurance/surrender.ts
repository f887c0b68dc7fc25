/**
 * Surrender requests a backend would accept: schema-valid (schemaArbitrary) plus the business sense the
 * schema cannot say: calcPeriodFrom not after calcPeriodTo, percent 0..100 and values with two decimals
 * (x-generate hints), and a contractId that is fresh in every run, so a long-lived target never sees
 * one twice. The fixed sample request the client's control sends lives in harness/insurance/requests.ts.
 */
import type fc from 'fast-check';
import { SURRENDER_REQUEST, type SurrenderItem, type SurrenderRequest } from '../../harness/insurance/surrender.ts';
import { schemaArbitrary } from '../schema-arbitrary.ts';

function ordered(item: SurrenderItem): SurrenderItem {
  return item.calcPeriodFrom <= item.calcPeriodTo
    ? item
    : { ...item, calcPeriodFrom: item.calcPeriodTo, calcPeriodTo: item.calcPeriodFrom };
}

/** Valid, acceptable surrender requests; the contractId is replaced with a fresh one when sent. */
export function surrenderRequest(): fc.Arbitrary<SurrenderRequest> {
  return schemaArbitrary<SurrenderRequest>(SURRENDER_REQUEST).map((r) => ({ ...r, surrender: r.surrender.map(ordered) }));
}
