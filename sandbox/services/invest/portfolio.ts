/**
 * The portfolio answer of spec 2.4 for one account in one currency. Class totals are the sum of each
 * position's value ((price + NKD) × quantity) converted to the requested currency and rounded to the
 * nano one position at a time, so totalAmountPortfolio is exactly the sum of the seven class totals.
 * Virtual positions are not owned yet and count in no total. dailyYield is in rubles, as the vendor's
 * contract describes it.
 */
import type { FaultSet } from '../../faults/types.ts';
import type { Account, Holding, InstrumentType, VirtualHolding } from './accounts.ts';
import { type Currency, convert, mulDiv, NANO, Render, times } from './money.ts';

const TOTAL_OF: Record<InstrumentType, string> = {
  share: 'totalAmountShares',
  bond: 'totalAmountBonds',
  etf: 'totalAmountEtf',
  currency: 'totalAmountCurrencies',
  futures: 'totalAmountFutures',
  sp: 'totalAmountSp',
  option: 'totalAmountOptions',
};
const CLASS_TOTALS = Object.values(TOTAL_OF);

const valueOf = (h: Holding) => times(h.price + h.nkd, h.quantity);
const costOf = (h: Holding) => times(h.averagePrice, h.quantity);
const percent = (part: bigint, whole: bigint) => (whole === 0n ? 0n : mulDiv(part, 100n * NANO, whole));

function utcText(date: Date, faults: FaultSet): string {
  if (!faults.has('inv-virtual-expire-local')) return date.toISOString().replace('.000Z', 'Z');
  const moscow = new Date(date.getTime() + 3 * 3600_000);
  return `${moscow.toISOString().slice(0, 19)}+03:00`;
}

/** The fields a position and a virtual position share (spec 2.4). */
function common(h: Holding, r: Render) {
  return {
    figi: h.figi,
    ticker: h.ticker,
    instrumentType: h.instrumentType,
    positionUid: h.positionUid,
    instrumentUid: h.instrumentUid,
    quantity: r.quote(h.quantity),
    expectedYield: r.quote(times(h.price - h.averagePrice, h.quantity)),
    expectedYieldFifo: r.quote(times(h.price - h.averagePriceFifo, h.quantity)),
    averagePositionPrice: r.money(h.averagePrice, h.currency),
    averagePositionPriceFifo: r.money(h.averagePriceFifo, h.currency),
    currentPrice: r.money(h.price, h.currency),
    dailyYield: r.money(h.dailyYield, h.currency),
  };
}

function position(h: Holding, r: Render, blockedAsText: boolean) {
  return {
    ...common(h, r),
    blocked: blockedAsText ? 'false' : false,
    quantityLots: r.quote(h.quantity / h.lot),
    blockedLots: r.quote(h.blockedLots),
    averagePositionPricePt: r.quote(h.pricePt),
    currentNkd: r.money(h.nkd, h.currency),
    varMargin: r.money(h.varMargin, 'rub'),
  };
}

const virtualPosition = (h: VirtualHolding, r: Render, faults: FaultSet) => ({ ...common(h, r), expireDate: utcText(h.expireDate, faults) });

/** `currency` is what the totals are computed in; `label` what they are written as (they differ only under a fault). */
export function portfolioOf(account: Account, requested: Currency, faults: FaultSet): Record<string, unknown> {
  const r = new Render(faults);
  const relabelled = faults.has('inv-currency-relabelled');
  const computeIn: Currency = relabelled ? 'rub' : requested;
  const totals = new Map<string, { amount: bigint; currency: Currency }>(CLASS_TOTALS.map((name) => [name, { amount: 0n, currency: requested }]));
  for (const h of account.holdings) {
    const name = TOTAL_OF[h.instrumentType];
    const stuckInRub = name === 'totalAmountBonds' && requested !== 'rub' && faults.has('inv-total-wrong-currency');
    const total = totals.get(name)!;
    total.currency = stuckInRub ? 'rub' : requested;
    total.amount += convert(valueOf(h), h.currency, stuckInRub ? 'rub' : computeIn);
  }
  const included = CLASS_TOTALS.filter((name) => !(name === 'totalAmountOptions' && faults.has('inv-portfolio-total-off')));
  const portfolioTotal = included.reduce((sum, name) => sum + totals.get(name)!.amount, 0n);
  const cost = account.holdings.reduce((sum, h) => sum + convert(costOf(h), h.currency, computeIn), 0n);
  const dailyRub = account.holdings.reduce((sum, h) => sum + convert(h.dailyYield, h.currency, 'rub'), 0n);
  const portfolioRub = account.holdings.reduce((sum, h) => sum + convert(valueOf(h), h.currency, 'rub'), 0n);

  const body: Record<string, unknown> = {};
  for (const [name, total] of totals) body[name] = r.money(total.amount, total.currency);
  body.totalAmountPortfolio = r.money(portfolioTotal, requested);
  body.expectedYield = r.quote(percent(portfolioTotal - cost, cost));
  const blockedAsText = requested !== 'rub' && faults.has('inv-blocked-text-in-foreign-currency');
  body.positions = account.holdings.map((h) => position(h, r, blockedAsText));
  body.accountId = account.id;
  body.virtualPositions = account.virtual.map((h) => virtualPosition(h, r, faults));
  body.dailyYield = r.money(dailyRub, 'rub');
  body.dailyYieldRelative = r.quote(percent(dailyRub, portfolioRub - dailyRub));
  return body;
}
