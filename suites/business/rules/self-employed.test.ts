/**
 * Self-employed receipts and payment registries (spec 2.6, 3.2, 4.5) at runtime: a created receipt
 * answers IN_PROGRESS, no receipt is ever NEW, an errorMessage (optional for FAILED operations) is a
 * string where an operation carries one, and a payment-registry create is followed by its result and the registry itself (the
 * vendor's values). A receipt is judged only when its create was the documented success.
 * The taxpayer is services.business.rules.selfEmployed.inn (a generated one where the target file has
 * none); inactiveInn, when given, is a taxpayer whose receipts the target fails.
 */
import { jsonWhereBody } from '../../../harness/checks/json-answer.ts';
import { randomUUID } from 'node:crypto';
import { failure, type Failure } from '../../../harness/checks/failure.ts';
import { statusIn } from '../../../harness/checks/status.ts';
import { inconclusive, ToolError } from '../../../harness/errors.ts';
import type { CapturedResponse } from '../../../harness/request/http.ts';
import { requirementTest } from '../../../harness/test/suite.ts';
import type { GeneratedRequest } from '../../../harness/business/runtime/request.ts';
import type { OperationPlan } from '../../../harness/business/runtime/plan.ts';
import { runtimePlan } from '../../../generators/business/plan.ts';
import { accepted, controlRefused, generatedRequest, rulesConfig, submit } from '../../../harness/business/rules/rules.ts';
import { isJsonObject, type JsonObject } from '../../../harness/text/json.ts';
import { rulesBlock } from '../../../harness/business/blocks.ts';

const plan = await runtimePlan();

const SE = '/api/v1/self-employed';
const RECEIPT_CREATE = `POST ${SE}/taxpayers/{inn}/receipts`;
const RECEIPT_READ = `GET ${SE}/taxpayers/{inn}/receipts/{receiptId}`;
const REGISTRY_CREATE = `POST ${SE}/payment-registry/create`;
const REGISTRY_RESULT = `GET ${SE}/payment-registry/create/result`;
const REGISTRY_READ = `GET ${SE}/payment-registry/{paymentRegistryId}`;
/** Public facts: create results and registry statuses of the vendor. */
const CREATE_RESULTS = ['CREATED', 'ERROR', 'QUEUED'];
const REGISTRY_STATUSES = ['DRAFT', 'ERROR', 'ACCEPTED', 'EXECUTED', 'PART_EXEC', 'REJECTED', 'CANCELLED', 'DELETED'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A receipt create for the taxpayer, generated from the served document. */
function receipt(op: OperationPlan, inn: string | undefined, purpose: string): GeneratedRequest {
  const request = generatedRequest(op, purpose);
  return { ...request, path: { ...request.path, ...(inn ? { inn } : {}) } };
}

/** The receipt an answer shows: a JSON object labelled JSON (an answer that is not is BUS-RUN-004's to judge, and shows none). */
const receiptOf = (res: CapturedResponse): JsonObject => (isJsonObject(res.json) && !jsonWhereBody(res, '').length ? res.json : {});
const operationsOf = (r: JsonObject): JsonObject[] => (Array.isArray(r.operations) ? r.operations.filter(isJsonObject) : []);

/**
 * BUS-SEL-003 on one receipt answer: errorMessage is optional for FAILED operations, and where an
 * operation carries one it is a string. An errorMessage on another status is no failure (2.6 does not
 * say it appears only on FAILED operations).
 */
function errorMessages(r: JsonObject, id: string, where: string): Failure[] {
  return operationsOf(r).flatMap((op, i) =>
    op.errorMessage === undefined || typeof op.errorMessage === 'string'
      ? []
      : [
          failure(
            id,
            'errorMessage, where an operation carries one, a string',
            `operation ${i} of ${where} (${JSON.stringify(op.status)}) has errorMessage ${JSON.stringify(op.errorMessage)}`,
            `/operations/${i}/errorMessage`,
          ),
        ],
  );
}

rulesBlock(
  plan,
  'business rules: self-employed receipts (2.6, 3.2)',
  ['BUS-SEL-001', 'BUS-SEL-002', 'BUS-SEL-003'],
  [RECEIPT_CREATE, RECEIPT_READ],
  ([create, read]) => {
    const config = rulesConfig().selfEmployed ?? {};

    /** Creates a receipt and reads back one that was created (2xx); both answers. */
    async function createAndRead(inn: string | undefined, purpose: string, what: string) {
      const request = receipt(create, inn, purpose);
      const created = await submit(create, request, what);
      if (created.status < 200 || created.status > 299) return { created };
      const body = receiptOf(created);
      const receiptId = body.receiptId;
      if (receiptId === undefined) return { created };
      const readRes = await submit(read, { path: { inn: request.path.inn, receiptId }, query: {}, header: {} }, `${what}, read back`);
      return { created, read: readRes };
    }

    requirementTest('BUS-SEL-001', { row: 'a created receipt answers IN_PROGRESS' }, async (t) => {
      const { created } = await createAndRead(config.inn, 'receipt', 'a receipt');
      const status = receiptOf(created).status;
      // A receipt generated from the document may meet a rule of the vendor's that 2.6 does not give: no receipt, no status to judge.
      // A receipt answered (2xx) with a status is judged by it, whether or not the rest of its body is as documented (BUS-RUN-004's).
      if (created.status < 200 || created.status > 299 || status === undefined) controlRefused('a receipt create', created);
      t.expectNone(
        status === 'IN_PROGRESS'
          ? []
          : [failure(t.id, 'status IN_PROGRESS (3.2: returned by receipt creation)', `status ${JSON.stringify(status)}`, '/status')],
        created,
      );
    });

    const taxpayers: Array<[string | undefined, string]> = [
      [config.inn, 'the taxpayer'],
      ...(config.inactiveInn ? [[config.inactiveInn, 'the inactive taxpayer'] as [string, string]] : []),
    ];
    taxpayers.forEach(([inn, who], i) => {
      requirementTest('BUS-SEL-002', { row: `receipts of ${who} are never NEW` }, async (t) => {
        const { created, read: back } = await createAndRead(inn, `taxpayer ${i}`, `a receipt of ${who}`);
        let judged = 0;
        for (const [res, where] of [
          [created, 'the create answer'],
          [back, 'the read'],
        ] as const) {
          if (!res || res.status >= 300) continue;
          const status = receiptOf(res).status;
          if (status !== undefined) judged++;
          t.expectNone(
            status === 'NEW'
              ? [failure(t.id, 'a receipt status other than NEW (removed in 2.6)', `status "NEW" in ${where}`, '/status')]
              : [],
            res,
          );
        }
        // NEW fails whatever else the answer shows; any other status counts only on a create answered as documented.
        if (accepted(create, created, t.id).length) controlRefused(`a receipt create for ${who}`, created);
        if (!judged) throw inconclusive('PRECONDITION_MISSING', 'no receipt answer carries a status, so none can be told from NEW');
      });
    });

    // One row over every taxpayer's receipts: an errorMessage is what a failed registration carries, and
    // only the inactive taxpayer's fails, so a row of the active one alone would never judge anything.
    requirementTest(
      'BUS-SEL-003',
      { row: `errorMessage, where present, is a string: receipts of ${taxpayers.map(([, who]) => who).join(' and ')}` },
      async (t) => {
        const answers = await Promise.all(taxpayers.map(([inn, who], i) => createAndRead(inn, `concurrent ${i}`, `a receipt of ${who}`)));
        const served = answers.filter(({ created }) => accepted(create, created, t.id).length === 0);
        if (!served.length) controlRefused(`a receipt create for ${taxpayers[0][1]}`, answers[0].created);
        const seen = served
          .flatMap(({ created, read: back }) => [created, back])
          .filter((r): r is CapturedResponse => r !== undefined && r.status < 300);
        for (const res of seen)
          t.expectNone(errorMessages(receiptOf(res), t.id, served.some((s) => s.created === res) ? 'the create answer' : 'the read'), res);
        const carried = seen.some((r) => operationsOf(receiptOf(r)).some((op) => op.errorMessage !== undefined));
        if (!carried)
          throw inconclusive(
            'PRECONDITION_MISSING',
            `no receipt operation of ${taxpayers.map(([, who]) => who).join(' or ')} carries an errorMessage, so there is none to judge (it is optional even for FAILED operations; services.business.rules.selfEmployed.inactiveInn names a taxpayer whose receipts fail)`,
          );
      },
    );
  },
);

rulesBlock(
  plan,
  'business rules: self-employed payment registry (4.5)',
  ['BUS-SEL-004'],
  [REGISTRY_CREATE, REGISTRY_RESULT, REGISTRY_READ],
  ([create, result, read]) => {
    requirementTest('BUS-SEL-004', { row: 'a registry create, its result, and the registry', timeoutMs: 90_000 }, async (t) => {
      const param = result.model.parameters.find((p) => p.in === 'query' && p.required);
      if (!param) throw new ToolError('PRECONDITION_MISSING', `${REGISTRY_RESULT} has no required query parameter to name the create by`);
      const request = generatedRequest(create, 'no inn');
      if (param.name in request.body) request.body[param.name] = randomUUID();
      const created = await submit(create, request, 'a payment registry');
      t.expectNone(accepted(create, created, t.id), created, 'the registry create');
      const handle = request.body[param.name] ?? (isJsonObject(created.json) ? created.json[param.name] : undefined);
      if (handle === undefined)
        throw new ToolError('PRECONDITION_MISSING', `neither the create request nor its answer carries ${param.name}`);
      let res: CapturedResponse | undefined;
      let outcome: unknown;
      for (let attempt = 0; attempt < 6; attempt++) {
        res = await submit(result, { path: {}, query: { [param.name]: handle }, header: {} }, `the create result, attempt ${attempt + 1}`);
        outcome = isJsonObject(res.json) ? res.json.result : undefined;
        if (res.status === 200 && outcome !== 'QUEUED') break;
        await sleep(500 * (attempt + 1));
      }
      t.expectNone([...statusIn(res!, [200], t.id), ...accepted(result, res!, t.id)], res, `the result of the create, by ${param.name}`);
      t.expectNone(
        CREATE_RESULTS.includes(String(outcome))
          ? []
          : [failure(t.id, `result one of ${CREATE_RESULTS.join(', ')}`, `result ${JSON.stringify(outcome)}`, '/result')],
        res,
      );
      // Only a CREATED registry can be read back: an ERROR, or a result still QUEUED, proves nothing more.
      if (outcome !== 'CREATED')
        throw inconclusive(
          'PRECONDITION_MISSING',
          `the registry create ended ${JSON.stringify(outcome)}, not CREATED, so there is no registry to read back`,
        );
      const id = isJsonObject(res!.json) ? res!.json.paymentRegistryId : undefined;
      t.expectNone(
        id === undefined
          ? [failure(t.id, 'a CREATED result names its paymentRegistryId', 'no paymentRegistryId', '/paymentRegistryId')]
          : [],
        res,
      );
      const registry = await submit(read, { path: { paymentRegistryId: id }, query: {}, header: {} }, 'the created registry');
      t.expectNone([...statusIn(registry, [200], t.id), ...accepted(read, registry, t.id)], registry, `the registry ${String(id)}`);
      const status = isJsonObject(registry.json) ? registry.json.status : undefined;
      t.expectNone(
        REGISTRY_STATUSES.includes(String(status))
          ? []
          : [failure(t.id, `a registry status of ${REGISTRY_STATUSES.join(', ')}`, `status ${JSON.stringify(status)}`, '/status')],
        registry,
      );
    });
  },
);
