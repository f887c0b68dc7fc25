/**
 * The business resources the sandbox keeps: what creates one, what reads, changes, lists, deletes it
 * and which actions move its status. The sandbox's own reading of 4.5 (the spec shows no payloads):
 * a resource's key is the values of `key` (the parent's key first, its own id last), and a child is
 * refused with 404 while its parent is missing. Everything the table does not name is answered by the
 * generic synthesizer (behaviours.ts).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { isNode, operationByKey } from './operations.ts';
import { Synthesizer } from './synthesize.ts';
import { listAnswer, notFound, overlay, project, unprocessable, type WorldAnswer, type Input, type Record_, type World } from './world.ts';

export interface ResourceSpec {
  kind: string;
  key: string[];
  parent?: string;
  /** How a create makes the last key property: fresh, or given by the caller in the body. */
  newId: 'uuid' | 'int' | 'hex12' | 'body' | 'body-or-int';
  create?: string[];
  read?: string[];
  update?: string[];
  remove?: string[];
  list?: string[];
  /** Status moves: operation -> new status, and the statuses from which the move is refused (422). */
  actions?: Record<string, { set: Record_; refusedFrom?: string[] }>;
  /** Fields every new record starts with. */
  initial?: Record_;
}

const NOMINAL = '/api/v1/nominal-accounts';
const DEAL_STEP = `${NOMINAL}/deals/{dealId}/steps/{stepId}`;
const BENEFICIARY = `${NOMINAL}/beneficiaries/{beneficiaryId}`;

export const RESOURCES: ResourceSpec[] = [
  {
    kind: 'checkout-order-v2',
    key: ['shopId', 'orderId'],
    newId: 'body',
    create: ['POST /api/v2/checkout/order'],
    read: ['GET /api/v2/checkout/order/{shopId}/by/{orderId}'],
    initial: { status: 'NEW' },
  },
  {
    kind: 'checkout-order-v1',
    key: ['shopId', 'orderId'],
    newId: 'body',
    create: ['POST /api/v1/checkout/order'],
    read: ['GET /api/v1/checkout/order/{shopId}/by/{orderId}'],
    initial: { status: 'NEW' },
  },
  {
    kind: 'beneficiary',
    key: ['beneficiaryId'],
    newId: 'uuid',
    create: [`POST ${NOMINAL}/beneficiaries`],
    update: [`PUT ${BENEFICIARY}`],
    initial: { isBlocked: false },
  },
  {
    kind: 'bank-details',
    key: ['beneficiaryId', 'bankDetailsId'],
    parent: 'beneficiary',
    newId: 'uuid',
    create: [`POST ${BENEFICIARY}/bank-details`],
    read: [`GET ${BENEFICIARY}/bank-details/{bankDetailsId}`],
    update: [`POST ${BENEFICIARY}/bank-details/{bankDetailsId}`],
    remove: [`DELETE ${BENEFICIARY}/bank-details/{bankDetailsId}`],
    list: [`GET ${BENEFICIARY}/bank-details`],
  },
  {
    kind: 'add-card-request',
    key: ['beneficiaryId', 'addCardRequestId'],
    parent: 'beneficiary',
    newId: 'uuid',
    create: [`POST ${BENEFICIARY}/add-card-requests`],
    read: [`GET ${BENEFICIARY}/add-card-requests/{addCardRequestId}`],
    initial: { status: 'NEW' },
  },
  { kind: 'deal', key: ['dealId'], newId: 'uuid', list: [`GET ${NOMINAL}/deals`], remove: [`DELETE ${NOMINAL}/deals/{dealId}`] },
  {
    kind: 'step',
    key: ['dealId', 'stepId'],
    parent: 'deal',
    newId: 'uuid',
    list: [`GET ${NOMINAL}/deals/{dealId}/steps`],
    remove: [`DELETE ${DEAL_STEP}`],
  },
  {
    kind: 'recipient',
    key: ['dealId', 'stepId', 'recipientId'],
    parent: 'step',
    newId: 'uuid',
    create: [`POST ${DEAL_STEP}/recipients`],
    read: [`GET ${DEAL_STEP}/recipients/{recipientId}`],
    remove: [`DELETE ${DEAL_STEP}/recipients/{recipientId}`],
    list: [`GET ${DEAL_STEP}/recipients`],
    initial: { status: 'NEW' },
  },
  {
    kind: 'deponent',
    key: ['dealId', 'stepId', 'beneficiaryId'],
    parent: 'step',
    newId: 'uuid',
    read: [`GET ${DEAL_STEP}/deponents/{beneficiaryId}`],
    remove: [`DELETE ${DEAL_STEP}/deponents/{beneficiaryId}`],
  },
  {
    kind: 'nominal-payment',
    key: ['paymentId'],
    newId: 'uuid',
    create: [`POST ${NOMINAL}/payments`],
    read: [`GET ${NOMINAL}/payments/{paymentId}`],
    list: [`GET ${NOMINAL}/payments`],
  },
  {
    kind: 'transfer',
    key: ['transferId'],
    newId: 'uuid',
    create: [`POST ${NOMINAL}/virtual-accounts/transfers`],
    read: [`GET ${NOMINAL}/virtual-accounts/transfers/{transferId}`],
    list: [`GET ${NOMINAL}/virtual-accounts/transfers`],
  },
  {
    kind: 'rule',
    key: ['ruleId'],
    newId: 'uuid',
    create: ['POST /api/v1/rules'],
    read: ['GET /api/v1/rules/{ruleId}'],
    update: ['PUT /api/v1/rules/{ruleId}'],
    list: ['GET /api/v2/rules', 'GET /api/v1/rules'],
    initial: { status: 'ACTIVE' },
  },
  {
    kind: 'receipt',
    key: ['inn', 'receiptId'],
    newId: 'uuid',
    create: ['POST /api/v1/self-employed/taxpayers/{inn}/receipts'],
    read: ['GET /api/v1/self-employed/taxpayers/{inn}/receipts/{receiptId}'],
    initial: { status: 'IN_PROGRESS' },
  },
  {
    kind: 'invoice',
    key: ['invoiceId'],
    newId: 'uuid',
    create: ['POST /api/v1/invoice/send'],
    read: ['GET /api/v1/openapi/invoice/{invoiceId}/info'],
    initial: { status: 'NEW' },
  },
  {
    kind: 'e-invoice',
    key: ['id'],
    newId: 'uuid',
    create: ['POST /api/v1/e-invoice'],
    read: ['GET /api/v1/e-invoice/{id}/status'],
    actions: {
      'POST /api/v1/e-invoice/{id}/confirm': { set: { status: 'CONFIRMED' }, refusedFrom: ['CANCELLED', 'PAID'] },
      'POST /api/v1/e-invoice/{id}/cancel': { set: { status: 'CANCELLED' }, refusedFrom: ['PAID'] },
    },
    initial: { status: 'SENT' },
  },
  {
    kind: 'delivery-task',
    key: ['id'],
    newId: 'hex12',
    create: ['POST /api/v1/delivery/tasks'],
    read: ['GET /api/v1/delivery/tasks/{id}'],
    update: ['PUT /api/v1/delivery/tasks/{id}'],
    actions: { 'POST /api/v1/delivery/tasks/{id}/cancel': { set: { status: 'CANCELLED' }, refusedFrom: ['DONE'] } },
    initial: { status: 'NEW' },
  },
  // Paginated (4.5): the list pages by offset and limit like every list of the table.
  { kind: 'virtual-card-application', key: ['applicationId'], newId: 'uuid', list: ['GET /api/v3/card/virtual/issue/application'] },
  {
    kind: 'signature-issue',
    key: ['issueRequestId'],
    newId: 'uuid',
    create: ['POST /tls/api/v1/qualified-digital-signature/issue'],
    read: [
      'GET /tls/api/v1/qualified-digital-signature/issue/{issueRequestId}/status',
      'GET /tls/api/v1/qualified-digital-signature/issue/{issueRequestId}/certificate',
      'GET /tls/api/v1/qualified-digital-signature/issue/{issueRequestId}/certificate-request',
    ],
    actions: {
      'PUT /tls/api/v1/qualified-digital-signature/issue/{issueRequestId}/certificate-request': {
        set: { status: 'IN_PROGRESS' },
        refusedFrom: ['ISSUED', 'REJECTED'],
      },
    },
    initial: { status: 'WAITING_CERTIFICATE_REQUEST' },
  },
  // Kept by behaviours.ts, which needs no operation table for them.
  { kind: 'card', key: ['ucid'], newId: 'int' },
  { kind: 'bank-payment', key: ['paymentId'], newId: 'uuid' },
  { kind: 'se-registry', key: ['paymentRegistryId'], newId: 'int' },
  { kind: 'salary-registry', key: ['paymentRegistryId'], newId: 'int' },
  ...['', '/demo'].map((demo) => ({
    kind: `offline-order${demo}`,
    key: ['orderNumber'],
    newId: 'body-or-int' as const,
    create: [`POST /api/offline/partners/v1${demo}/create`],
    read: [`GET /api/offline/partners/v1${demo}/orders/{orderNumber}/info`],
    actions: {
      [`POST /api/offline/partners/v1${demo}/orders/{orderNumber}/cancel`]: { set: { status: 'canceled' }, refusedFrom: ['committed'] },
      [`POST /api/offline/partners/v1${demo}/orders/{orderNumber}/commit`]: {
        set: { status: 'committed' },
        refusedFrom: ['canceled', 'rejected'],
      },
    },
    initial: { status: 'new' },
  })),
];

const keyOf = (spec: ResourceSpec, values: Record<string, unknown>) => spec.key.map((k) => String(values[k])).join('/');
const byKind = new Map(RESOURCES.map((r) => [r.kind, r]));

function parentMissing(world: World, spec: ResourceSpec, values: Record<string, unknown>): WorldAnswer | undefined {
  if (!spec.parent) return undefined;
  const parent = byKind.get(spec.parent)!;
  if (!world.get(parent.kind, keyOf(parent, values))) return notFound(`${parent.kind} ${keyOf(parent, values)}`);
  return parentMissing(world, parent, values);
}

function newId(world: World, spec: ResourceSpec, body: Record_): string | number | undefined {
  const name = spec.key[spec.key.length - 1];
  switch (spec.newId) {
    case 'uuid':
      return randomUUID();
    case 'int':
      return world.nextInt();
    case 'hex12':
      return randomBytes(6).toString('hex');
    case 'body':
      return body[name] as string | undefined;
    case 'body-or-int':
      return (body[name] as string | undefined) ?? `PC-${world.nextInt()}`;
  }
}

const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const TIMESTAMPS = ['createdAt', 'updatedAt'];

/** What the resource behaviours keep, as the specification says: a created rule is kept, a deleted record is gone. */
export interface ResourceSettings {
  'rules.keptWhenCreated': boolean;
  'deleted.removed': boolean;
}

export const RESOURCE_SETTINGS: ResourceSettings = { 'rules.keptWhenCreated': true, 'deleted.removed': true };

function create(world: World, spec: ResourceSpec, input: Input, settings: ResourceSettings): WorldAnswer {
  const body = isNode(input.body) ? input.body : {};
  const values: Record_ = { ...body, ...input.path };
  const missing = parentMissing(world, spec, values);
  if (missing) return missing;
  values[spec.key[spec.key.length - 1]] = newId(world, spec, body);
  const key = keyOf(spec, values);
  if (world.get(spec.kind, key)) return unprocessable('ALREADY_EXISTS', `${spec.kind} ${key} already exists`);
  const pointer = input.op.success.schema!;
  const record = overlay(new Synthesizer(`${spec.kind}:${key}`).value(pointer) as Record_, body, pointer);
  for (const name of spec.key) record[name] = values[name];
  for (const name of TIMESTAMPS) if (name in record) record[name] = now();
  Object.assign(record, spec.initial ?? {});
  if (spec.kind !== 'rule' || settings['rules.keptWhenCreated']) world.put(spec.kind, key, record);
  return { status: input.op.success.status, body: project(record, pointer, key) };
}

function found(world: World, spec: ResourceSpec, input: Input): { record: Record_ } | { answer: WorldAnswer } {
  const missing = parentMissing(world, spec, input.path);
  if (missing) return { answer: missing };
  const key = keyOf(spec, input.path);
  const record = world.get(spec.kind, key);
  return record ? { record } : { answer: notFound(`${spec.kind} ${key}`) };
}

function respond(record: Record_, input: Input): WorldAnswer {
  const pointer = input.op.success.schema;
  return { status: input.op.success.status, body: pointer ? project(record, pointer, String(record.__key)) : undefined };
}

function list(world: World, spec: ResourceSpec, input: Input): WorldAnswer {
  const missing = parentMissing(world, spec, input.path);
  if (missing) return missing;
  const filters = { ...input.path, ...input.query };
  const records = world
    .all(spec.kind)
    .filter((r) =>
      Object.entries(filters).every(
        ([name, value]) =>
          ['offset', 'limit'].includes(name) || !(name in r) || typeof r[name] === 'object' || String(r[name]) === String(value),
      ),
    );
  return listAnswer(input.op, records, input);
}

/** The resource behaviour for an operation, when the table names it. */
export function resourceBehaviour(opKey: string): ((world: World, input: Input, settings: ResourceSettings) => WorldAnswer) | undefined {
  for (const spec of RESOURCES) {
    if (spec.create?.includes(opKey)) return (world, input, settings) => create(world, spec, input, settings);
    if (spec.list?.includes(opKey)) return (world, input) => list(world, spec, input);
    if (spec.read?.includes(opKey)) {
      return (world, input) => {
        const lookup = found(world, spec, input);
        return 'answer' in lookup ? lookup.answer : respond(lookup.record, input);
      };
    }
    if (spec.update?.includes(opKey)) {
      return (world, input) => {
        const lookup = found(world, spec, input);
        if ('answer' in lookup) return lookup.answer;
        const { record } = lookup;
        overlay(record, input.body, input.op.success.schema ?? input.op.body!.schema);
        if ('updatedAt' in record) record.updatedAt = now();
        return respond(record, input);
      };
    }
    if (spec.remove?.includes(opKey)) {
      return (world, input, settings) => {
        const lookup = found(world, spec, input);
        if ('answer' in lookup) return lookup.answer;
        if (settings['deleted.removed']) world.remove(spec.kind, String(lookup.record.__key));
        return { status: input.op.success.status };
      };
    }
    const action = spec.actions?.[opKey];
    if (action) {
      return (world, input) => {
        const lookup = found(world, spec, input);
        if ('answer' in lookup) return lookup.answer;
        const { record } = lookup;
        if (action.refusedFrom?.includes(String(record.status)))
          return unprocessable('INVALID_STATE', `${spec.kind} is ${String(record.status)}`);
        Object.assign(record, action.set);
        if ('updatedAt' in record) record.updatedAt = now();
        return respond(record, input);
      };
    }
  }
  return undefined;
}

/** Every operation key the table names, checked against the document at start (a typo fails loudly). */
export function checkTable(): void {
  for (const spec of RESOURCES) {
    for (const key of [
      ...(spec.create ?? []),
      ...(spec.read ?? []),
      ...(spec.update ?? []),
      ...(spec.remove ?? []),
      ...(spec.list ?? []),
      ...Object.keys(spec.actions ?? {}),
    ])
      operationByKey(key);
  }
}

export function seedRecord(world: World, kind: string, record: Record_): Record_ {
  const spec = byKind.get(kind);
  if (!spec) throw new Error(`sandbox business runtime: unknown resource kind ${kind}`);
  return world.put(kind, keyOf(spec, record), record);
}
