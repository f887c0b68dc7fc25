/**
 * The cards lists (GET /api/v1/card and GET /api/v3/card) and the single-card read (spec 8, 2.6, 5.5):
 * limit at most 1000 and 1000 by default, offset 0 by default, an accountNumber of 20 or 22 digits;
 * none of them needs a client certificate. A limit above 1000 refused with 400 or 422 is a policy (part 8
 * does not say refused or capped); a broken accountNumber is refused with neither a 2xx nor a 5xx.
 *
 * Evidence: a list is accepted only with its documented success that carries a list of cards; a
 * refusal counts only next to a control, the same list without the broken value accepted in this run.
 */
import { describe } from 'vitest';
import { documentedSuccess } from '../../../harness/business/checks/runtime.ts';
import { CARD_READ, CARDS_LISTS, refusedForCertificate } from '../../../harness/business/runtime/certificate.ts';
import { refused } from '../../../harness/checks/answer.ts';
import { failure, type Failure } from '../../../harness/checks/failure.ts';
import { rejectedWith } from '../../../harness/checks/status.ts';
import { inconclusive } from '../../../harness/errors.ts';
import type { CapturedResponse } from '../../../harness/request/http.ts';
import { requirementTest, type RequirementContext } from '../../../harness/test/suite.ts';
import type { GeneratedRequest } from '../../../harness/business/runtime/request.ts';
import { itemsOf } from '../../../harness/business/runtime/paging.ts';
import { canonicalJson, isJsonObject } from '../../../harness/text/json.ts';
import { type Host, sendOperation } from '../../../harness/business/runtime/send.ts';
import { conclusive, notAfterServerError } from '../../../harness/business/runtime/judge.ts';
import { notLocatedRow, unusableRows } from '../../../harness/business/blocks.ts';
import type { OperationPlan } from '../../../harness/business/runtime/plan.ts';
import { runtimePlan } from '../../../generators/business/plan.ts';

const plan = await runtimePlan();
const opOf = (row: string) => plan.operations.find((op) => op.row === row);

async function list(op: OperationPlan, query: Record<string, unknown>, note: string, host: Host = 'own'): Promise<CapturedResponse> {
  const request: GeneratedRequest = { path: {}, query, header: {} };
  const [answered] = conclusive([await sendOperation(plan, op, request, 'valid', note, { host })]);
  notAfterServerError(op, answered.response!);
  return answered.response!;
}

/** The cards of a list answer: a root array, or the answer's first array property. */
const cardsOf = (res: CapturedResponse): unknown[] | undefined => itemsOf(res.json);

/**
 * Which card an entry is: its ucid (or id), else the whole entry with its keys sorted. Two answers list
 * the same cards when they list the same identities in the same order; a balance or a timestamp that
 * changed between them, or keys in another order, is not another card.
 */
function cardIdentity(card: unknown): string {
  if (isJsonObject(card))
    for (const key of ['ucid', 'cardId', 'id'])
      if (card[key] !== undefined && card[key] !== null) return `${key} ${JSON.stringify(card[key])}`;
  return canonicalJson(card);
}

/**
 * A list accepted: the documented success, carrying a list of cards. Refused for its certificate where
 * 5.5 says it needs none is BUS-MTL-006's subject, which the cards rows take as given.
 */
function listed(op: OperationPlan, res: CapturedResponse, id: string, what: string, host: Host = 'own'): Failure[] {
  const certificate = refusedForCertificate(op, host, res);
  if (certificate.length) return certificate;
  const off = documentedSuccess(op.model, res, plan.schemas, id).map((f) => ({ ...f, expected: `${what}: ${f.expected}` }));
  if (off.length) return off;
  return cardsOf(res) ? [] : [failure(id, `${what}: a list of cards (an array)`, `${res.rawBody.slice(0, 120) || 'an empty body'}`)];
}

/**
 * A refusal: an acceptance or a server error fails whatever the control; any other answer is judged
 * only next to the control, the same list with nothing broken accepted in this run.
 */
async function refusedNextToControl(t: RequirementContext, op: OperationPlan, res: CapturedResponse, failures: Failure[]): Promise<void> {
  if (res.status < 300 || res.status >= 500) t.expectNone(failures, res);
  await t.control(
    `cards ${op.row}`,
    () => list(op, {}, 'the control: the list without parameters'),
    (ok) => listed(op, ok, t.id, 'the control').length === 0,
  );
  t.expectNone(failures, res);
}

/** The documented maximum accepted is BUS-CRD-002's subject, whichever row sends it. */
const MAXIMUM_ACCEPTED = 'BUS-CRD-002';
const MAXIMUM_REFUSED = 'a cards list refuses limit=1000, the documented maximum';

/**
 * A list that sends limit=1000 accepted: a refusal of it (a 4xx that is not about the certificate) is
 * BUS-CRD-002's subject, which BUS-CRD-003 takes as given; any other failure stays `id`'s.
 */
function maximumListed(op: OperationPlan, res: CapturedResponse, id: string, what: string): Failure[] {
  const failures = listed(op, res, id, what);
  if (res.status < 400 || res.status >= 500) return failures;
  return failures.map((f) => (f.requirement === id ? { ...f, requirement: MAXIMUM_ACCEPTED, defect: MAXIMUM_REFUSED } : f));
}

const ACCOUNT_NUMBERS: Array<[string, string, boolean]> = [
  ['40702810110011000001', '20 digits', true],
  ['4070281011001100000123', '22 digits', true],
  ['4070281011001100000', '19 digits', false],
  ['407028101100110000012', '21 digits', false],
  ['40702810110011000001234', '23 digits', false],
  ['4070281011001100000A', '19 digits and a letter', false],
];

function listRows(cards: OperationPlan): void {
  const name = cards.row;
  for (const limit of [1001, 5000]) {
    requirementTest('BUS-CRD-001', { row: `${name}?limit=${limit} is refused with 400 or 422` }, async (t) => {
      const res = await list(cards, { limit }, `limit=${limit}`);
      await refusedNextToControl(t, cards, res, rejectedWith(res, [400, 422], t.id));
    });
  }

  requirementTest('BUS-CRD-002', { row: `${name}?limit=1000 is accepted` }, async (t) => {
    const res = await list(cards, { limit: 1000 }, 'limit=1000');
    t.expectNone(maximumListed(cards, res, t.id, 'limit=1000 accepted'), res);
  });

  requirementTest('BUS-CRD-003', { row: `${name} without limit and offset answers as with limit=1000&offset=0` }, async (t) => {
    const defaults = await list(cards, {}, 'no limit and no offset');
    const explicit = await list(cards, { limit: 1000, offset: 0 }, 'limit=1000&offset=0');
    t.expectNone(listed(cards, defaults, t.id, 'no limit and no offset'), defaults, 'no limit and no offset');
    t.expectNone(maximumListed(cards, explicit, t.id, 'limit=1000&offset=0'), explicit, 'limit=1000&offset=0');
    const [a, b] = [cardsOf(defaults)!.map(cardIdentity), cardsOf(explicit)!.map(cardIdentity)];
    const same = a.length === b.length && a.every((card, i) => card === b[i]);
    t.expectNone(
      same
        ? []
        : [
            failure(
              t.id,
              `the same cards as with limit=1000&offset=0 (${b.length} cards)`,
              `${a.length} cards${a.length < b.length ? ': a smaller default page' : ', or others'}`,
            ),
          ],
      defaults,
    );
    // Two empty pages are equal whatever the defaults are: no evidence.
    if (!b.length) throw inconclusive('PRECONDITION_MISSING', 'the cards list is empty, so its defaults cannot be told from any others');
  });

  for (const [accountNumber, what, ok] of ACCOUNT_NUMBERS) {
    requirementTest('BUS-CRD-004', { row: `${name}?accountNumber of ${what} is ${ok ? 'accepted' : 'refused'}` }, async (t) => {
      const res = await list(cards, { accountNumber }, `accountNumber=${accountNumber} (${what})`);
      if (ok) return t.expectNone(listed(cards, res, t.id, `accountNumber of ${what} accepted`), res);
      await refusedNextToControl(t, cards, res, refused(res, t.id));
    });
  }

  requirementTest('BUS-MTL-006', { row: `${name} is served on the plain url without a client certificate` }, async (t) => {
    const res = await list(cards, {}, 'no client certificate, plain url', 'plain');
    t.expectNone(listed(cards, res, t.id, 'served without a client certificate', 'plain'), res);
  });
}

describe('business runtime: the cards lists (8, 2.6, 5.5)', () => {
  const ids = ['BUS-CRD-001', 'BUS-CRD-002', 'BUS-CRD-003', 'BUS-CRD-004', 'BUS-MTL-006'];
  if (unusableRows(plan, ids, 'the cards lists')) return;
  for (const row of CARDS_LISTS) {
    const cards = opOf(row);
    if (cards) describe(row, () => listRows(cards));
    else for (const id of ids) notLocatedRow(id, row, [row]);
  }

  const single = opOf(CARD_READ);
  const source = CARDS_LISTS.map(opOf).find((op) => op !== undefined);
  if (!single || !source) return notLocatedRow('BUS-MTL-006', CARD_READ, [...(single ? [] : [CARD_READ]), ...(source ? [] : CARDS_LISTS)]);
  requirementTest('BUS-MTL-006', { row: `${CARD_READ} is served on the plain url without a client certificate` }, async (t) => {
    const param = single.model.parameters.find((p) => p.in === 'path')?.name ?? 'ucid';
    const cards = cardsOf(await list(source, { limit: 1 }, 'a card to read')) ?? [];
    const card = cards.find((c) => c && typeof c === 'object' && (c as Record<string, unknown>)[param] !== undefined) as
      | Record<string, unknown>
      | undefined;
    if (!card) throw inconclusive('PRECONDITION_MISSING', `the cards list shows no card with ${param} to read`);
    const [answered] = conclusive([
      await sendOperation(
        plan,
        single,
        { path: { [param]: card[param] }, query: {}, header: {} },
        'valid',
        'no client certificate, plain url',
        { host: 'plain' },
      ),
    ]);
    const res = answered.response!;
    const certificate = refusedForCertificate(single, 'plain', res);
    t.expectNone(
      certificate.length ? certificate : documentedSuccess(single.model, res, plan.schemas, t.id),
      res,
      `card ${String(card[param])}, listed by ${source.row}`,
    );
  });
});
