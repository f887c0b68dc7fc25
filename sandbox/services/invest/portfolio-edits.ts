/**
 * Small edits of a portfolio answer, for the faults that write it carelessly: every {units, nano} pair
 * rewritten, a date-time moved to Moscow time, totals relabelled. The portfolio itself (portfolio.ts)
 * is always written canonically; these edit a copy of it.
 */
import { amountOf, NANO, pairOf, type Pair } from './money.ts';
import { CLASS_TOTALS } from './portfolio.ts';

export type Kind = 'money' | 'quotation';
type Node = Record<string, unknown>;

/** Calls `edit` on every {units, nano} pair of the body (a MoneyValue carries a currency; a Quotation does not). */
export function eachPair(node: unknown, edit: (pair: Pair, kind: Kind) => void): void {
  if (Array.isArray(node)) node.forEach((n) => eachPair(n, edit));
  else if (node !== null && typeof node === 'object') {
    const o = node as Node;
    if (typeof o.units === 'string' && typeof o.nano === 'number') edit(o as unknown as Pair, 'currency' in o ? 'money' : 'quotation');
    else Object.values(o).forEach((v) => eachPair(v, edit));
  }
}

/** Rewrites a pair in place. */
export function setPair(pair: Pair, units: bigint | string, nano: number): void {
  pair.units = String(units);
  pair.nano = nano;
}

/** The amount as a decimal text: -12.5 for units -12, nano -500000000. */
export function decimalText(amount: bigint): string {
  const negative = amount < 0n;
  const abs = negative ? -amount : amount;
  const fraction = (abs % NANO).toString().padStart(9, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${abs / NANO}${fraction ? `.${fraction}` : ''}`;
}

/** A UTC date-time written as the same instant in Moscow time: 2026-12-21T21:00:00Z becomes 2026-12-22T00:00:00+03:00. */
export function moscowTime(utc: string): string {
  return `${new Date(Date.parse(utc) + 3 * 3600_000).toISOString().slice(0, 19)}+03:00`;
}

/** The names of the totals: the seven class totals and totalAmountPortfolio. */
export const TOTALS = [...CLASS_TOTALS, 'totalAmountPortfolio'];

/** A total less another, in place: both canonical pairs of one currency. */
export function subtract(total: Pair, part: Pair): void {
  Object.assign(total, pairOf(amountOf(total) - amountOf(part)));
}
