/**
 * Payment requests that meet every rule of 2.6 (and stay inside the limits of 8), built from requests
 * generated from the served document. Two body shapes are known, both the vendor's: a draft with the
 * payer's `accountNumber` and the recipient's fields at the top (`inn`, `bankAcnt`, `bankBik`, ...), and
 * a transfer with `from.accountNumber` and a `to` block. The tax fields are found by name wherever the
 * body declares them (at the top of a draft, in the `tax` block of a transfer).
 */
import { ToolError } from '../../errors.ts';
import { getAt, isJsonObject, removeAt, setAt, type JsonObject, type JsonPath } from '../../text/json.ts';
import type { GeneratedRequest } from '../runtime/request.ts';
import type { OperationPlan } from '../runtime/plan.ts';
import { freshCounterparty, generatedRequest, uniqueId } from './rules.ts';
import { fieldSites, siteOf, typeAt } from '../runtime/schema-sites.ts';

export const PAYMENT_DRAFT = 'POST /api/v1/payment/create';
export const RUBLE_TRANSFER = 'POST /api/v1/payment/ruble-transfer/pay';
export const SBP_TRANSFER = 'POST /api/v1/payment/sbp/pay';

interface Shape {
  payer: JsonPath;
  /** Where the recipient's fields sit ([] for the top of a draft). */
  recipient: JsonPath;
  recipientAccount: JsonPath;
}

function shapeOf(op: OperationPlan): Shape {
  const from = fieldSites(op, 'from').find((s) => s.path.length === 1);
  if (from) return { payer: ['from', 'accountNumber'], recipient: ['to'], recipientAccount: ['to', 'accountNumber'] };
  if (siteOf(op, 'bankAcnt')) return { payer: ['accountNumber'], recipient: [], recipientAccount: ['bankAcnt'] };
  throw new ToolError(
    'PRECONDITION_MISSING',
    `cannot tell the payer and recipient fields of ${op.row} (neither from/to nor accountNumber/bankAcnt)`,
  );
}

/** Tax fields by the names the vendor uses in drafts and in transfer tax blocks, with values that meet 2.6. */
const TAX_FIELDS: Record<string, string> = {
  kbk: '18210301000011000110',
  oktmo: '45382000',
  taxPayerStatus: '01',
  payerStatus: '01',
  taxEvidence: 'ТП',
  evidence: 'ТП',
  taxPeriod: 'МС.10.2026',
  period: 'МС.10.2026',
  taxDocNumber: '0',
  docNumber: '0',
  taxDocDate: '0',
  docDate: '0',
};
/** Fields that make a payment a tax payment, or carry a rule of 2.6: left out unless a rule test sets them. */
const RULE_FIELDS = [
  'uin',
  'recipientCorrAccountNumber',
  'revenueTypeCode',
  'collectionAmount',
  'thirdParty',
  'tax',
  ...Object.keys(TAX_FIELDS),
];
/** The Treasury's correspondent account form (40102...) that tax payments carry. */
export const TREASURY_CORR_ACCOUNT = '40102810545370000003';

export type Recipient = 'legal' | 'individual';

export interface PaymentOptions {
  payer: string;
  recipient?: Recipient;
  /** Counterparty account and inn (fresh by default). */
  counterparty?: { accountNumber: string; inn: string };
  amount?: number;
  tax?: boolean;
  /** What the payment is for, which seeds its generated request ('payment' by default). */
  purpose?: string;
}

/** Top-level and nested sites of the recipient's field among its names. */
function recipientSite(op: OperationPlan, shape: Shape, ...names: string[]): JsonPath | undefined {
  for (const name of names) {
    const site = fieldSites(op, name).find(
      (s) => s.path.length === shape.recipient.length + 1 && shape.recipient.every((step, i) => s.path[i] === step),
    );
    if (site) return site.path;
  }
  return undefined;
}

/** A payment that meets every rule: a fresh client id, the payer, a realistic recipient, no rule field unless asked. */
export function payment(op: OperationPlan, options: PaymentOptions): GeneratedRequest & { body: JsonObject } {
  const shape = shapeOf(op);
  const request = generatedRequest(
    op,
    options.purpose ?? 'payment',
    (b) => !(shape.recipient.length && !isJsonObject(getAt(b, shape.recipient))),
  );
  const body = request.body;
  for (const name of RULE_FIELDS) for (const site of fieldSites(op, name)) if (!site.path.includes('*')) removeAt(body, site.path);
  const recipient = options.recipient ?? 'legal';
  const counterparty = options.counterparty ?? freshCounterparty(recipient);
  setAt(body, shape.payer, options.payer);
  setAt(body, shape.recipientAccount, counterparty.accountNumber);
  const set = (value: unknown, ...names: string[]) => {
    const path = recipientSite(op, shape, ...names);
    if (path) setAt(body, path, value);
  };
  set(counterparty.inn, 'inn');
  set(recipient === 'legal' ? 'ООО "Ромашка"' : 'Иванов Иван Иванович', 'name', 'recipientName');
  set('044525974', 'bik', 'bankBik');
  set('АО "ТБанк"', 'bankName');
  set('30101810145250000974', 'corrAccountNumber');
  const kpp = recipientSite(op, shape, 'kpp');
  if (kpp) recipient === 'legal' ? setAt(body, kpp, '771001001') : removeAt(body, kpp);
  const amount = siteOf(op, 'amount');
  if (amount) setAt(body, amount.path, options.amount ?? 100);
  const id = fieldSites(op, 'id').find((s) => s.path.length === 1);
  if (id) body.id = uniqueId('pay');
  const documentNumber = siteOf(op, 'documentNumber');
  if (documentNumber) setAt(body, documentNumber.path, typeAt(documentNumber.schema) === 'string' ? '1' : 1);
  if (options.tax) makeTax(op, body);
  return request;
}

/** Turns the payment into a tax payment with every tax field the body declares, and the Treasury's correspondent account. */
export function makeTax(op: OperationPlan, body: JsonObject): void {
  const tax = fieldSites(op, 'tax').find((s) => s.path.length === 1);
  const inBlock = (path: JsonPath) => (tax ? path[0] === 'tax' : path.length === 1);
  let any = false;
  for (const [name, value] of Object.entries(TAX_FIELDS)) {
    for (const site of fieldSites(op, name).filter((s) => inBlock(s.path))) {
      setAt(body, site.path, value);
      any = true;
    }
  }
  if (!any)
    throw new ToolError(
      'PRECONDITION_MISSING',
      `the request body of ${op.row} declares no tax field (kbk, oktmo, taxPayerStatus, ...): a tax payment cannot be built`,
    );
  const corr = siteOf(op, 'recipientCorrAccountNumber');
  if (!corr) throw new ToolError('PRECONDITION_MISSING', `the request body of ${op.row} has no field recipientCorrAccountNumber`);
  setAt(body, corr.path, TREASURY_CORR_ACCOUNT);
  const uin = siteOf(op, 'uin');
  if (uin) setAt(body, uin.path, '0');
}

/** The first of the operations whose body declares the field (the draft before the transfer). */
export function paymentOpWith(ops: OperationPlan[], ...names: string[]): OperationPlan {
  const found = ops.find((op) => names.some((n) => siteOf(op, n)));
  if (!found)
    throw new ToolError(
      'PRECONDITION_MISSING',
      `no payment operation of the served document (${ops.map((o) => o.row).join(', ')}) declares ${names.join(' or ')}`,
    );
  return found;
}
