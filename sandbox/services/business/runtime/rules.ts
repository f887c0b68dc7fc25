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
 * Faults that loosen a rule the document does state (a pattern, an enum) drop the schema's problem
 * for that field (`relaxed`).
 */
import type { FaultSet } from '../../../faults/types.ts';
import { isNode, type Node, type Operation } from './operations.ts';
import type { Problem } from './validate.ts';
import type { Answer } from './world.ts';

export const PAYMENT_DRAFT = 'POST /api/v1/payment/create';
export const RUBLE_TRANSFER = 'POST /api/v1/payment/ruble-transfer/pay';
const PAYMENTS = new Set([PAYMENT_DRAFT, RUBLE_TRANSFER]);
const BENEFICIARY_WRITES = new Set(['POST /api/v1/nominal-accounts/beneficiaries', 'PUT /api/v1/nominal-accounts/beneficiaries/{beneficiaryId}']);
export const CHECKOUT_V2_CREATE = 'POST /api/v2/checkout/order';
export const CHECKOUT_V1_CREATE = 'POST /api/v1/checkout/order';
export const CARDS_LISTS = new Set(['GET /api/v1/card', 'GET /api/v3/card']);

const refused = (rule: string, message: string, field: string): Answer => ({ status: 422, error: { code: 'BUSINESS_RULE_VIOLATION', message: `${rule}: ${message}`, details: { [field]: message } } });
const present = (node: Node, name: string) => node[name] !== undefined && node[name] !== null;
const CYRILLIC = /[А-Яа-яЁё]/;
const TAX_DOC_LETTERS = /^[А-ЯA-Z]{2}\d{13}$/;

/** Schema problems a loosening fault makes the sandbox ignore. */
export function relaxed(op: Operation, problems: Problem[], body: unknown, query: Record<string, unknown>, faults: FaultSet): Problem[] {
  const b = isNode(body) ? body : {};
  const drop = (field: string, when: boolean) => (when ? problems.filter((p) => p.field !== field) : problems);
  if (PAYMENTS.has(op.key)) {
    problems = drop('body.uin', faults.has('bus-rule-uin-loose') && typeof b.uin === 'string' && /^[\p{L}\d]{1,25}$/u.test(b.uin));
    problems = drop('body.documentNumber', faults.has('bus-rule-doc-number-7-digits') && /^\d{7}$/.test(String(b.documentNumber)));
    problems = drop('body.revenueTypeCode', faults.has('bus-rule-revenue-type-any') && /^\d{1,2}$/.test(String(b.revenueTypeCode)));
  }
  if (op.key === CHECKOUT_V2_CREATE && faults.has('bus-chk-russian-post-accepted') && JSON.stringify(body).includes('"russian_post"')) {
    problems = problems.filter((p) => !p.message.includes('post_office'));
  }
  if (BENEFICIARY_WRITES.has(op.key) && faults.has('bus-ben-document-date-optional')) {
    problems = problems.filter((p) => !/^body\.documents\[\d+\]\.date$/.test(p.field) || p.message !== 'is required');
  }
  if (CARDS_LISTS.has(op.key) && faults.has('bus-crd-account-22-refused') && /^\d{22}$/.test(String(query.accountNumber ?? ''))) {
    problems = [...problems, { field: 'query.accountNumber', message: 'must be 20 digits' }];
  }
  return problems;
}

function paymentRefusal(op: Operation, b: Node, faults: FaultSet): Answer | undefined {
  const tax = isNode(b.tax) ? b.tax : undefined;
  const recipientInn = op.key === RUBLE_TRANSFER ? (isNode(b.to) ? b.to.inn : undefined) : b.inn;
  const isTax = tax !== undefined || present(b, 'taxPayerStatus');
  if (isTax && !present(b, 'recipientCorrAccountNumber') && !faults.has('bus-rule-tax-corr-optional')) {
    return refused('2.6 tax payment', 'recipientCorrAccountNumber is required for tax payments', 'recipientCorrAccountNumber');
  }
  if (present(b, 'collectionAmount') && typeof recipientInn === 'string' && /^\d{10}$/.test(recipientInn) && !faults.has('bus-rule-collection-anyone')) {
    return refused('2.6 collectionAmount', 'collectionAmount is only for payments to individuals', 'collectionAmount');
  }
  if (faults.has('bus-rule-uin-cyrillic-refused') && typeof b.uin === 'string' && CYRILLIC.test(b.uin)) return refused('2.6 uin', 'uin must be Latin', 'uin');
  const taxDocNumber = b.taxDocNumber ?? tax?.docNumber;
  if (faults.has('bus-rule-tax-doc-letters-refused') && typeof taxDocNumber === 'string' && TAX_DOC_LETTERS.test(taxDocNumber)) return refused('2.6 tax document number', 'must be digits', 'taxDocNumber');
  if (faults.has('bus-rule-kbk-zero-refused') && (b.kbk ?? tax?.kbk) === '0') return refused('2.6 budget classification code', 'kbk must have 20 digits', 'kbk');
  if (faults.has('bus-rule-inn-zero-refused') && recipientInn === '0') return refused('2.6 inn', 'inn must have 10 or 12 digits', 'inn');
  return undefined;
}

const DOCUMENT_NEEDS: Record<string, string> = { PASSPORT: 'division', DIPLOMATIC_PASSPORT: 'organization', PATENT: 'expireDate' };
const DOCUMENT_FAULTS: Record<string, string> = { PASSPORT: 'bus-ben-passport-no-division', DIPLOMATIC_PASSPORT: 'bus-ben-diplomatic-no-organization', PATENT: 'bus-ben-patent-no-expire' };

function beneficiaryRefusal(b: Node, faults: FaultSet): Answer | undefined {
  const type = String(b.type);
  const documents = Array.isArray(b.documents) ? b.documents.filter(isNode) : [];
  for (const [i, doc] of documents.entries()) {
    const need = DOCUMENT_NEEDS[String(doc.type)];
    if (need && !present(doc, need) && !faults.has(DOCUMENT_FAULTS[String(doc.type)])) return refused(`2.6 ${String(doc.type)}`, `a ${String(doc.type)} needs ${need}`, `documents[${i}].${need}`);
    if (doc.type === 'MIGRATION_CARD' && faults.has('bus-ben-migration-card-refused')) return refused('2.6 document types', 'a MIGRATION_CARD is not accepted', `documents[${i}].type`);
  }
  const addresses = Array.isArray(b.addresses) ? b.addresses.filter(isNode) : [];
  if (type.startsWith('UL_') && !addresses.some((a) => a.type === 'LEGAL_ENTITY_ADDRESS') && !faults.has('bus-ben-ul-address-not-checked')) {
    return refused('2.6 legal entity', `a ${type} beneficiary needs an address of type LEGAL_ENTITY_ADDRESS`, 'addresses');
  }
  if ((type === 'FL_RESIDENT' || type === 'IP_RESIDENT') && !present(b, 'citizenship') && !faults.has('bus-ben-citizenship-optional')) {
    return refused('2.6 citizenship', `citizenship is required for ${type}`, 'citizenship');
  }
  if (!present(b, 'phoneNumber') && !present(b, 'email') && !faults.has('bus-ben-contact-optional')) return refused('2.6 contact', 'phoneNumber or email is required', 'phoneNumber');
  if (type === 'UL_NONRESIDENT' && !present(b, 'inn') && !present(b, 'kio') && !faults.has('bus-ben-kio-optional')) return refused('2.6 kio', 'kio is required when inn is absent', 'kio');
  if (type.startsWith('FL_') && !present(b, 'birthPlace') && faults.has('bus-ben-birthplace-required')) return refused('2.6 birthPlace', 'birthPlace is required', 'birthPlace');
  return undefined;
}

function checkoutRefusal(b: Node, faults: FaultSet): Answer | undefined {
  if (!present(b, 'itemsAmount') && !present(b, 'amount') && !faults.has('bus-chk-items-amount-optional')) {
    return refused('2.6 itemsAmount', 'itemsAmount is required (the deprecated amount is not given either)', 'itemsAmount');
  }
  if (present(b, 'shippingParameters')) {
    const items = Array.isArray(b.items) ? b.items.filter(isNode) : [];
    for (const [i, item] of items.entries()) {
      if (!present(item, 'weight') && !faults.has('bus-chk-weight-optional')) return refused('2.6 delivery services', 'weight is required when delivery services are used', `items[${i}].weight`);
      if (!present(item, 'declaredValue') && !faults.has('bus-chk-weight-optional')) return refused('2.6 delivery services', 'declaredValue is required when delivery services are used', `items[${i}].declaredValue`);
    }
  }
  if (faults.has('bus-chk-post-office-refused') && JSON.stringify(b).includes('"post_office"')) return refused('2.6 DeliveryKind', 'post_office is not a delivery type', 'deliveryType');
  return undefined;
}

/** The 422 answer of a broken business rule, or undefined when the request meets every rule. */
export function ruleRefusal(op: Operation, body: unknown, faults: FaultSet): Answer | undefined {
  if (!isNode(body)) return undefined;
  if (PAYMENTS.has(op.key)) return paymentRefusal(op, body, faults);
  if (BENEFICIARY_WRITES.has(op.key) && op.method === 'POST') return beneficiaryRefusal(body, faults);
  if (op.key === CHECKOUT_V2_CREATE) return checkoutRefusal(body, faults);
  return undefined;
}

/** What an accepted request means before its behaviour runs: the deprecated amount stands for itemsAmount. */
export function normalised(op: Operation, body: unknown): unknown {
  if (op.key === CHECKOUT_V2_CREATE && isNode(body) && !present(body, 'itemsAmount') && typeof body.amount === 'number') return { ...body, itemsAmount: body.amount };
  return body;
}
