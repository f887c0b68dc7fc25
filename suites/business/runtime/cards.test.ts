/**
 * The cards list and the single-card read (spec 8, 2.6, 5.5): limit at most 1000 and 1000 by default,
 * offset 0 by default; neither needs a client certificate.
 */
import { describe } from 'vitest';
import { rejectedWith, statusIn } from '../../../harness/checks/status.ts';
import { failure } from '../../../harness/checks/failure.ts';
import { ToolError } from '../../../harness/errors.ts';
import type { CapturedResponse } from '../../../harness/http.ts';
import { requirementTest } from '../../../harness/suite.ts';
import type { GeneratedRequest } from '../../../generators/openapi.ts';
import { send, type Host } from './_exchanges.ts';
import { conclusive } from './_judge.ts';
import { runtimePlan, skippedRow, unusableRow, type OperationPlan } from './_runtime.ts';

const plan = await runtimePlan();
const LIST = 'GET /api/v1/card';
const SINGLE = 'GET /api/v1/card/{ucid}';
const opOf = (row: string) => plan.operations.find((op) => op.row === row);

async function list(op: OperationPlan, query: Record<string, unknown>, note: string, host: Host = 'own'): Promise<CapturedResponse> {
  const request: GeneratedRequest = { path: {}, query, header: {} };
  const [answered] = conclusive([await send(plan, op, request, 'valid', note, { host })]);
  return answered.response!;
}

/** The cards of a list answer: a root array, or the answer's first array property. */
function cardsOf(res: CapturedResponse): unknown[] | undefined {
  if (Array.isArray(res.json)) return res.json;
  if (res.json && typeof res.json === 'object') return Object.values(res.json).find(Array.isArray) as unknown[] | undefined;
  return undefined;
}

describe('business runtime: the cards list (8, 2.6, 5.5)', () => {
  const ids = ['BUS-CRD-001', 'BUS-CRD-002', 'BUS-CRD-003', 'BUS-CRD-004', 'BUS-MTL-006'];
  if (plan.notApplicable || plan.unusable) {
    for (const id of ids) plan.unusable ? unusableRow(id, plan.unusable) : skippedRow(id, 'the cards list', plan.notApplicable!);
    return;
  }
  const cards = opOf(LIST);
  if (!cards) {
    for (const id of ids) skippedRow(id, LIST, `${LIST} is not in the served document (see BUS-CAT-001)`);
    return;
  }

  for (const limit of [1001, 5000]) {
    requirementTest('BUS-CRD-001', { row: `${LIST}?limit=${limit} is refused with 400 or 422` }, async (t) => {
      const res = await list(cards, { limit }, `limit=${limit}`);
      t.expectNone(rejectedWith(res, [400, 422], t.id), res);
    });
  }

  requirementTest('BUS-CRD-002', async (t) => {
    const res = await list(cards, { limit: 1000 }, 'limit=1000');
    t.expectNone(statusIn(res, [200, 201, 202, 203, 204, 206], t.id), res);
  });

  requirementTest('BUS-CRD-003', async (t) => {
    const defaults = await list(cards, {}, 'no limit and no offset');
    const explicit = await list(cards, { limit: 1000, offset: 0 }, 'limit=1000&offset=0');
    t.expectNone(statusIn(defaults, [200], t.id), defaults, 'no limit and no offset');
    t.expectNone(statusIn(explicit, [200], t.id), explicit, 'limit=1000&offset=0');
    const [a, b] = [cardsOf(defaults), cardsOf(explicit)];
    if (!a || !b) throw new ToolError('PRECONDITION_MISSING', 'the cards list answer carries no array of cards to compare');
    const same = JSON.stringify(a) === JSON.stringify(b);
    t.expectNone(same ? [] : [failure(t.id, `the same cards as with limit=1000&offset=0 (${b.length} cards)`, `${a.length} cards${a.length < b.length ? ': a smaller default page' : ', or others'}`)], defaults);
  });

  const ACCOUNT_NUMBERS: Array<[string, string, boolean]> = [
    ['40702810110011000001', '20 digits', true],
    ['4070281011001100000123', '22 digits', true],
    ['4070281011001100000', '19 digits', false],
    ['407028101100110000012', '21 digits', false],
    ['40702810110011000001234', '23 digits', false],
    ['4070281011001100000A', '19 digits and a letter', false],
  ];
  for (const [accountNumber, what, ok] of ACCOUNT_NUMBERS) {
    requirementTest('BUS-CRD-004', { row: `${LIST}?accountNumber of ${what} is ${ok ? 'accepted' : 'refused'}` }, async (t) => {
      const res = await list(cards, { accountNumber }, `accountNumber=${accountNumber} (${what})`);
      t.expectNone(ok ? statusIn(res, [200, 203, 206], t.id) : rejectedWith(res, [400, 422], t.id), res);
    });
  }

  requirementTest('BUS-MTL-006', { row: `${LIST} answers 2xx on the plain url without a client certificate` }, async (t) => {
    const res = await list(cards, {}, 'no client certificate, plain url', 'plain');
    t.expectNone(statusIn(res, [200, 203, 206], t.id), res);
  });

  const single = opOf(SINGLE);
  if (!single) {
    skippedRow('BUS-MTL-006', SINGLE, `${SINGLE} is not in the served document (see BUS-CAT-001)`);
    return;
  }
  requirementTest('BUS-MTL-006', { row: `${SINGLE} answers 2xx on the plain url without a client certificate` }, async (t) => {
    const param = single.model.parameters.find((p) => p.in === 'path')?.name ?? 'ucid';
    const listed = cardsOf(await list(cards, { limit: 1 }, 'a card to read'));
    const card = listed?.find((c) => c && typeof c === 'object' && (c as Record<string, unknown>)[param] !== undefined) as Record<string, unknown> | undefined;
    if (!card) throw new ToolError('PRECONDITION_MISSING', `the cards list shows no card with ${param} to read`);
    const [answered] = conclusive([await send(plan, single, { path: { [param]: card[param] }, query: {}, header: {} }, 'valid', 'no client certificate, plain url', { host: 'plain' })]);
    t.expectNone(statusIn(answered.response!, [200, 203], t.id), answered.response);
  });
});
