/**
 * The portfolio answer of spec 2.4 for one account in one currency. Class totals are the sum of each
 * position's value ((price + NKD) × quantity) converted to the requested currency and rounded to the
 * nano one position at a time, so totalAmountPortfolio is exactly the sum of the seven class totals.
 * Virtual positions are not owned yet and count in no total. dailyYield is in rubles, as the vendor's
 * contract describes it.
 */
import type { Account, Holding, InstrumentType, VirtualHolding } from './accounts.ts';
import { type Currency, convert, money, mulDiv, NANO, quote, times } from './money.ts';

const TOTAL_OF: Record<InstrumentType, string> = {
  share: 'totalAmountShares',
  bond: 'totalAmountBonds',
  etf: 'totalAmountEtf',
  currency: 'totalAmountCurrencies',
  futures: 'totalAmountFutures',
  sp: 'totalAmountSp',
  option: 'totalAmountOptions',
};
export const CLASS_TOTALS = Object.values(TOTAL_OF);

const holdingValue = (h: Holding) => times(h.price + h.nkd, h.quantity);
const costOf = (h: Holding) => times(h.averagePrice, h.quantity);
const percent = (part: bigint, whole: bigint) => (whole === 0n ? 0n : mulDiv(part, 100n * NANO, whole));

/** RFC 3339 in UTC, without milliseconds: 2026-12-21T21:00:00Z. */
const utcText = (date: Date) => date.toISOString().replace('.000Z', 'Z');

/** The fields a position and a virtual position share (spec 2.4). */
function common(h: Holding) {
  return {
    figi: h.figi,
    ticker: h.ticker,
    instrumentType: h.instrumentType,
    positionUid: h.positionUid,
    instrumentUid: h.instrumentUid,
    quantity: quote(h.quantity),
    expectedYield: quote(times(h.price - h.averagePrice, h.quantity)),
    expectedYieldFifo: quote(times(h.price - h.averagePriceFifo, h.quantity)),
    averagePositionPrice: money(h.averagePrice, h.currency),
    averagePositionPriceFifo: money(h.averagePriceFifo, h.currency),
    currentPrice: money(h.price, h.currency),
    dailyYield: money(h.dailyYield, h.currency),
  };
}

function position(h: Holding) {
  return {
    ...common(h),
    blocked: false,
    quantityLots: quote(h.quantity / h.lot),
    blockedLots: quote(h.blockedLots),
    averagePositionPricePt: quote(h.pricePt),
    currentNkd: money(h.nkd, h.currency),
    varMargin: money(h.varMargin, 'rub'),
  };
}

const virtualPosition = (h: VirtualHolding) => ({ ...common(h), expireDate: utcText(h.expireDate) });

/** The portfolio of `account` with its totals in `currency`. */
export function portfolioOf(account: Account, currency: Currency): Record<string, unknown> {
  const totals = new Map<string, bigint>(CLASS_TOTALS.map((name) => [name, 0n]));
  for (const h of account.holdings) {
    const name = TOTAL_OF[h.instrumentType];
    totals.set(name, totals.get(name)! + convert(holdingValue(h), h.currency, currency));
  }
  const portfolioTotal = [...totals.values()].reduce((sum, amount) => sum + amount, 0n);
  const cost = account.holdings.reduce((sum, h) => sum + convert(costOf(h), h.currency, currency), 0n);
  const dailyRub = account.holdings.reduce((sum, h) => sum + convert(h.dailyYield, h.currency, 'rub'), 0n);
  const portfolioRub = account.holdings.reduce((sum, h) => sum + convert(holdingValue(h), h.currency, 'rub'), 0n);

  const body: Record<string, unknown> = {};
  for (const [name, amount] of totals) body[name] = money(amount, currency);
  body.totalAmountPortfolio = money(portfolioTotal, currency);
  body.expectedYield = quote(percent(portfolioTotal - cost, cost));
  body.positions = account.holdings.map(position);
  body.accountId = account.id;
  body.virtualPositions = account.virtual.map(virtualPosition);
  body.dailyYield = money(dailyRub, 'rub');
  body.dailyYieldRelative = quote(percent(dailyRub, portfolioRub - dailyRub));
  return body;
}
