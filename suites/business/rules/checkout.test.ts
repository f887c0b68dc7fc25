/**
 * Checkout orders (spec 2.6, 4.5) at runtime: itemsAmount when its condition holds (the condition is
 * not in the spec: configuration), weight and declaredValue with delivery services, the v1 create's
 * 201, itemsAmount on the order read back, and DeliveryKind post_office (renamed from russian_post).
 * Every order is generated from the served document, then given the fields the rules need; every
 * refusal is judged next to its control, the same order with nothing broken, accepted.
 */
import { failure } from '../../../harness/checks/failure.ts';
import { statusIn } from '../../../harness/checks/status.ts';
import { ToolError } from '../../../harness/errors.ts';
import { requirementTest } from '../../../harness/test/suite.ts';
import { order, readBackDifferences, v1Order } from '../../../harness/business/rules/checkout.ts';
import { judgedSchema } from '../../../harness/business/checks/runtime.ts';
import {
  accepted,
  controlRefused,
  expectRuleAccepted,
  expectRuleRefused,
  fitsDocument,
  refused,
  ruleControl,
  rulesConfig,
  submit,
} from '../../../harness/business/rules/rules.ts';
import { enumOf, fieldSites, fieldsOf, needSite } from '../../../harness/business/runtime/schema-sites.ts';
import { getAt, isJsonObject, type JsonObject, type JsonPath, removeAt, setAt } from '../../../harness/text/json.ts';
import { rulesBlock } from '../../../harness/business/blocks.ts';
import type { OperationPlan } from '../../../harness/business/runtime/plan.ts';
import { runtimePlan } from '../../../generators/business/plan.ts';

const plan = await runtimePlan();

const V2_CREATE = 'POST /api/v2/checkout/order';
const V2_READ = 'GET /api/v2/checkout/order/{shopId}/by/{orderId}';
const V1_CREATE = 'POST /api/v1/checkout/order';
rulesBlock(
  plan,
  'business rules: checkout v2 order (2.6)',
  ['BUS-CHK-001', 'BUS-CHK-002', 'BUS-CHK-004', 'BUS-CHK-005'],
  [V2_CREATE],
  ([create]) => {
    requirementTest(
      'BUS-CHK-001',
      { row: 'an order with neither itemsAmount nor amount is refused, with itemsAmount accepted' },
      async (t) => {
        const condition = rulesConfig().checkout?.itemsAmountCondition;
        if (condition !== 'without-amount')
          throw new ToolError(
            'CREDENTIAL_MISSING',
            `the condition of itemsAmount is not in the spec: services.business.rules.checkout.itemsAmountCondition is ${condition === undefined ? 'not set' : `"${String(condition)}"`} (the suite knows without-amount)`,
          );
        const withIt = order(create, 'with amount');
        fitsDocument(create, withIt, 'an order with itemsAmount');
        const ok = await submit(create, withIt, 'an order with itemsAmount');
        t.expectNone(accepted(create, ok, t.id), ok, 'an order with itemsAmount');
        const without = order(create, 'without amount');
        removeAt(without.body, needSite(create, 'itemsAmount').path);
        const res = await submit(create, without, 'the order with neither itemsAmount nor amount');
        t.expectNone(refused(res, t.id), res, 'the same order with neither itemsAmount nor the deprecated amount');
      },
    );

    for (const field of ['weight', 'declaredValue']) {
      requirementTest('BUS-CHK-002', { row: `an order with delivery services and an item without ${field} is refused` }, async (t) => {
        const request = order(create, 'delivery', { delivery: true });
        removeAt(request.body, needSite(create, field).path);
        const res = await submit(create, request, `delivery services, an item without ${field}`);
        await expectRuleRefused(
          t,
          res,
          () => ruleControl(t, create, 'an order with delivery services, weight and declaredValue', () => withDelivery(create)),
          `an order with shippingParameters whose item has no ${field}`,
        );
      });
    }
    requirementTest('BUS-CHK-002', { row: 'an order with delivery services, weight and declaredValue is accepted' }, async (t) => {
      const request = withDelivery(create);
      fitsDocument(create, request, 'an order with delivery services, weight and declaredValue');
      const res = await submit(create, request, 'delivery services with weight and declaredValue');
      t.expectNone(accepted(create, res, t.id), res);
    });

    for (const [value, verdict] of [
      ['post_office', 'accepted'],
      ['russian_post', 'refused'],
    ] as const) {
      requirementTest('BUS-CHK-005', { row: `DeliveryKind ${value} is ${verdict}` }, async (t) => {
        const { request, site } = withKind(create, value);
        if (verdict === 'accepted') fitsDocument(create, request, `an order with DeliveryKind ${value}`);
        const res = await submit(create, request, `DeliveryKind ${value} at ${site.join('.')}`);
        const note = `an order whose ${site.join('.')} is ${value}`;
        if (verdict === 'accepted') {
          // A refusal is post_office's only where the same order with another kind is accepted: a document
          // that drops a field the service needs (paymentType) gets every generated order refused, for a
          // rule outside this one. Where the document lists no other kind, a refusal is judged alone.
          const other = otherKind(create);
          return expectRuleAccepted(
            t,
            create,
            res,
            () =>
              other === undefined
                ? Promise.resolve()
                : ruleControl(t, create, `an order with DeliveryKind ${other}`, () => withKind(create, other, other).request),
            note,
          );
        }
        await expectRuleRefused(
          t,
          res,
          () => ruleControl(t, create, 'an order with DeliveryKind post_office', () => withKind(create, 'post_office').request),
          note,
        );
      });
    }
  },
);

/** An order with delivery services, every item with weight and declaredValue. */
function withDelivery(create: OperationPlan) {
  return order(create, 'delivery base', { delivery: true });
}

/** The DeliveryKind values (an enum holding post_office) in the body schema, each with its path. */
function kindSites(create: OperationPlan): Array<{ path: JsonPath; kinds: string[] }> {
  const out: Array<{ path: JsonPath; kinds: string[] }> = [];
  for (const name of ['deliveryType', 'types', 'deliveryTypes', 'deliveryKind'])
    for (const site of fieldSites(create, name)) {
      const kinds = enumOf(site.schema).filter((v): v is string => typeof v === 'string');
      if (kinds.includes('post_office')) out.push({ path: site.path, kinds });
    }
  return out;
}

/** A DeliveryKind every site lists besides post_office and the old russian_post, if any. */
function otherKind(create: OperationPlan): string | undefined {
  const sites = kindSites(create);
  return sites[0]?.kinds.find((v) => v !== 'post_office' && v !== 'russian_post' && sites.every((s) => s.kinds.includes(v)));
}

/**
 * An order that meets every rule, with the DeliveryKind value at the first site the generated order fills
 * and `rest` (post_office) at every other one: a document that still lists russian_post lets the generator
 * put it anywhere, and the value judged must be the order's only difference from its control.
 */
function withKind(create: OperationPlan, value: string, rest = 'post_office'): { request: ReturnType<typeof order>; site: JsonPath } {
  const sites = kindSites(create).map((s) => s.path);
  if (!sites.length)
    throw new ToolError(
      'PRECONDITION_MISSING',
      `no field of the request body of ${V2_CREATE} takes a DeliveryKind (an enum with post_office) in the served document`,
    );
  const has = (b: JsonObject) => sites.some((p) => getAt(b, p) !== undefined);
  const request = order(create, 'deprecated field', { wanted: has });
  if (isJsonObject(request.body.shippingParameters))
    for (const [name, v] of [
      ['weight', 1200],
      ['declaredValue', 500],
    ] as const)
      setAt(request.body, needSite(create, name).path, v);
  const filled = sites.filter((p) => getAt(request.body, p) !== undefined);
  for (const other of filled) setKind(request.body, other, rest);
  const site = filled[0];
  setKind(request.body, site, value);
  return { request, site };
}

/** Sets every DeliveryKind value at the path (an array of kinds gets the one value). */
function setKind(body: JsonObject, path: JsonPath, value: string): void {
  const current = getAt(body, path);
  if (Array.isArray(current)) setAt(body, path, [value]);
  else setAt(body, path, value);
}

rulesBlock(plan, 'business rules: checkout order read back (2.6)', ['BUS-CHK-004'], [V2_CREATE, V2_READ], ([create, read]) => {
  requirementTest('BUS-CHK-004', { row: 'the order read back carries the itemsAmount and the items sent' }, async (t) => {
    const request = order(create, 'items amount');
    const created = await submit(create, request, 'an order to read back');
    if (accepted(create, created, t.id).length) controlRefused('the order create', created);
    const sent = getAt(request.body, needSite(create, 'itemsAmount').path);
    const ids = {
      shopId: getAt(request.body, needSite(create, 'shopId').path),
      orderId: getAt(request.body, needSite(create, 'orderId').path),
    };
    const answered = isJsonObject(created.json) ? created.json : {};
    const path = { shopId: answered.shopId ?? ids.shopId, orderId: answered.orderId ?? ids.orderId };
    const res = await submit(read, { path, query: {}, header: {} }, 'the order read back');
    t.expectNone([...statusIn(res, [200], t.id), ...accepted(read, res, t.id)], res, 'the order read back');
    const readBack = isJsonObject(res.json) ? res.json : {};
    const got = readBack.itemsAmount;
    const schema = judgedSchema(read.model, res);
    const differences = readBackDifferences(request.body, readBack, schema ? fieldsOf(schema).declared : new Set());
    t.expectNone(
      [
        ...(typeof got === 'number' && Math.round(got * 100) === Math.round(Number(sent) * 100)
          ? []
          : [
              failure(
                t.id,
                `itemsAmount ${String(sent)}, as sent`,
                got === undefined ? 'no itemsAmount' : `itemsAmount ${JSON.stringify(got)}`,
              ),
            ]),
        ...differences.map((d) => failure(t.id, 'the order read back as it was sent (each field sent that the read carries)', d)),
      ],
      res,
    );
  });
});

rulesBlock(plan, 'business rules: checkout v1 create (4.5)', ['BUS-CHK-003'], [V1_CREATE], ([create]) => {
  requirementTest('BUS-CHK-003', { row: `${V1_CREATE} answers 201` }, async (t) => {
    const request = v1Order(create, 'v1 order');
    fitsDocument(create, request, "a v1 order whose amount is its items' total");
    const res = await submit(create, request, 'a valid v1 order');
    t.expectNone(statusIn(res, [201], t.id), res, 'a valid v1 order create');
    t.expectNone(accepted(create, res, t.id), res, 'a valid v1 order create');
  });
});
