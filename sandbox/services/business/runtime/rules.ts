/**
 * Business rules of spec 2.6 that a schema cannot state (one field's need depends on another's value),
 * checked after the request is valid against the document and answered 422 with the business error
 * body naming the rule: a request the document accepts is never refused as malformed (400), only as a
 * business outcome. The sandbox's readings where 2.6 leaves a condition open:
 *   - a payment is a tax payment when it carries a tax block (`tax`) or a payer status (`taxPayerStatus`);
 *   - collectionAmount is for individuals: a recipient inn of 12 digits or "0", never of 10;
 *   - kio is needed by a non-resident legal entity (UL_NONRESIDENT) without inn;
 *   - a v2 checkout order needs itemsAmount unless it carries the deprecated amount (which then stands
 *     for itemsAmount); delivery services are in use when the order carries shippingParameters.
 * Each rule is named, so that a fault can switch one off (fault-modifiers.ts); the handler runs them
 * through the rules table it is given, never through BUSINESS_RULES directly.
 */
import { namedRules } from '../../../faults/modifiers.ts';
import { isNode, type Node, type Operation } from './operations.ts';
import type { WorldAnswer } from './world.ts';

export const PAYMENT_DRAFT = 'POST /api/v1/payment/create';
export const RUBLE_TRANSFER = 'POST /api/v1/payment/ruble-transfer/pay';
export const PAYMENTS = new Set([PAYMENT_DRAFT, RUBLE_TRANSFER]);
export const BENEFICIARY_CREATE = 'POST /api/v1/nominal-accounts/beneficiaries';
export const BENEFICIARY_WRITES = new Set([BENEFICIARY_CREATE, 'PUT /api/v1/nominal-accounts/beneficiaries/{beneficiaryId}']);
export const CHECKOUT_V2_CREATE = 'POST /api/v2/checkout/order';
export const CHECKOUT_V1_CREATE = 'POST /api/v1/checkout/order';
export const CARDS_LISTS = new Set(['GET /api/v1/card', 'GET /api/v3/card']);

/** The 422 answer of the broken rule `rule`. */
export const refused = (rule: string, message: string, field: string): WorldAnswer => ({
  status: 422,
  error: { code: 'BUSINESS_RULE_VIOLATION', message: `${rule}: ${message}`, details: { [field]: message } },
});
export const present = (node: Node, name: string) => node[name] !== undefined && node[name] !== null;

/** The recipient's inn of a payment: in `to` for a ruble transfer, at the top for a draft. */
export const recipientInnOf = (op: Operation, b: Node): unknown =>
  op.key === RUBLE_TRANSFER ? (isNode(b.to) ? b.to.inn : undefined) : b.inn;

const documentsOf = (b: Node) => (Array.isArray(b.documents) ? b.documents.filter(isNode) : []);

/** A document type of 2.6 and the field it needs. */
function documentNeeds(type: string, need: string) {
  return (b: Node): WorldAnswer | undefined => {
    const i = documentsOf(b).findIndex((doc) => doc.type === type && !present(doc, need));
    return i < 0 ? undefined : refused(`2.6 ${type}`, `a ${type} needs ${need}`, `documents[${i}].${need}`);
  };
}

/** Items of an order that uses delivery services, each needing `field`. */
function deliveryNeeds(field: string) {
  return (b: Node): WorldAnswer | undefined => {
    if (!present(b, 'shippingParameters')) return undefined;
    const items = Array.isArray(b.items) ? b.items.filter(isNode) : [];
    const i = items.findIndex((item) => !present(item, field));
    return i < 0
      ? undefined
      : refused('2.6 delivery services', `${field} is required when delivery services are used`, `items[${i}].${field}`);
  };
}

type BusinessRule = (body: Node, op: Operation) => WorldAnswer | undefined;

/** Every rule, by name; within one operation group they run in this order, the first refusal wins. */
export const BUSINESS_RULES = namedRules<BusinessRule>()({
  'payment.tax-corr-account': (b) => {
    const isTax = isNode(b.tax) || present(b, 'taxPayerStatus');
    return isTax && !present(b, 'recipientCorrAccountNumber')
      ? refused('2.6 tax payment', 'recipientCorrAccountNumber is required for tax payments', 'recipientCorrAccountNumber')
      : undefined;
  },
  'payment.collection-amount': (b, op) => {
    const inn = recipientInnOf(op, b);
    return present(b, 'collectionAmount') && typeof inn === 'string' && /^\d{10}$/.test(inn)
      ? refused('2.6 collectionAmount', 'collectionAmount is only for payments to individuals', 'collectionAmount')
      : undefined;
  },
  'beneficiary.passport-division': documentNeeds('PASSPORT', 'division'),
  'beneficiary.diplomatic-organization': documentNeeds('DIPLOMATIC_PASSPORT', 'organization'),
  'beneficiary.patent-expire': documentNeeds('PATENT', 'expireDate'),
  'beneficiary.legal-address': (b) => {
    const type = String(b.type);
    const addresses = Array.isArray(b.addresses) ? b.addresses.filter(isNode) : [];
    return type.startsWith('UL_') && !addresses.some((a) => a.type === 'LEGAL_ENTITY_ADDRESS')
      ? refused('2.6 legal entity', `a ${type} beneficiary needs an address of type LEGAL_ENTITY_ADDRESS`, 'addresses')
      : undefined;
  },
  'beneficiary.citizenship': (b) =>
    (b.type === 'FL_RESIDENT' || b.type === 'IP_RESIDENT') && !present(b, 'citizenship')
      ? refused('2.6 citizenship', `citizenship is required for ${String(b.type)}`, 'citizenship')
      : undefined,
  'beneficiary.contact': (b) =>
    !present(b, 'phoneNumber') && !present(b, 'email')
      ? refused('2.6 contact', 'phoneNumber or email is required', 'phoneNumber')
      : undefined,
  'beneficiary.kio': (b) =>
    b.type === 'UL_NONRESIDENT' && !present(b, 'inn') && !present(b, 'kio')
      ? refused('2.6 kio', 'kio is required when inn is absent', 'kio')
      : undefined,
  'checkout.items-amount': (b) =>
    !present(b, 'itemsAmount') && !present(b, 'amount')
      ? refused('2.6 itemsAmount', 'itemsAmount is required (the deprecated amount is not given either)', 'itemsAmount')
      : undefined,
  'checkout.item-weight': deliveryNeeds('weight'),
  'checkout.item-declared-value': deliveryNeeds('declaredValue'),
});

export type BusinessRules = typeof BUSINESS_RULES;
type RuleName = keyof BusinessRules;

/** The rules of the operation, in order: beneficiary rules apply to a create only. */
function rulesOf(op: Operation): RuleName[] {
  const names = Object.keys(BUSINESS_RULES) as RuleName[];
  if (PAYMENTS.has(op.key)) return names.filter((n) => n.startsWith('payment.'));
  if (op.key === BENEFICIARY_CREATE) return names.filter((n) => n.startsWith('beneficiary.'));
  if (op.key === CHECKOUT_V2_CREATE) return names.filter((n) => n.startsWith('checkout.'));
  return [];
}

/** The broken rule and its 422 answer, or undefined when the request meets every rule of `rules`. */
export function ruleRefusal(checks: BusinessRules, op: Operation, body: unknown): { rule: RuleName; answer: WorldAnswer } | undefined {
  if (!isNode(body)) return undefined;
  for (const rule of rulesOf(op)) {
    const answer = checks[rule](body, op);
    if (answer) return { rule, answer };
  }
  return undefined;
}

/** What an accepted request means before its behaviour runs: the deprecated amount stands for itemsAmount. */
export function normalised(op: Operation, body: unknown): unknown {
  if (op.key === CHECKOUT_V2_CREATE && isNode(body) && !present(body, 'itemsAmount') && typeof body.amount === 'number')
    return { ...body, itemsAmount: body.amount };
  return body;
}
