/**
 * Bank payments (spec 8, 2.6; the vendor's payment methods): the default limits of ruble transfers,
 * the instant-payment commission, and the vendor's deduplication by the client's payment id.
 *
 * The sandbox's readings where part 8 names no scope: the day and month totals and the count per
 * counterparty are kept per payer account (`from.accountNumber`), a counterparty is the recipient's
 * account and inn, days and months are UTC. Every payer account is the company's own; those that begin
 * with MONTH_USED_PREFIX start each month with MONTH_USED_AMOUNT already paid on earlier days (the
 * fixture the month-limit test needs, written into the target file). The instant-payment free limit
 * is SBP_FREE_LIMIT rubles per payer account and month; the commission on a payment after it is 1 % of
 * the amount plus 25 rubles, in kopecks, rounded half up, answered in the field `commission`.
 */
import { randomUUID } from 'node:crypto';
import { isNode, type Node } from './operations.ts';
import { seedRecord } from './resources.ts';
import { project, unprocessable, type WorldAnswer, type Input, type World } from './world.ts';

export const SINGLE_LIMIT = 100_000;
export const DAY_LIMIT = 100_000;
export const MONTH_LIMIT = 1_000_000;
export const COUNTERPARTY_DAY_COUNT = 3;
export const SBP_FREE_LIMIT = 10_000;
export const MONTH_USED_PREFIX = '4070281095';
export const MONTH_USED_AMOUNT = 950_000;
/** Prefix of payer accounts the sandbox has seen nothing from (the suite makes fresh ones from it). */
export const FRESH_PAYER_PREFIX = '4070281077';

const kopecks = (rubles: number) => Math.round(rubles * 100);
const rubles = (k: number) => k / 100;
const dayKey = () => new Date().toISOString().slice(0, 10);
const monthKey = () => new Date().toISOString().slice(0, 7);

interface Ledger {
  /** Kopecks paid by key "account day" / "account month" / "sbp account month"; counts by "account day counterparty". */
  totals: Map<string, number>;
  counts: Map<string, number>;
  /** The client's payment id (per operation) -> the answer already given. */
  byClientId: Map<string, WorldAnswer>;
}

const ledgers = new WeakMap<World, Ledger>();
function ledgerOf(world: World): Ledger {
  let ledger = ledgers.get(world);
  if (!ledger) ledgers.set(world, (ledger = { totals: new Map(), counts: new Map(), byClientId: new Map() }));
  return ledger;
}

function monthTotal(ledger: Ledger, account: string): number {
  const key = `${account} ${monthKey()}`;
  if (!ledger.totals.has(key)) ledger.totals.set(key, account.startsWith(MONTH_USED_PREFIX) ? kopecks(MONTH_USED_AMOUNT) : 0);
  return ledger.totals.get(key)!;
}

/**
 * How this sandbox counts the limits (a rule's own decision, which a fault may change: fault-modifiers.ts).
 * The specification's: amounts in kopecks, the single and day limits inclusive ("at most"), every limit
 * enforced, a repeated client payment id answered with the first answer.
 */
export interface PaymentSettings {
  /** 'kopecks' compares amounts exactly; 'rubles' drops the kopecks first. */
  'limits.compare': 'kopecks' | 'rubles';
  /** 'at-most': the limit itself is allowed; 'below': the limit itself is refused. */
  'limit.single': 'at-most' | 'below';
  'limit.day': 'at-most' | 'below' | 'off';
  'limit.month': 'at-most' | 'off';
  'limit.counterparty': 'at-most' | 'off';
  /** 'kopecks': 1 % half up in kopecks; 'rubles': 1 % rounded to whole rubles. */
  'sbp.commission.rounding': 'kopecks' | 'rubles';
  /** Whether the free limit applies to the instant-payment commission. */
  'sbp.freeLimit': boolean;
  /** Whether a repeated client payment id is answered with the first answer. */
  'payments.deduplicated': boolean;
}

export const PAYMENT_SETTINGS: PaymentSettings = {
  'limits.compare': 'kopecks',
  'limit.single': 'at-most',
  'limit.day': 'at-most',
  'limit.month': 'at-most',
  'limit.counterparty': 'at-most',
  'sbp.commission.rounding': 'kopecks',
  'sbp.freeLimit': true,
  'payments.deduplicated': true,
};

/** Whether `total` kopecks are over `limit` rubles, counted as `how` says. */
const over = (total: number, limit: number, how: 'at-most' | 'below' | 'off') =>
  how === 'below' ? total >= kopecks(limit) : how === 'at-most' ? total > kopecks(limit) : false;

const limitRefusal = (message: string): WorldAnswer => unprocessable('LIMIT_EXCEEDED', message);

/** Why a ruble transfer of `amount` from `account` to `counterparty` is over a default limit, if it is. */
function overLimit(
  ledger: Ledger,
  account: string,
  counterparty: string,
  amount: number,
  settings: PaymentSettings,
): WorldAnswer | undefined {
  const k = settings['limits.compare'] === 'rubles' ? kopecks(Math.floor(amount)) : kopecks(amount);
  if (over(k, SINGLE_LIMIT, settings['limit.single'])) return limitRefusal(`a single ruble transfer is at most ${SINGLE_LIMIT} rubles`);
  const day = ledger.totals.get(`${account} ${dayKey()}`) ?? 0;
  if (over(day + k, DAY_LIMIT, settings['limit.day']))
    return limitRefusal(`the day's ruble transfers from ${account} are at most ${DAY_LIMIT} rubles (${rubles(day)} paid today)`);
  const month = monthTotal(ledger, account);
  if (over(month + k, MONTH_LIMIT, settings['limit.month']))
    return limitRefusal(`the month's ruble transfers from ${account} are at most ${MONTH_LIMIT} rubles (${rubles(month)} paid this month)`);
  const count = ledger.counts.get(`${account} ${dayKey()} ${counterparty}`) ?? 0;
  if (count >= COUNTERPARTY_DAY_COUNT && settings['limit.counterparty'] !== 'off')
    return limitRefusal(`at most ${COUNTERPARTY_DAY_COUNT} payments a day to one counterparty`);
  return undefined;
}

function book(ledger: Ledger, account: string, counterparty: string, amount: number): void {
  const k = kopecks(amount);
  const day = `${account} ${dayKey()}`;
  ledger.totals.set(day, (ledger.totals.get(day) ?? 0) + k);
  ledger.totals.set(`${account} ${monthKey()}`, monthTotal(ledger, account) + k);
  const cp = `${account} ${dayKey()} ${counterparty}`;
  ledger.counts.set(cp, (ledger.counts.get(cp) ?? 0) + 1);
}

/** The commission in kopecks of an instant payment, given what the account paid through SBP this month. */
export function sbpCommission(paidBefore: number, amount: number, settings: PaymentSettings): number {
  const free = kopecks(SBP_FREE_LIMIT);
  const k = kopecks(amount);
  const charged = settings['sbp.freeLimit'] ? Math.max(0, paidBefore + k - Math.max(free, paidBefore)) : k;
  if (charged === 0) return 0;
  if (settings['sbp.commission.rounding'] === 'rubles') return Math.round(charged / 10_000) * 100 + 2500;
  // 1 % of the charged kopecks, half up, in integers: (charged + 50) / 100 floored.
  return Math.floor((charged + 50) / 100) + 2500;
}

function accepted(world: World, input: Input, extra: Node = {}): WorldAnswer {
  const paymentId = randomUUID();
  seedRecord(world, 'bank-payment', { paymentId, status: 'IN_PROGRESS', updatedAt: new Date().toISOString(), ...extra });
  const schema = input.op.success.schema!;
  const body = project({ paymentId, status: 'IN_PROGRESS', ...extra }, schema, paymentId) as Node;
  for (const [name, value] of Object.entries(extra)) body[name] = value;
  return { status: input.op.success.status, body };
}

/** POST /api/v1/payment/{ruble-transfer,card-transfer,sbp}/pay. */
export function bankPayment(world: World, input: Input, settings: PaymentSettings): WorldAnswer {
  const ledger = ledgerOf(world);
  const body = (isNode(input.body) ? input.body : {}) as Node;
  const clientId = typeof body.id === 'string' ? `${input.op.key} ${body.id}` : undefined;
  const repeated = clientId && settings['payments.deduplicated'] ? ledger.byClientId.get(clientId) : undefined;
  if (repeated) return repeated;
  const account = isNode(body.from) ? String(body.from.accountNumber) : '';
  const amount = typeof body.amount === 'number' ? body.amount : 0;
  let answer: WorldAnswer;
  if (input.op.template.endsWith('/ruble-transfer/pay')) {
    const to = isNode(body.to) ? body.to : {};
    const counterparty = `${String(to.accountNumber)}/${String(to.inn)}`;
    const refusal = overLimit(ledger, account, counterparty, amount, settings);
    if (refusal) return refusal;
    book(ledger, account, counterparty, amount);
    answer = accepted(world, input);
  } else if (input.op.template.endsWith('/sbp/pay')) {
    const key = `sbp ${account} ${monthKey()}`;
    const before = ledger.totals.get(key) ?? 0;
    const commission = sbpCommission(before, amount, settings);
    ledger.totals.set(key, before + kopecks(amount));
    answer = accepted(world, input, { commission: rubles(commission) });
  } else answer = accepted(world, input);
  if (clientId) ledger.byClientId.set(clientId, answer);
  return answer;
}
