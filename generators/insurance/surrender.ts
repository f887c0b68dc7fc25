/**
 * Surrender requests a backend would accept: schema-valid (schemaArbitrary) plus the business sense the
 * schema cannot say: calcPeriodFrom not after calcPeriodTo, the items' periods apart from one another
 * (a target may refuse overlapping periods as data it cannot process, 422), percent 0..100 and values
 * with two decimals (x-generate hints), and a contractId that is fresh in every run, so a long-lived
 * target never sees one twice. The fixed sample request the client's control sends lives in
 * harness/insurance/requests.ts.
 */
import type fc from 'fast-check';
import { SURRENDER_REQUEST, type SurrenderItem, type SurrenderRequest } from '../../harness/insurance/surrender.ts';
import { schemaArbitrary } from '../schema-arbitrary.ts';

const DAY_MS = 86_400_000;
const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

function ordered(item: SurrenderItem): SurrenderItem {
  return item.calcPeriodFrom <= item.calcPeriodTo
    ? item
    : { ...item, calcPeriodFrom: item.calcPeriodTo, calcPeriodTo: item.calcPeriodFrom };
}

/** The items with each period moved, where it overlaps the one before it, to start the day after that one ends. */
function apart(items: SurrenderItem[]): SurrenderItem[] {
  const out: SurrenderItem[] = [];
  for (const item of items.map(ordered)) {
    const before = out.at(-1)?.calcPeriodTo;
    if (before === undefined || item.calcPeriodFrom > before) out.push(item);
    else {
      const from = dayAfter(before);
      out.push({ ...item, calcPeriodFrom: from, calcPeriodTo: item.calcPeriodTo < from ? from : item.calcPeriodTo });
    }
  }
  return out;
}

/** Valid, acceptable surrender requests; the contractId is replaced with a fresh one when sent. */
export function surrenderRequest(): fc.Arbitrary<SurrenderRequest> {
  return schemaArbitrary<SurrenderRequest>(SURRENDER_REQUEST).map((r) => ({ ...r, surrender: apart(r.surrender) }));
}
