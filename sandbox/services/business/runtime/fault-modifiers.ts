/**
 * How each fault of the business runtime (faults.ts, which stays the data: id, catches, description)
 * breaks the sandbox, as an edit around the handler (sandbox/faults/modifiers.ts): a named rule of
 * handler.ts or rules.ts replaced, a setting of the behaviours changed (payments.ts, resources.ts,
 * behaviours.ts), or the answer edited. The handler and the behaviours know none of them. A fault of
 * faults.ts without an entry here stops the sandbox at start.
 */
import type { FaultSet } from '../../../faults/types.ts';
import {
  editBody,
  modifiersOf,
  never,
  onRefusal,
  withHeader,
  type Behaviour,
  type ModifierFault,
  type ModifierVariation,
} from '../../../faults/modifiers.ts';
import { jsonKeyedWithCharset } from '../document-edits.ts';
import type { DocumentChange, TargetChange } from '../document.ts';
import { businessErrorBody } from '../errors.ts';
import { ALL_SCOPES, groupOf } from './access.ts';
import { BEHAVIOUR_SETTINGS, type BehaviourSettings } from './behaviours.ts';
import { RULE_FAULTS, RUNTIME_FAULTS } from './faults.ts';
import {
  CERTIFICATE_REQUIRED,
  RUNTIME_RULES,
  TOKEN_REQUIRED,
  VALIDATION_REFUSALS,
  type RuntimeAnswer,
  type RuntimeRequest,
  type RuntimeRules,
} from './handler.ts';
import { isNode, type Node, type Operation } from './operations.ts';
import {
  BENEFICIARY_CREATE,
  BENEFICIARY_WRITES,
  BUSINESS_RULES,
  CARDS_LISTS,
  CHECKOUT_V1_CREATE,
  CHECKOUT_V2_CREATE,
  PAYMENTS,
  RUBLE_TRANSFER,
  present,
  recipientInnOf,
  refused,
  type BusinessRules,
} from './rules.ts';
import { checkParameters, checkBody, type Problem, type RawRequest } from './validate.ts';
import type { WorldAnswer } from './world.ts';

export interface RuntimeShape {
  request: RuntimeRequest;
  answer: RuntimeAnswer;
  checks: RuntimeRules;
  settings: BehaviourSettings;
}

export type Edit = Behaviour<RuntimeShape>;
/**
 * A fault's edits; one whose defect is in what the served document (or the target file) says together
 * with how the runtime answers carries that edit as `document` (or `target`).
 */
type FaultEdit = Edit & { document?: DocumentChange; target?: TargetChange };
type Rule = keyof BusinessRules;

const CARDS_WITHOUT_CERTIFICATE = new Set(['GET /api/v1/card', 'GET /api/v3/card', 'GET /api/v1/card/{ucid}']);
const RECEIPT_ANSWERS = new Set([
  'POST /api/v1/self-employed/taxpayers/{inn}/receipts',
  'GET /api/v1/self-employed/taxpayers/{inn}/receipts/{receiptId}',
]);
const CHECKOUT_V2_READ = 'GET /api/v2/checkout/order/{shopId}/by/{orderId}';
const REGISTRY_RESULT = 'GET /api/v1/self-employed/payment-registry/create/result';
const CYRILLIC = /[А-Яа-яЁё]/;
const TAX_DOC_LETTERS = /^[А-ЯA-Z]{2}\d{13}$/;

// ── The answers a fault edits ────────────────────────────────────────────────────────────────────────

const ofOperation = (keys: string | Set<string>) => (a: RuntimeAnswer) =>
  a.facts !== undefined && (typeof keys === 'string' ? a.facts.op.key === keys : keys.has(a.facts.op.key));
/** The operation's own successful answer (its behaviour's). */
const success = (keys: string | Set<string>) => (a: RuntimeAnswer) => a.facts?.outcome === 'success' && ofOperation(keys)(a);
/** An edit of the operation's successful answers. */
export const onSuccess = (keys: string | Set<string>, edit: (a: RuntimeAnswer) => RuntimeAnswer): Edit => ({
  answer: (a) => (success(keys)(a) ? edit(a) : a),
});
/** An edit of the body of the operation's successful answers. */
const successBody = (keys: string | Set<string>, edit: (body: Node) => Node | void): Edit => ({
  answer: editBody<RuntimeAnswer, Node>(success(keys), edit),
});
/** The answer turned into a business error, its other headers kept. */
export const errorInstead = (
  a: RuntimeAnswer,
  status: number,
  code: string,
  message: string,
  details?: Record<string, unknown>,
): RuntimeAnswer => ({
  ...a,
  status,
  headers: { ...a.headers, 'content-type': 'application/json' },
  body: businessErrorBody(code, message, details),
});
/** What the error handler answers to a crash. */
const crashed = (a: RuntimeAnswer) => errorInstead(a, 500, 'INTERNAL_ERROR', 'unexpected error');
const withoutHeader = (a: RuntimeAnswer, name: string): RuntimeAnswer => ({
  ...a,
  headers: Object.fromEntries(Object.entries(a.headers).filter(([n]) => n !== name)),
});
const errorMessageOf = (a: RuntimeAnswer) => String((a.body as { errorMessage?: unknown } | undefined)?.errorMessage ?? '');

// ── The rules a fault replaces ───────────────────────────────────────────────────────────────────────

/** The document's parameter check, its outcome edited for the operation's parameters. */
export const parametersEdited = (
  edit: (checked: ReturnType<typeof checkParameters>, op: Operation, raw: RawRequest) => ReturnType<typeof checkParameters>,
): Edit => ({
  checks: { parameters: (op, raw) => edit(checkParameters(op, raw), op, raw) },
});
/** The document's body check, with the problems of `drop` left out. */
export const schemaLoosened = (drop: (problems: Problem[], op: Operation, body: Node) => Problem[]): Edit => ({
  checks: { 'body.schema': (op, body) => drop(checkBody(op, body), op, isNode(body) ? body : {}) },
});
const without = (problems: Problem[], field: string) => problems.filter((p) => p.field !== field);
/** Business rules switched off. */
const rulesOff = (...names: Rule[]): Edit => ({ checks: Object.fromEntries(names.map((n) => [n, never])) as Partial<RuntimeRules> });
/** A refusal 2.6 does not make, run after the rules of the operation's group (after its last rule). */
export function alsoRefuses(
  group: 'payment.' | 'beneficiary.' | 'checkout.',
  extra: (b: Node, op: Operation) => WorldAnswer | undefined,
): Edit {
  const last = (Object.keys(BUSINESS_RULES) as Rule[]).filter((n) => n.startsWith(group)).at(-1)!;
  return { checks: { [last]: (b: Node, op: Operation) => BUSINESS_RULES[last](b, op) ?? extra(b, op) } as Partial<RuntimeRules> };
}

const kopecks = (v: unknown) => Math.round(Number(v) * 100);

/**
 * A v1 order create refused 422 as a broken business rule where `refuses(amount, total)` (in kopecks,
 * the total of its items' price times quantity): checked with the schema, before the order is stored.
 */
export function v1AmountRefused(refuses: (amount: number, total: number) => boolean, message: string): Edit {
  const problems = (op: Operation, body: unknown): Problem[] => {
    if (op.key !== CHECKOUT_V1_CREATE || !isNode(body) || !Array.isArray(body.items)) return [];
    const total = body.items.filter(isNode).reduce((sum, item) => sum + kopecks(Number(item.price) * Number(item.quantity ?? 1)), 0);
    return refuses(kopecks(body.amount), total) ? [{ field: 'body.amount', message }] : [];
  };
  return {
    checks: { 'body.schema': (op, body) => [...checkBody(op, body), ...problems(op, body)] },
    answer: onRefusal('body.schema', (a: RuntimeAnswer) =>
      a.facts?.problems?.every((p) => p.message === message)
        ? errorInstead(a, 422, 'BUSINESS_RULE_VIOLATION', `amount ${message}`, { amount: message })
        : a,
    ),
  };
}

// ── The catalog ──────────────────────────────────────────────────────────────────────────────────────

const EDITS: Record<string, FaultEdit> = {
  // faults.ts: RUNTIME_FAULTS
  'bus-run-field-wrong-type': successBody('GET /api/v1/company', (b) => void (b.name = 7_707_083_893)),
  'bus-run-charset-key-wrong-type': {
    ...successBody('GET /api/v1/company', (b) => void (b.name = 7_707_083_893)),
    document: { edit: (doc) => jsonKeyedWithCharset(doc) },
  },
  'bus-run-transfer-off-schema': successBody(RUBLE_TRANSFER, (b) => void (b.status = 1)),
  'bus-run-undocumented-status': onSuccess('GET /api/v1/individual/subscription', (a) => ({ ...a, status: 202 })),
  'bus-run-html-400': {
    answer: (a) => {
      if (!VALIDATION_REFUSALS.has(a.refusedBy ?? '')) return a;
      return {
        ...withHeader(a, 'content-type', 'text/html; charset=utf-8'),
        body: `<html><body><h1>400 Bad Request</h1><p>${errorMessageOf(a).replace(/[<>&]/g, '')}</p></body></html>`,
      };
    },
  },
  'bus-run-500-on-valid': onSuccess('POST /api/v1/invoice/send', crashed),
  'bus-run-intermittent-500': {
    // Every other valid request fails, the first one included: the memory holds "the last one failed".
    answer: (a, _request, memory) => {
      if (!success('GET /api/v1/company')(a)) return a;
      if (memory.delete('failed')) return a;
      memory.set('failed', a);
      return crashed(a);
    },
  },
  'bus-run-empty-success': onSuccess('GET /api/v1/individual/passport', (a) => ({ ...withoutHeader(a, 'content-type'), body: undefined })),
  'bus-run-valid-token-refused': onSuccess('GET /api/v1/individual/blacklist/status', (a) =>
    errorInstead(a, 401, 'UNAUTHORIZED', 'the token is not valid'),
  ),
  'bus-run-identified-without-token': { checks: { 'token.present': (op) => (op.template.includes('{') ? undefined : TOKEN_REQUIRED) } },
  'bus-run-valid-rejected': onSuccess('POST /api/v1/delivery/tasks', (a) =>
    withHeader(errorInstead(a, 405, 'METHOD_NOT_ALLOWED', 'POST is not allowed on /api/v1/delivery/tasks'), 'allow', 'GET'),
  ),
  'bus-run-wrong-content-type': onSuccess(CARDS_LISTS, (a) => withHeader(a, 'content-type', 'text/plain; charset=utf-8')),
  'bus-run-error-body-shape': {
    answer: (a) => (a.facts?.outcome === 'error' && a.status === 404 ? { ...a, body: { message: errorMessageOf(a), code: 404 } } : a),
  },
  'bus-run-query-not-validated': { checks: { parameters: (op, raw) => checkParameters(op, raw, true) } },
  'bus-run-body-not-validated': { checks: { 'body.schema': () => [] } },
  'bus-run-path-param-crash': {
    answer: (a) => (a.refusedBy === 'parameters' && a.facts?.problems?.some((p) => p.field.startsWith('path.')) ? crashed(a) : a),
  },
  'bus-run-missing-token-accepted': {
    checks: { 'token.present': (op) => (groupOf(op.template) === 'counterparty' ? undefined : TOKEN_REQUIRED) },
  },
  'bus-run-any-token-accepted': { checks: { 'token.known': (token, tokens) => tokens.get(token) ?? ALL_SCOPES } },
  'bus-run-scope-ignored': { checks: { scope: never } },
  'bus-run-no-token-403': {
    answer: onRefusal('token.present', (a: RuntimeAnswer) =>
      errorInstead(withoutHeader(a, 'www-authenticate'), 403, 'FORBIDDEN', 'access denied: the request carries no bearer token', {
        authorization: 'a bearer token is required',
      }),
    ),
  },
  'bus-run-created-not-stored': { settings: { 'rules.keptWhenCreated': false } },
  'bus-run-deleted-readable': { settings: { 'deleted.removed': false } },
  'bus-run-mtls-not-enforced': { checks: { certificate: never } },
  'bus-run-mtls-none': {
    checks: { certificate: never },
    document: {
      edit: (doc) => {
        for (const item of Object.values(doc.paths as Record<string, Record<string, Node>>))
          for (const op of Object.values(item)) if (isNode(op)) delete op['x-mtls-required'];
      },
    },
    target: (section) => ({ ...section, mtlsOperations: [] }),
  },
  'bus-run-mtls-cert-refused': { checks: { certificate: (op) => (op.mtls ? 'the client certificate is not accepted' : undefined) } },
  'bus-run-cards-need-certificate': {
    checks: {
      certificate: (op, request) =>
        (op.mtls || CARDS_WITHOUT_CERTIFICATE.has(op.key)) && !request.certified ? CERTIFICATE_REQUIRED : undefined,
    },
  },
  'bus-run-cards-limit-5000': parametersEdited((checked, op, raw) => {
    const sent = Number(raw.query.limit);
    if (!CARDS_LISTS.has(op.key) || !Number.isInteger(sent) || sent < 1 || sent > 5000) return checked;
    checked.values.query.limit = sent;
    return { values: checked.values, problems: without(checked.problems, 'query.limit') };
  }),
  'bus-run-cards-limit-1000-refused': parametersEdited((checked, op) =>
    CARDS_LISTS.has(op.key) && checked.values.query.limit === 1000
      ? { ...checked, problems: [...checked.problems, { field: 'query.limit', message: 'must be < 1000' }] }
      : checked,
  ),
  'bus-run-cards-default-limit-100': { settings: { 'cards.defaultLimit': 100 } },
  'bus-run-applications-unpaged': {
    request: (r) =>
      r.method === 'GET' && r.path === '/api/v3/card/virtual/issue/application'
        ? { ...r, query: Object.fromEntries(Object.entries(r.query).filter(([name]) => name !== 'limit')) }
        : r,
  },

  // faults.ts: RULE_FAULTS
  'bus-rule-uin-loose': schemaLoosened((problems, op, b) =>
    PAYMENTS.has(op.key) && typeof b.uin === 'string' && /^[\p{L}\d]{1,25}$/u.test(b.uin) ? without(problems, 'body.uin') : problems,
  ),
  'bus-rule-uin-cyrillic-refused': alsoRefuses('payment.', (b) =>
    typeof b.uin === 'string' && CYRILLIC.test(b.uin) ? refused('2.6 uin', 'uin must be Latin', 'uin') : undefined,
  ),
  'bus-rule-doc-number-7-digits': schemaLoosened((problems, op, b) =>
    PAYMENTS.has(op.key) && /^\d{7}$/.test(String(b.documentNumber)) ? without(problems, 'body.documentNumber') : problems,
  ),
  'bus-rule-tax-doc-letters-refused': alsoRefuses('payment.', (b) => {
    const number = b.taxDocNumber ?? (isNode(b.tax) ? b.tax.docNumber : undefined);
    return typeof number === 'string' && TAX_DOC_LETTERS.test(number)
      ? refused('2.6 tax document number', 'must be digits', 'taxDocNumber')
      : undefined;
  }),
  'bus-rule-kbk-zero-refused': alsoRefuses('payment.', (b) =>
    (b.kbk ?? (isNode(b.tax) ? b.tax.kbk : undefined)) === '0'
      ? refused('2.6 budget classification code', 'kbk must have 20 digits', 'kbk')
      : undefined,
  ),
  'bus-rule-revenue-type-any': schemaLoosened((problems, op, b) =>
    PAYMENTS.has(op.key) && /^\d{1,2}$/.test(String(b.revenueTypeCode)) ? without(problems, 'body.revenueTypeCode') : problems,
  ),
  'bus-rule-inn-zero-refused': alsoRefuses('payment.', (b, op) =>
    recipientInnOf(op, b) === '0' ? refused('2.6 inn', 'inn must have 10 or 12 digits', 'inn') : undefined,
  ),
  'bus-rule-tax-corr-optional': rulesOff('payment.tax-corr-account'),
  'bus-rule-collection-anyone': rulesOff('payment.collection-amount'),
  'bus-pay-duplicate-on-retry': { settings: { 'payments.deduplicated': false } },
  'bus-lim-single-inclusive': { settings: { 'limit.single': 'below' } },
  'bus-lim-kopecks-ignored': { settings: { 'limits.compare': 'rubles' } },
  'bus-lim-day-not-enforced': { settings: { 'limit.day': 'off' } },
  'bus-lim-day-inclusive': { settings: { 'limit.day': 'below' } },
  'bus-lim-month-not-enforced': { settings: { 'limit.month': 'off' } },
  'bus-lim-counterparty-4th-accepted': { settings: { 'limit.counterparty': 'off' } },
  'bus-lim-sbp-commission-rounded': { settings: { 'sbp.commission.rounding': 'rubles' } },
  'bus-lim-sbp-commission-within-free': { settings: { 'sbp.freeLimit': false } },
  'bus-ben-passport-no-division': rulesOff('beneficiary.passport-division'),
  'bus-ben-migration-card-refused': alsoRefuses('beneficiary.', (b) => {
    const i = (Array.isArray(b.documents) ? b.documents : []).findIndex((doc) => isNode(doc) && doc.type === 'MIGRATION_CARD');
    return i < 0 ? undefined : refused('2.6 document types', 'a MIGRATION_CARD is not accepted', `documents[${i}].type`);
  }),
  'bus-ben-diplomatic-no-organization': rulesOff('beneficiary.diplomatic-organization'),
  'bus-ben-patent-no-expire': rulesOff('beneficiary.patent-expire'),
  'bus-ben-document-date-optional': schemaLoosened((problems, op) =>
    BENEFICIARY_WRITES.has(op.key)
      ? problems.filter((p) => !/^body\.documents\[\d+\]\.date$/.test(p.field) || p.message !== 'is required')
      : problems,
  ),
  'bus-ben-ul-address-not-checked': rulesOff('beneficiary.legal-address'),
  'bus-ben-citizenship-optional': rulesOff('beneficiary.citizenship'),
  'bus-ben-contact-optional': rulesOff('beneficiary.contact'),
  'bus-ben-kio-optional': rulesOff('beneficiary.kio'),
  'bus-ben-birthplace-required': alsoRefuses('beneficiary.', (b) =>
    String(b.type).startsWith('FL_') && !present(b, 'birthPlace')
      ? refused('2.6 birthPlace', 'birthPlace is required', 'birthPlace')
      : undefined,
  ),
  'bus-ben-idempotency-ignored': { checks: { idempotency: (op) => op.key !== BENEFICIARY_CREATE } },
  'bus-chk-items-amount-optional': rulesOff('checkout.items-amount'),
  'bus-chk-weight-optional': rulesOff('checkout.item-weight', 'checkout.item-declared-value'),
  'bus-chk-v1-create-200': onSuccess(CHECKOUT_V1_CREATE, (a) => (a.status === 201 ? { ...a, status: 200 } : a)),
  'bus-chk-v1-total-refused': v1AmountRefused(
    (amount, total) => amount === total,
    "must add the delivery fee to the items' total, even for an order without delivery",
  ),
  'bus-chk-read-without-items-amount': successBody(CHECKOUT_V2_READ, (b) => void delete b.itemsAmount),
  'bus-chk-read-items-amount-in-kopecks': successBody(CHECKOUT_V2_READ, (b) => {
    if (typeof b.itemsAmount === 'number') b.itemsAmount = Math.round(b.itemsAmount * 100);
  }),
  'bus-chk-read-items-changed': successBody(CHECKOUT_V2_READ, (b) => {
    const first = Array.isArray(b.items) ? b.items[0] : undefined;
    if (first && typeof first === 'object' && !Array.isArray(first) && typeof first.quantity === 'number')
      first.quantity = first.quantity === 1 ? 2 : 1;
  }),
  'bus-chk-russian-post-accepted': schemaLoosened((problems, op, b) =>
    op.key === CHECKOUT_V2_CREATE && JSON.stringify(b).includes('"russian_post"')
      ? problems.filter((p) => !p.message.includes('post_office'))
      : problems,
  ),
  'bus-chk-post-office-refused': alsoRefuses('checkout.', (b) =>
    JSON.stringify(b).includes('"post_office"')
      ? refused('2.6 DeliveryKind', 'post_office is not a delivery type', 'deliveryType')
      : undefined,
  ),
  'bus-se-receipt-new': successBody(RECEIPT_ANSWERS, (b) => void (b.status = 'NEW')),
  'bus-se-error-message-not-string': successBody(RECEIPT_ANSWERS, (b) => {
    if (Array.isArray(b.operations))
      b.operations = b.operations.map((o) =>
        isNode(o) && typeof o.errorMessage === 'string' ? { ...o, errorMessage: { text: o.errorMessage } } : o,
      );
  }),
  'bus-se-registry-result-lost': {
    answer: (a, request) =>
      a.facts?.outcome !== undefined && ofOperation(REGISTRY_RESULT)(a)
        ? errorInstead(a, 404, 'NOT_FOUND', `result ${String(request.query.correlationId)} not found`)
        : a,
  },
  'bus-crd-account-22-refused': parametersEdited((checked, op, raw) =>
    CARDS_LISTS.has(op.key) && /^\d{22}$/.test(String(raw.query.accountNumber ?? ''))
      ? { ...checked, problems: [...checked.problems, { field: 'query.accountNumber', message: 'must be 20 digits' }] }
      : checked,
  ),
  'bus-err-malformed-json-text': {
    answer: (a) =>
      a.refusedBy === 'body.parse' ? { ...withHeader(a, 'content-type', 'text/plain; charset=utf-8'), body: 'Bad Request' } : a,
  },
  'bus-err-enum-format': {
    answer: (a) => {
      const problems = a.facts?.problems;
      if (!VALIDATION_REFUSALS.has(a.refusedBy ?? '') || !problems || groupOf(a.facts!.op.template) !== 'nominal-accounts') return a;
      // Keys of its own, not the errorId, errorCode and errorMessage every other error carries: past the
      // optional errorDetails one error may carry and another not (BUS-ERR-003's latitude).
      const message = `unknown value of ${problems[0].field}`;
      return problems.every((p) => p.message.startsWith('must be one of'))
        ? { ...errorInstead(a, 400, 'INVALID_ENUM_VALUE', message), body: { code: 'INVALID_ENUM_VALUE', message } }
        : a;
    },
  },
  'bus-err-403-bare': { answer: onRefusal('scope', (a: RuntimeAnswer) => errorInstead(a, 403, 'FORBIDDEN', 'Forbidden')) },
  'bus-err-403-courtesy': {
    answer: onRefusal('scope', (a: RuntimeAnswer) => errorInstead(a, 403, 'FORBIDDEN', 'You have no access. Please try again later.', {})),
  },
  'bus-err-certificate-403-bare': {
    answer: onRefusal('certificate', (a: RuntimeAnswer) => errorInstead(a, 403, 'FORBIDDEN', 'Forbidden')),
  },
  'bus-err-path-400-text': {
    answer: (a) =>
      a.refusedBy === 'parameters' && a.facts?.problems?.some((p) => p.field.startsWith('path.'))
        ? { ...withHeader(a, 'content-type', 'text/plain; charset=utf-8'), body: `Bad Request: ${errorMessageOf(a)}` }
        : a,
  },
  'bus-err-enum-extra-field': {
    answer: editBody<RuntimeAnswer, Node>(
      (a) => VALIDATION_REFUSALS.has(a.refusedBy ?? '') && a.facts?.op.key === CHECKOUT_V2_CREATE,
      (b) => void (b.invalidValue = 'NOT_A_DELIVERY'),
    ),
  },
};

/** The runtime's faults: the data of faults.ts, each with its edit. */
export const RUNTIME_MODIFIER_FAULTS: Array<ModifierFault<RuntimeShape> & Omit<FaultEdit, keyof Edit>> = [
  ...RUNTIME_FAULTS,
  ...RULE_FAULTS,
].map((fault) => {
  const edit = EDITS[fault.id];
  if (!edit) throw new Error(`business fault ${fault.id} has no edit in fault-modifiers.ts`);
  return { ...fault, ...edit };
});

for (const id of Object.keys(EDITS))
  if (!RUNTIME_MODIFIER_FAULTS.some((f) => f.id === id)) throw new Error(`fault-modifiers.ts edits ${id}, which faults.ts does not list`);

/** The handler's rules and settings with the faults and latitudes that are on, and their edits of the answer. */
export const runtimeModifiers = (faults: FaultSet, latitudes: ModifierVariation<RuntimeShape>[] = []) =>
  modifiersOf<RuntimeShape>([...RUNTIME_MODIFIER_FAULTS, ...latitudes], faults, { checks: RUNTIME_RULES, settings: BEHAVIOUR_SETTINGS });
