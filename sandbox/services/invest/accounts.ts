/**
 * Development accounts and their generated portfolios. Each account's holdings come from a seeded
 * generator, so one account answers the same portfolio on every request (totals in different
 * currencies then describe the same holdings), while the values still exercise what matters: prices
 * with nine decimals, accrued coupon (NKD), negative yields, a short futures position, a margin debt,
 * instruments in USD, virtual positions, and an account with nothing in it.
 */
import { createHash } from 'node:crypto';
import { type Currency, dec, NANO, times } from './money.ts';

export type InstrumentType = 'share' | 'bond' | 'etf' | 'currency' | 'futures' | 'option' | 'sp';

export interface Holding {
  figi: string;
  ticker: string;
  instrumentType: InstrumentType;
  positionUid: string;
  instrumentUid: string;
  /** Currency of the prices; a position's value is (price + nkd) × quantity in it. */
  currency: Currency;
  lot: bigint;
  quantity: bigint;
  blockedLots: bigint;
  price: bigint;
  averagePrice: bigint;
  averagePriceFifo: bigint;
  pricePt: bigint;
  nkd: bigint;
  varMargin: bigint;
  dailyYield: bigint;
}

export interface VirtualHolding extends Holding {
  expireDate: Date;
}

export interface Account {
  id: string;
  owner: string;
  holdings: Holding[];
  virtual: VirtualHolding[];
}

interface Template {
  figi: string;
  ticker: string;
  instrumentType: InstrumentType;
  currency: Currency;
  lot: number;
  /** Price range in the instrument's currency and the number of decimals drawn. */
  price: [number, number, number];
  nkd?: [number, number];
}

const CATALOG: Record<string, Template> = {
  SBER: { figi: 'BBG004730N88', ticker: 'SBER', instrumentType: 'share', currency: 'rub', lot: 10, price: [250, 320, 2] },
  GAZP: { figi: 'BBG004730RP0', ticker: 'GAZP', instrumentType: 'share', currency: 'rub', lot: 10, price: [120, 180, 2] },
  OFZ: {
    figi: 'BBG00XH4W3N3',
    ticker: 'SU26238RMFS4',
    instrumentType: 'bond',
    currency: 'rub',
    lot: 1,
    price: [560, 990, 4],
    nkd: [0, 40],
  },
  EUROBOND: {
    figi: 'BBG00Z3SHRX6',
    ticker: 'RU000A1043Z7',
    instrumentType: 'bond',
    currency: 'usd',
    lot: 1,
    price: [80, 105, 9],
    nkd: [0, 3],
  },
  TMOS: { figi: 'TCS60A101X76', ticker: 'TMOS', instrumentType: 'etf', currency: 'rub', lot: 1, price: [5, 8, 4] },
  RUB: { figi: 'RUB000UTSTOM', ticker: 'RUB000UTSTOM', instrumentType: 'currency', currency: 'rub', lot: 1, price: [1, 1, 0] },
  USD: { figi: 'BBG0013HGFT4', ticker: 'USD000UTSTOM', instrumentType: 'currency', currency: 'usd', lot: 1, price: [1, 1, 0] },
  SiZ: { figi: 'FUTSI1225000', ticker: 'SiZ5', instrumentType: 'futures', currency: 'rub', lot: 1, price: [90000, 95000, 0] },
  BRF: { figi: 'FUTBR0126000', ticker: 'BRF6', instrumentType: 'futures', currency: 'rub', lot: 1, price: [5500, 7200, 2] },
  SBERC: { figi: 'TCS7MRA0P1N4', ticker: 'SR300CL5', instrumentType: 'option', currency: 'rub', lot: 1, price: [1, 60, 2] },
  SP: { figi: 'TCS00A105NT5', ticker: 'RU000A105NT5', instrumentType: 'sp', currency: 'rub', lot: 1, price: [950, 1050, 2] },
};

/** mulberry32: a small seeded generator, enough for fixtures. */
function generator(seed: string): () => number {
  let a = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function uuidOf(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A decimal drawn in [min, max] with `decimals` places, as nanos. */
function draw(random: () => number, [min, max, decimals]: [number, number, number]): bigint {
  const scale = 10 ** decimals;
  const value = Math.round((min + random() * (max - min)) * scale);
  return dec((value / scale).toFixed(decimals));
}

/** One holding: `quantity` in pieces (negative for a short position). */
function holding(accountId: string, key: string, quantity: string, random: () => number): Holding {
  const t = CATALOG[key];
  const price = draw(random, t.price);
  const drift = (range: number) => (t.instrumentType === 'currency' ? NANO : dec((1 + (random() - 0.5) * range).toFixed(6)));
  const averagePrice = times(price, drift(0.3));
  const qty = dec(quantity);
  const nkd = t.nkd ? draw(random, [t.nkd[0], t.nkd[1], 2]) : 0n;
  return {
    figi: t.figi,
    ticker: t.ticker,
    instrumentType: t.instrumentType,
    positionUid: uuidOf(`${accountId}/${key}/position`),
    instrumentUid: uuidOf(`${key}/instrument`),
    currency: t.currency,
    lot: BigInt(t.lot),
    quantity: qty,
    blockedLots: t.instrumentType === 'share' && random() < 0.5 ? NANO : 0n,
    price,
    averagePrice,
    averagePriceFifo: times(averagePrice, drift(0.02)),
    pricePt: t.instrumentType === 'futures' ? price : 0n,
    nkd,
    varMargin: t.instrumentType === 'futures' ? draw(random, [-2500, 2500, 2]) : 0n,
    dailyYield: t.instrumentType === 'currency' ? 0n : times(times(price + nkd, qty), draw(random, [-0.03, 0.03, 4])),
  };
}

interface AccountPlan {
  id: string;
  owner: string;
  holdings: Array<[string, string]>;
  virtual?: Array<[string, string, number]>;
}

function build(plan: AccountPlan, now: Date): Account {
  const random = generator(plan.id);
  const holdings = plan.holdings.map(([key, quantity]) => holding(plan.id, key, quantity, random));
  const virtual = (plan.virtual ?? []).map(([key, quantity, days]) => {
    const expireDate = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days, 21, 0, 0));
    return { ...holding(plan.id, `${key}`, quantity, random), positionUid: uuidOf(`${plan.id}/${key}/virtual`), expireDate };
  });
  return { id: plan.id, owner: plan.owner, holdings, virtual };
}

export const ACCOUNT_IDS = { main: '2000000001', income: '2000000002', empty: '2000000003', otherUser: '2000000101', burst: '2000000201' };

/** The development accounts; `owners` maps each account to the token that may read it. */
export function developmentAccounts(tokens: { main: string; other: string; burst: string }, now = new Date()): Map<string, Account> {
  const plans: AccountPlan[] = [
    {
      id: ACCOUNT_IDS.main,
      owner: tokens.main,
      holdings: [
        ['SBER', '120'],
        ['GAZP', '30'],
        ['OFZ', '15'],
        ['EUROBOND', '7'],
        ['TMOS', '1503'],
        ['RUB', '48211.37'],
        ['USD', '312.45'],
        ['SiZ', '2'],
        ['BRF', '-3'],
        ['SBERC', '5'],
        ['SP', '4'],
      ],
      virtual: [
        ['SBER', '10', 30],
        ['TMOS', '250', 90],
      ],
    },
    {
      id: ACCOUNT_IDS.income,
      owner: tokens.main,
      holdings: [
        ['OFZ', '40'],
        ['EUROBOND', '12'],
        ['GAZP', '10'],
        ['RUB', '-15000.5'],
        ['USD', '1200.000000001'],
      ],
    },
    { id: ACCOUNT_IDS.empty, owner: tokens.main, holdings: [] },
    {
      id: ACCOUNT_IDS.otherUser,
      owner: tokens.other,
      holdings: [
        ['SBER', '10'],
        ['RUB', '1000'],
      ],
    },
    { id: ACCOUNT_IDS.burst, owner: tokens.burst, holdings: [['RUB', '1']] },
  ];
  return new Map(plans.map((p) => [p.id, build(p, now)]));
}
