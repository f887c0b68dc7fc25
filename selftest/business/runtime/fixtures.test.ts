/**
 * The target file's test data per operation (harness/business/runtime/fixtures.ts) and the fresh identifiers of
 * creates (harness/business/runtime/fresh.ts), against a real sandbox on loopback: an operation's own fixture
 * wins over the identifiers by name and never reaches another operation; a destructive operation gets
 * only a disposable set, each once, and not one a read shows gone; a create that names its new thing
 * gets a value that is never blank and never repeats.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disposableSet, namedValue } from '../../../harness/business/runtime/fixtures.ts';
import { requestsFor } from '../../../harness/business/runtime/identifiers.ts';
import { seedFor } from '../../../harness/text/seeds.ts';
import { operationPlans, type OperationPlan, type RuntimePlan } from '../../../harness/business/runtime/plan.ts';
import { sendOperation } from '../../../harness/business/runtime/send.ts';
import { HttpClient } from '../../../harness/request/http.ts';
import { mtlsOperations } from '../../../harness/business/openapi/business-target.ts';
import { DocumentSchemas } from '../../../harness/business/openapi/json-schema.ts';
import { LocalPacer } from '../../../harness/request/pacer.ts';
import { loadTarget } from '../../../harness/config/target.ts';
import { OpenApiRequests } from '../../../generators/business/openapi.ts';
import { cleanDocument } from '../../../sandbox/services/business/document.ts';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server.ts';

const NOMINAL = '/api/v1/nominal-accounts';
const DEPONENT = `${NOMINAL}/deals/{dealId}/steps/{stepId}/deponents/{beneficiaryId}`;
let sandbox: RunningSandbox;
let dir: string;
let plan: RuntimePlan;
const op = (row: string): OperationPlan => plan.operations.find((o) => o.row === row)!;

beforeAll(async () => {
  sandbox = await startSandbox();
  dir = mkdtempSync(join(tmpdir(), 'pc-fixtures-'));
  const target = loadTarget(sandbox.writeTarget(join(dir, 'target.yaml')));
  const raw = cleanDocument();
  const client = new HttpClient(target, { pacer: new LocalPacer(), limits: { business: { requests: 1000, perSeconds: 1 } } });
  plan = {
    run: { target, client, seed: 1, runs: 25, shrink: false },
    raw,
    operations: operationPlans(raw, mtlsOperations(target), 1),
    requests: new OpenApiRequests(raw),
    schemas: new DocumentSchemas(raw),
    generated: new Map(),
    validRequests: new Map(),
  };
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the target file's test data per operation", () => {
  it("gives an operation its own fixture before the identifiers by name, and no other operation that fixture's values", () => {
    const deponent = namedValue(plan, op(`GET ${DEPONENT}`), 'beneficiaryId');
    expect(deponent).toEqual(expect.any(String));
    expect(namedValue(plan, op(`PUT ${NOMINAL}/beneficiaries/{beneficiaryId}`), 'beneficiaryId')).toBeUndefined();
    expect(namedValue(plan, op('GET /api/v1/card/{ucid}'), 'ucid')).toBe(100_005);
  });

  it('gives a destructive operation nothing by name, and a read nothing of a disposable set', () => {
    expect(namedValue(plan, op('POST /api/v1/card/{ucid}/block'), 'ucid')).toBeUndefined();
    expect(namedValue(plan, op(`DELETE ${NOMINAL}/deals/{dealId}`), 'dealId')).toBeUndefined();
  });

  it('hands each disposable set out once, and skips one a read shows gone', async () => {
    const remove = op(`DELETE ${NOMINAL}/deals/{dealId}`);
    const first = await disposableSet(plan, remove);
    const second = await disposableSet(plan, remove);
    expect(first.set?.dealId).toEqual(expect.any(String));
    expect(second.set?.dealId).not.toEqual(first.set?.dealId);
    // The third set destroyed behind the suite's back, as an earlier run would have: the fourth comes next.
    const all = (plan.run.target.services.business as unknown as { fixtures: Record<string, { identifiers: Array<{ dealId: string }> }> })
      .fixtures[`DELETE ${NOMINAL}/deals/{dealId}`].identifiers;
    const gone = await sendOperation(plan, remove, { path: { dealId: all[2].dealId }, query: {}, header: {} }, 'valid', 'an earlier run');
    expect(gone.response?.status).toBeLessThan(300);
    expect((await disposableSet(plan, remove)).set).toEqual(all[3]);
  });

  it('says why there is none: no fixture, or one not marked disposable', async () => {
    expect((await disposableSet(plan, op(`DELETE ${NOMINAL}/beneficiaries/{beneficiaryId}/bank-details/{bankDetailsId}`))).why).toMatch(
      /names nothing .* may destroy/,
    );
    expect((await disposableSet(plan, op(`GET ${DEPONENT}`))).why).toMatch(/is not marked disposable/);
  });
});

describe('fresh identifiers of a create', () => {
  it('names every new offline order with its own plain value, over seeds whose generated numbers were blank or repeated', () => {
    for (const row of ['POST /api/offline/partners/v1/create', 'POST /api/offline/partners/v1/demo/create']) {
      const create = op(row);
      const seen: unknown[] = [];
      for (const seed of [1, 2, 3, 4, 5, 6, 7, 20261121]) {
        const requests = requestsFor(plan, { ...create, seed: create.seed ^ seed }, 3);
        for (const request of requests) {
          expect(plan.requests.validOnWire(create.model, request)).toBe(true);
          const number = (request.body as Record<string, unknown>).orderNumber;
          if (number === undefined) continue;
          expect(String(number).trim()).not.toBe('');
          seen.push(number);
        }
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.length).toBeGreaterThan(10);
    }
  });

  it('keeps the shop of a checkout order and renews only the order id', () => {
    const create = op('POST /api/v1/checkout/order');
    const [a, b] = requestsFor(plan, create, 2);
    const [bodyA, bodyB] = [a.body, b.body] as Array<Record<string, unknown>>;
    expect(bodyA.orderId).not.toEqual(bodyB.orderId);
    const generated = plan.requests.valid(create.model, { seed: seedFor(create.seed, 'create'), count: 1 })[0].body as Record<
      string,
      unknown
    >;
    expect(bodyA.shopId).toEqual(generated.shopId);
  });
});
