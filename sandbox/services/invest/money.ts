/**
 * The sandbox's own exact money arithmetic (it never imports the harness): amounts are bigint nanos,
 * rounding is half away from zero, and `Render` writes an amount as the {units, nano} pair, which is
 * where the value-rendering faults live.
 */
import type { FaultSet } from '../../faults/types.ts';

export const NANO = 1_000_000_000n;
export type Currency = 'rub' | 'usd' | 'eur';
export const CURRENCIES: readonly Currency[] = ['rub', 'usd', 'eur'];

/** Fixed development rates: rubles per unit, in nanos. */
const RUB_PER_UNIT: Record<Currency, bigint> = { rub: NANO, usd: 92_451_200_000n, eur: 100_187_500_000n };

/** "12.34" as nanos. */
export function dec(text: string): bigint {
  const m = /^(-)?(\d+)(?:\.(\d{1,9}))?$/.exec(text);
  if (!m) throw new Error(`sandbox: bad decimal literal ${text}`);
  const magnitude = BigInt(m[2]) * NANO + BigInt((m[3] ?? '').padEnd(9, '0'));
  return m[1] ? -magnitude : magnitude;
}

/** round(a · b / c), half away from zero. */
export function mulDiv(a: bigint, b: bigint, c: bigint): bigint {
  const n = a * b;
  const negative = n < 0n !== c < 0n;
  const q = (n < 0n ? -n : n) / (c < 0n ? -c : c);
  const r = (n < 0n ? -n : n) % (c < 0n ? -c : c);
  const rounded = 2n * r >= (c < 0n ? -c : c) ? q + 1n : q;
  return negative ? -rounded : rounded;
}

/** Product of two amounts (a price times a quantity). */
export const times = (a: bigint, b: bigint) => mulDiv(a, b, NANO);

export function convert(amount: bigint, from: Currency, to: Currency): bigint {
  return from === to ? amount : mulDiv(amount, RUB_PER_UNIT[from], RUB_PER_UNIT[to]);
}

export interface Pair {
  units: string;
  nano: number;
}

/** Writes amounts as {units, nano}: canonical unless a rendering fault is on. */
export class Render {
  constructor(private readonly faults: FaultSet) {}

  pair(amount: bigint, kind: 'money' | 'quotation'): Pair {
    if (this.faults.has('inv-nano-overflow') && amount > 0n && amount % NANO === 0n) return { units: String(amount / NANO - 1n), nano: 1_000_000_000 };
    if (this.faults.has('inv-opposite-signs') && amount < 0n && amount % NANO !== 0n) {
      const floor = amount / NANO - 1n;
      return { units: String(floor), nano: Number(amount - floor * NANO) };
    }
    const units = amount / NANO;
    const nano = Number(amount % NANO) || 0;
    if (kind === 'quotation' && units < 0n && this.faults.has('inv-units-uint64-wrap')) return { units: String(2n ** 64n + units), nano };
    return { units: String(units), nano };
  }

  money(amount: bigint, currency: string): Pair & { currency: string } {
    if (this.faults.has('inv-units-decimal') && amount % NANO !== 0n) return { currency, units: decimalText(amount), nano: 0 };
    return { currency, ...this.pair(amount, 'money') };
  }

  quote(amount: bigint): Pair {
    return this.pair(amount, 'quotation');
  }
}

function decimalText(amount: bigint): string {
  const negative = amount < 0n;
  const abs = negative ? -amount : amount;
  const fraction = (abs % NANO).toString().padStart(9, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${abs / NANO}${fraction ? `.${fraction}` : ''}`;
}
