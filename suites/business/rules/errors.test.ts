/**
 * Business error facts of spec 7 at runtime: a 400 is JSON; enumeration validation errors have one fixed
 * format (the same top-level fields of the same types, whichever operation and field); a 403 carries the
 * reasons of the error. Each is judged next to a control: the same operation, valid, accepted in this
 * run. An answer the fact is not about (a 2xx to a broken value, a 401) leaves it untried: inconclusive.
 */
import { errorFormat, formatDifferences, jsonWhere400, reasonsCarried } from '../../../harness/business/checks/errors.ts';
import { judgedSchema } from '../../../harness/business/checks/runtime.ts';
import { failure, type Failure } from '../../../harness/checks/failure.ts';
import { inconclusive, ToolError } from '../../../harness/errors.ts';
import type { CapturedResponse } from '../../../harness/request/http.ts';
import { requirementTest, type RequirementContext } from '../../../harness/test/suite.ts';
import type { GeneratedRequest } from '../../../harness/business/runtime/request.ts';
import { sendOperation } from '../../../harness/business/runtime/send.ts';
import { locate } from '../../../harness/business/runtime/identifiers.ts';
import { notAfterServerError } from '../../../harness/business/runtime/judge.ts';
import { generatedFor, type OperationPlan } from '../../../harness/business/runtime/plan.ts';
import { runtimePlan } from '../../../generators/business/plan.ts';
import { beneficiary, BENEFICIARY_CREATE, beneficiaryRequest } from '../../../harness/business/rules/beneficiaries.ts';
import { accepted, generatedRequest, opOf, ruleControl, submit, submitRaw } from '../../../harness/business/rules/rules.ts';
import { fieldSites, fieldsOf } from '../../../harness/business/runtime/schema-sites.ts';
import { isJsonObject, type JsonObject, setAt } from '../../../harness/text/json.ts';
import { rulesBlock } from '../../../harness/business/blocks.ts';

const plan = await runtimePlan();

const CARDS = 'GET /api/v1/card';
const CHECKOUT = 'POST /api/v2/checkout/order';

/** BUS-ERR-002 on one answer: a 400 is JSON; any other answer leaves the rule untried (it says how a 400 looks, not which requests get one). */
function jsonIf400(res: CapturedResponse, id: string, what: string): Failure[] {
  if (res.status !== 400)
    throw inconclusive(
      'PRECONDITION_MISSING',
      `${what} was answered ${res.status}, not 400; the rule says how a 400 looks, not which requests get one`,
    );
  return jsonWhere400(res, id, what);
}

/** The controls of this file: a valid beneficiary create, and the cards list without parameters. */
const beneficiaryControl = (t: RequirementContext, create: OperationPlan) =>
  ruleControl(t, create, 'a UL_RESIDENT beneficiary', () => beneficiaryRequest(create, 'control', beneficiary('UL_RESIDENT')));
const cardsControl = (t: RequirementContext, cards: OperationPlan) =>
  ruleControl(t, cards, 'the cards list', () => ({ path: {}, query: {}, header: {} }));

rulesBlock(plan, 'business rules: 400 answers are JSON (7)', ['BUS-ERR-002'], [BENEFICIARY_CREATE, CARDS], ([create, cards]) => {
  requirementTest('BUS-ERR-002', { row: 'a body that is not JSON' }, async (t) => {
    const res = await submitRaw(create, beneficiaryRequest(create, 'truncated', {}), '{"type": "UL_RESIDENT",', 'a truncated JSON body');
    t.expectNone(jsonIf400(res, t.id, 'a truncated JSON body'), res, 'a truncated JSON body');
    await beneficiaryControl(t, create);
  });
  requirementTest('BUS-ERR-002', { row: 'a broken query parameter (limit=abc)' }, async (t) => {
    const res = await submit(cards, { path: {}, query: { limit: 'abc' }, header: {} }, 'limit=abc');
    t.expectNone(jsonIf400(res, t.id, `${CARDS}?limit=abc`), res);
    await cardsControl(t, cards);
  });
  requirementTest('BUS-ERR-002', { row: 'a broken body field (type of the wrong kind)' }, async (t) => {
    const res = await submit(create, beneficiaryRequest(create, 'type 42', { ...beneficiary('UL_RESIDENT'), type: 42 }), 'type 42');
    t.expectNone(jsonIf400(res, t.id, 'a beneficiary whose type is the number 42'), res);
    await beneficiaryControl(t, create);
  });
});

rulesBlock(plan, 'business rules: one format for enumeration errors (7)', ['BUS-ERR-003'], [BENEFICIARY_CREATE], ([create]) => {
  requirementTest('BUS-ERR-003', { row: 'unknown enumeration values in different operations and fields' }, async (t) => {
    const cases: Array<{ what: string; op: OperationPlan; request: GeneratedRequest }> = [];
    const ul = beneficiary('UL_RESIDENT');
    cases.push({
      what: 'beneficiary type NOT_A_TYPE',
      op: create,
      request: beneficiaryRequest(create, 'unknown type', { ...ul, type: 'NOT_A_TYPE' }),
    });
    // The unknown address type next to the LEGAL_ENTITY_ADDRESS a legal entity needs, so only the enumeration is broken.
    cases.push({
      what: 'beneficiary address type NOT_AN_ADDRESS',
      op: create,
      request: beneficiaryRequest(create, 'unknown address type', {
        ...ul,
        addresses: [...(ul.addresses as JsonObject[]), { type: 'NOT_AN_ADDRESS', address: 'г. Москва' }],
      }),
    });
    const person = beneficiary('FL_RESIDENT');
    cases.push({
      what: 'beneficiary document type NOT_A_DOCUMENT',
      op: create,
      request: beneficiaryRequest(create, 'unknown document type', {
        ...person,
        documents: [...(person.documents as JsonObject[]), { type: 'NOT_A_DOCUMENT', number: '1', date: '2019-06-14' }],
      }),
    });
    const checkout = opOf(CHECKOUT);
    const kind = checkout && fieldSites(checkout, 'deliveryType').find((s) => s.path.length === 3);
    if (checkout && kind) {
      const request = generatedRequest(checkout, 'checkout error');
      setAt(request.body, kind.path, 'NOT_A_DELIVERY');
      cases.push({ what: `checkout ${kind.path.join('.')} NOT_A_DELIVERY`, op: checkout, request });
    }
    const answers: Array<{ what: string; op: OperationPlan; res: CapturedResponse }> = [];
    for (const c of cases) answers.push({ what: c.what, op: c.op, res: await submit(c.op, c.request, c.what) });
    // Validation errors only (a JSON 400 or 422): a 401 or 404 to every request has one format too, and says nothing.
    const errors = answers.filter((a) => (a.res.status === 400 || a.res.status === 422) && isJsonObject(a.res.json));
    if (errors.length < 2)
      throw inconclusive(
        'PRECONDITION_MISSING',
        `fewer than two unknown enumeration values were refused with a JSON 400 or 422 (${answers.map((a) => `${a.what}: ${a.res.status}`).join('; ')})`,
      );
    const differences = formatDifferences(
      errors.map(({ what, op, res }) => {
        const schema = judgedSchema(op.model, res);
        return { what, body: res.json, ...(schema ? { documented: fieldsOf(schema) } : {}) };
      }),
    );
    t.expectNone(
      differences.map((d) =>
        failure(t.id, `one format for enumeration errors (${errorFormat(errors[0].res.json)} in ${errors[0].what})`, d),
      ),
      errors[0].res,
    );
    await beneficiaryControl(t, create);
  });
});

rulesBlock(plan, 'business rules: 403 answers carry their reasons (7)', ['BUS-ERR-004'], [], () => {
  const scopeless = plan.run.target.services.business?.tokenWithoutScope;
  const areas = plan.run.target.services.business?.scopeRefusalAreas;
  const probes = plan.operations.filter((op) => op.authProbe && (!Array.isArray(areas) || areas.includes(op.catalog.area)));
  for (const op of probes) {
    requirementTest('BUS-ERR-004', { row: `a scope refusal of ${op.catalog.area} (${op.row})` }, async (t) => {
      if (typeof scopeless !== 'string' || scopeless === '')
        throw new ToolError('CREDENTIAL_MISSING', `services.business.tokenWithoutScope is not in the target file "${t.target.name}"`);
      const { request } = await locate(plan, op, generatedFor(plan, op).valid[0]);
      const res = (
        await sendOperation(plan, op, request, 'no-scope', 'the valid request with a token without the scope', { token: scopeless })
      ).response!;
      notAfterServerError(op, res);
      if (res.status !== 403)
        throw inconclusive(
          'PRECONDITION_MISSING',
          `the token without the scope was answered ${res.status}, not 403 (BUS-AUT-003 judges that)`,
        );
      // The same request with the token that has the scope: a 403 to it too would be no scope refusal at all.
      await t.control(
        `scope ${op.row}`,
        async () =>
          (await sendOperation(plan, op, request, 'valid', 'the control: the same request with the token of the target file')).response!,
        (ok) => accepted(op, ok, t.id).length === 0,
      );
      t.expectNone(reasonsCarried(res, t.id, `${op.row} with a token without its scope`), res);
    });
  }
});
