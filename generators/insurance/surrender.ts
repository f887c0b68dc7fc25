/**
 * Surrender requests a backend would accept: schema-valid (schemaArbitrary) plus the business sense the
 * schema cannot say: calcPeriodFrom not after calcPeriodTo, percent 0..100 and values with two decimals
 * (x-generate hints), and a contractId that is fresh in every run, so a long-lived target never sees
 * one twice.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { SURRENDER_REQUEST, type SurrenderItem, type SurrenderRequest } from '../../harness/insurance/surrender.ts';
import { schemaArbitrary } from '../schema-arbitrary.ts';

export { SURRENDER_REQUEST, type SurrenderItem, type SurrenderRequest };

const RUN_TAG = randomBytes(3).toString('hex');
let counter = 0;

/** A contract id unique to this process and run: "PC-<run>-<n>-<suffix>", at most `length` characters. */
export function freshContractId(length?: number): string {
  const base = `PC-${RUN_TAG}-${(++counter).toString(36)}-${Date.now().toString(36)}`;
  if (length === undefined) return base;
  return length <= base.length ? base.slice(-length) : base + 'x'.repeat(length - base.length);
}

function ordered(item: SurrenderItem): SurrenderItem {
  return item.calcPeriodFrom <= item.calcPeriodTo ? item : { ...item, calcPeriodFrom: item.calcPeriodTo, calcPeriodTo: item.calcPeriodFrom };
}

/** Valid, acceptable surrender requests; the contractId is replaced with a fresh one when sent. */
export function surrenderRequest(): fc.Arbitrary<SurrenderRequest> {
  return schemaArbitrary<SurrenderRequest>(SURRENDER_REQUEST).map((r) => ({ ...r, surrender: r.surrender.map(ordered) }));
}

/** One fixed, acceptable item, for tests that vary something else. */
export function sampleItem(overrides: Partial<SurrenderItem> = {}): SurrenderItem {
  return { calcPeriodFrom: '2025-01-01', calcPeriodTo: '2025-12-31', currency: 'RUB', surrenderPercent: 87.5, surrenderValue: 125430.17, ...overrides };
}

export function sampleRequest(overrides: Partial<SurrenderRequest> = {}): SurrenderRequest {
  return { contractId: freshContractId(), productType: 'investment', surrender: [sampleItem()], updateDate: new Date().toISOString(), ...overrides };
}
