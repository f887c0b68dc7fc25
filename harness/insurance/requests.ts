/**
 * The fixed, acceptable surrender request the insurance client sends as its control (and the suites
 * vary one thing of), with a contractId fresh in every run, so a long-lived target never sees one twice.
 */
import { randomBytes } from 'node:crypto';
import type { SurrenderItem, SurrenderRequest } from './surrender.ts';

const RUN_TAG = randomBytes(3).toString('hex');
let counter = 0;

/** A contract id unique to this process and run: "PC-<run>-<n>-<suffix>", at most `length` characters. */
export function freshContractId(length?: number): string {
  const base = `PC-${RUN_TAG}-${(++counter).toString(36)}-${Date.now().toString(36)}`;
  if (length === undefined) return base;
  return length <= base.length ? base.slice(-length) : base + 'x'.repeat(length - base.length);
}

/** One fixed, acceptable item, for tests that vary something else. */
export function sampleItem(overrides: Partial<SurrenderItem> = {}): SurrenderItem {
  return {
    calcPeriodFrom: '2025-01-01',
    calcPeriodTo: '2025-12-31',
    currency: 'RUB',
    surrenderPercent: 87.5,
    surrenderValue: 125430.17,
    ...overrides,
  };
}

const DAY_MS = 86_400_000;

/**
 * `count` acceptable items whose calculation periods are consecutive days from 2025-01-01, so that no
 * two share or overlap a period (a target may refuse overlapping periods as data it cannot process, 422),
 * each with a value of its own.
 */
export function sampleItems(count: number): SurrenderItem[] {
  return Array.from({ length: count }, (_, i) => {
    const day = new Date(Date.UTC(2025, 0, 1) + i * DAY_MS).toISOString().slice(0, 10);
    return sampleItem({ calcPeriodFrom: day, calcPeriodTo: day, surrenderValue: 100 + i / 100 });
  });
}

export function sampleRequest(overrides: Partial<SurrenderRequest> = {}): SurrenderRequest {
  return {
    contractId: freshContractId(),
    productType: 'investment',
    surrender: [sampleItem()],
    updateDate: new Date().toISOString(),
    ...overrides,
  };
}
