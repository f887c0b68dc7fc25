/**
 * What each business operation does, beyond the resource table: the company's cards (seeded, paged,
 * blocked), bank payments with the default ruble-transfer limit of part 8, the asynchronous
 * registries answered through their correlation ids, partner counters, and for everything else a
 * plausible answer synthesized from the document, echoing the identifiers the caller sent.
 */
import { randomUUID } from 'node:crypto';
import { isNode, type Node } from './operations.ts';
import { RESOURCE_SETTINGS, resourceBehaviour, seedRecord, type ResourceSettings } from './resources.ts';
import { Synthesizer } from './synthesize.ts';
import { listAnswer, notFound, project, propertyPointers, unprocessable, type WorldAnswer, type Input, type World } from './world.ts';
import { validAt } from './validate.ts';
import { seedFixtures } from './fixtures.ts';
import { bankPayment, PAYMENT_SETTINGS, type PaymentSettings } from './payments.ts';

/** What the behaviours read besides the request: the limits, what is kept, the default page of cards. */
export type BehaviourSettings = PaymentSettings & ResourceSettings & { 'cards.defaultLimit': number };

export const BEHAVIOUR_SETTINGS: BehaviourSettings = { ...PAYMENT_SETTINGS, ...RESOURCE_SETTINGS, 'cards.defaultLimit': 1000 };

type Behaviour = (world: World, input: Input, settings: BehaviourSettings) => WorldAnswer;

const ACCOUNTS = ['40702810110011000001', '40702810110011000002'];
/** More cards than a short default page would show, fewer than the documented 1000. */
export const SEEDED_CARDS = 150;
/** A seeded virtual card (every fifth is): the fixture the target file names for the card reads. */
export const VIRTUAL_CARD_UCID = 100_005;
/** A self-employed taxpayer who is not ACTIVE: the sandbox accepts its receipts, then fails them. */
export const INACTIVE_TAXPAYER_INN = '772000000019';
const RECEIPTS = 'POST /api/v1/self-employed/taxpayers/{inn}/receipts';

export function seedWorld(world: World): void {
  for (let i = 1; i <= SEEDED_CARDS; i++) {
    const virtual = i % 5 === 0;
    seedRecord(world, 'card', {
      ucid: 100_000 + i,
      accountNumber: ACCOUNTS[i % 2],
      cardBin: '220070',
      cardLastFourDigits: String(1000 + i).slice(-4),
      embossedName: 'SANDBOX COMPANY',
      isActive: true,
      status: 'NORM',
      cardType: virtual ? 'VIRTUAL' : 'PHYSICAL',
      paymentSystem: 'MIR',
      agreementNumber: `AGR-${(i % 3) + 1}`,
    });
  }
  // More applications than a page of one holds, so that the paging of 4.5 can be seen.
  for (const [i, status] of (['IN_PROGRESS', 'ISSUED', 'REJECTED'] as const).entries()) {
    seedRecord(world, 'virtual-card-application', {
      applicationId: randomUUID(),
      status,
      createdAt: new Date(Date.UTC(2026, 0, 10 + i)).toISOString(),
      ...(status === 'ISSUED' ? { ucid: VIRTUAL_CARD_UCID } : {}),
    });
  }
  for (let d = 0; d < 3; d++) {
    const dealId = randomUUID();
    seedRecord(world, 'deal', { dealId, accountNumber: ACCOUNTS[0], status: 'ACTIVE', stepsCount: 2, createdAt: new Date().toISOString() });
    for (let s = 1; s <= 2; s++) {
      const stepId = randomUUID();
      seedRecord(world, 'step', { dealId, stepId, stepNumber: s, status: 'NEW' });
      seedRecord(world, 'deponent', { dealId, stepId, beneficiaryId: randomUUID(), amount: 1000 * s });
    }
  }
  seedFixtures(world, ACCOUNTS[0]);
}

const card = (world: World, ucid: unknown) => world.get('card', String(ucid));

function cardsList(world: World, input: Input, settings: BehaviourSettings): WorldAnswer {
  const cards = world
    .all('card')
    .filter((c) => ['accountNumber', 'agreementNumber'].every((name) => input.query[name] === undefined || c[name] === input.query[name]));
  return listAnswer(input.op, cards, input, settings['cards.defaultLimit']);
}

function cardRead(world: World, input: Input): WorldAnswer {
  const found = card(world, input.path.ucid);
  return found
    ? { status: 200, body: project(found, input.op.success.schema!, String(found.ucid)) }
    : notFound(`card ${String(input.path.ucid)}`);
}

function cardBlock(world: World, input: Input): WorldAnswer {
  const found = card(world, input.path.ucid);
  if (!found) return notFound(`card ${String(input.path.ucid)}`);
  if (found.status === 'CLOSED') return unprocessable('CARD_CLOSED', 'a closed card cannot be blocked');
  Object.assign(found, { status: 'BLOCKED', isActive: false });
  return { status: 200, body: { ucid: found.ucid, status: 'BLOCKED' } };
}

function cardRequisites(world: World, input: Input): WorldAnswer {
  const found = card(world, input.path.ucid);
  if (!found || found.cardType !== 'VIRTUAL') return notFound(`virtual card ${String(input.path.ucid)}`);
  return {
    status: 200,
    body: { ...(project(found, input.op.success.schema!, String(found.ucid)) as Node), ucid: found.ucid, embossedName: found.embossedName },
  };
}

function cardLimits(world: World, input: Input): WorldAnswer {
  const limits = (input.body as { limits: Array<{ ucid: number; limitType: string }> }).limits;
  const results = limits.map((l) => {
    const found = card(world, l.ucid);
    return found && found.status === 'NORM'
      ? { ucid: l.ucid, limitType: l.limitType, status: 'APPLIED' }
      : {
          ucid: l.ucid,
          limitType: l.limitType,
          status: 'REJECTED',
          errorMessage: found ? `card is ${String(found.status)}` : 'no such card',
        };
  });
  return { status: 200, body: { results } };
}

function bankPaymentRead(world: World, input: Input): WorldAnswer {
  const found = world.get('bank-payment', String(input.path.paymentId));
  return found
    ? { status: 200, body: project(found, input.op.success.schema!, String(found.paymentId)) }
    : notFound(`payment ${String(input.path.paymentId)}`);
}

function bankPaymentStatuses(world: World, input: Input): WorldAnswer {
  const ids = (input.body as { paymentIds: string[] }).paymentIds;
  const payments = ids.map((id) => world.get('bank-payment', id)).filter((p) => p !== undefined);
  return { status: 200, body: { payments: payments.map((p) => ({ paymentId: p.paymentId, status: p.status, updatedAt: p.updatedAt })) } };
}

/**
 * A receipt (2.6, 3.2): creation answers IN_PROGRESS with a REGISTRATION operation in progress; for a
 * taxpayer who is not ACTIVE the registration then fails, and the receipt reads back FAILED with the
 * operation's errorMessage.
 */
function receiptCreate(world: World, input: Input, settings: BehaviourSettings): WorldAnswer {
  const created = resourceBehaviour(RECEIPTS)!(world, input, settings);
  if (created.error || !isNode(created.body)) return created;
  const inn = String(input.path.inn);
  const record = world.get('receipt', `${inn}/${String(created.body.receiptId)}`);
  if (!record) return created;
  const createdAt = new Date().toISOString();
  Object.assign(record, { status: 'IN_PROGRESS', operations: [{ type: 'REGISTRATION', status: 'IN_PROGRESS', createdAt }] });
  const answer: WorldAnswer = { status: created.status, body: project(record, input.op.success.schema!, String(record.__key)) };
  if (inn === INACTIVE_TAXPAYER_INN) {
    Object.assign(record, {
      status: 'FAILED',
      operations: [
        {
          type: 'REGISTRATION',
          status: 'FAILED',
          createdAt,
          errorMessage: `taxpayer ${inn} is not ACTIVE: the income cannot be registered`,
        },
      ],
    });
  }
  return answer;
}

type Outcome = { result: Node } | { answer: WorldAnswer };

/** An asynchronous request: the body's correlationId keys the result a later GET ?correlationId= reads. */
function accept(kind: string, outcomeOf: (world: World, input: Input) => Outcome): Behaviour {
  return (world, input) => {
    const correlationId = String((input.body as { correlationId: string }).correlationId);
    const outcome = outcomeOf(world, input);
    if ('answer' in outcome) return outcome.answer;
    world.put(kind, correlationId, { ...outcome.result, correlationId });
    return { status: 200, body: { correlationId } };
  };
}

function resultOf(kind: string): Behaviour {
  return (world, input) => {
    const found = world.get(kind, String(input.query.correlationId));
    return found
      ? { status: 200, body: project(found, input.op.success.schema!, String(found.correlationId)) }
      : notFound(`result ${String(input.query.correlationId)}`);
  };
}

function registry(kind: string): (world: World, input: Input) => Outcome {
  return (world, input) => {
    const body = input.body as { companyAccountNumber: string; payments: Array<{ sum: number }> };
    const paymentRegistryId = world.nextInt();
    const payments = body.payments.map((p) => ({ ...p, status: 'ACCEPTED' }));
    const totalSum = Math.round(body.payments.reduce((sum, p) => sum + p.sum, 0) * 100) / 100;
    seedRecord(world, kind, { ...body, paymentRegistryId, status: 'DRAFT', paymentsCount: payments.length, totalSum, payments });
    return { result: { result: 'CREATED', paymentRegistryId } };
  };
}

function registryStep(next: string): (world: World, input: Input) => Outcome {
  return (world, input) => {
    const id = (input.body as { paymentRegistryId: number }).paymentRegistryId;
    const found = world.get('se-registry', String(id));
    if (!found) return { answer: notFound(`payment registry ${id}`) };
    found.status = next;
    return { result: { paymentRegistryId: id, status: next, receipts: [] } };
  };
}

function registryPay(world: World, input: Input): WorldAnswer {
  const id = (input.body as { paymentRegistryId: number }).paymentRegistryId;
  const found =
    world.get('se-registry', String(id)) ??
    (input.op.template.startsWith('/api/v1/payment/') ? world.get('salary-registry', String(id)) : undefined);
  if (!found) return notFound(`payment registry ${id}`);
  found.status = 'EXECUTED';
  return { status: 200, body: project({ paymentRegistryId: id, status: 'EXECUTED' }, input.op.success.schema!, String(id)) };
}

function counters(world: World, input: Input): WorldAnswer {
  const clientId = String(input.path.clientId);
  const found = world.get('detail-counters', clientId) ?? world.put('detail-counters', clientId, { clientId, counters: [] });
  if (input.op.method === 'POST') {
    const { serviceCode, increment } = input.body as { serviceCode: string; increment?: number };
    const list = found.counters as Array<{ serviceCode: string; count: number; updatedAt: string }>;
    const counter =
      list.find((c) => c.serviceCode === serviceCode) ?? (list.push({ serviceCode, count: 0, updatedAt: '' }), list[list.length - 1]);
    counter.count += increment ?? 1;
    counter.updatedAt = new Date().toISOString();
  }
  return { status: 200, body: project(found, input.op.success.schema!, clientId) };
}

const SE = '/api/v1/self-employed';

const SPECIFIC: Record<string, Behaviour> = {
  'GET /api/v1/card': cardsList,
  'GET /api/v3/card': cardsList,
  'GET /api/v1/card/{ucid}': cardRead,
  'POST /api/v1/card/{ucid}/block': cardBlock,
  'GET /api/v1/card/virtual/{ucid}/requisites': cardRequisites,
  'PUT /api/v3/card/limits/set_batch': cardLimits,
  'POST /api/v1/payment/ruble-transfer/pay': bankPayment,
  'POST /api/v1/payment/card-transfer/pay': bankPayment,
  'POST /api/v1/payment/sbp/pay': bankPayment,
  'GET /api/v1/payment/{paymentId}': bankPaymentRead,
  [RECEIPTS]: receiptCreate,
  'POST /api/v1/payment/status': bankPaymentStatuses,
  'POST /api/v1/payment/payment-registry/pay': registryPay,
  [`POST ${SE}/recipients/create`]: accept('se-recipients-result', (world, input) => ({
    result: {
      recipients: (input.body as { recipients: Node[] }).recipients.map((r) => ({ ...r, recipientId: world.nextInt(), status: 'CREATED' })),
    },
  })),
  [`GET ${SE}/recipients/create/result`]: resultOf('se-recipients-result'),
  [`POST ${SE}/payment-registry/create`]: accept('se-registry-result', registry('se-registry')),
  [`GET ${SE}/payment-registry/create/result`]: resultOf('se-registry-result'),
  [`POST ${SE}/payment-registry/submit`]: accept('se-submit-result', registryStep('ACCEPTED')),
  [`GET ${SE}/payment-registry/submit/result`]: resultOf('se-submit-result'),
  [`POST ${SE}/payment-registry/receipts`]: accept('se-receipts-result', registryStep('EXECUTED')),
  [`GET ${SE}/payment-registry/receipts/result`]: resultOf('se-receipts-result'),
  [`POST ${SE}/payment-registry/pay`]: registryPay,
  [`GET ${SE}/payment-registry/{paymentRegistryId}`]: (world, input) => readById(world, input, 'se-registry', 'paymentRegistryId'),
  'POST /api/v1/salary/payment-registry/create': accept('salary-registry-result', registry('salary-registry')),
  'GET /api/v1/salary/payment-registry/': (world, input) => listAnswer(input.op, world.all('salary-registry'), input),
  'POST /api/v1/safe-deal/beneficiaries': accept('safe-deal-result', (_w, input) => ({
    result: {
      beneficiaries: (input.body as { beneficiaries: Node[] }).beneficiaries.map((b) => ({
        number: b.number,
        beneficiaryId: randomUUID(),
        status: 'CREATED',
      })),
    },
  })),
  'GET /api/v1/safe-deal/beneficiaries/result': resultOf('safe-deal-result'),
  'GET /api/v1/individual/detail-counters/{clientId}': counters,
  'POST /api/v1/individual/detail-counters/{clientId}': counters,
};

function readById(world: World, input: Input, kind: string, param: string): WorldAnswer {
  const found = world.get(kind, String(input.path[param]));
  return found
    ? { status: 200, body: project(found, input.op.success.schema!, String(input.path[param])) }
    : notFound(`${kind} ${String(input.path[param])}`);
}

/** A plausible answer from the success schema, the same for the same request, echoing its identifiers. */
function synthesized(_world: World, input: Input): WorldAnswer {
  const pointer = input.op.success.schema;
  if (!pointer) return { status: input.op.success.status };
  const seed = `${input.op.key} ${JSON.stringify(input.path)} ${JSON.stringify(input.query)}`;
  const body = new Synthesizer(seed).value(pointer);
  if (isNode(body)) {
    const sent = { ...(isNode(input.body) ? input.body : {}), ...input.query, ...input.path };
    for (const [name, propPointer] of propertyPointers(pointer))
      if (name in sent && validAt(propPointer, sent[name])) body[name] = sent[name];
  }
  return { status: input.op.success.status, body };
}

export function behaviourOf(opKey: string): Behaviour {
  return SPECIFIC[opKey] ?? resourceBehaviour(opKey) ?? synthesized;
}
