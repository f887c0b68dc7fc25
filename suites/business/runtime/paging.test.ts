/**
 * Spec 4.5: "GET /api/v3/card/virtual/issue/application (paginated statuses of virtual card
 * applications)". The served document gives the list a parameter that sizes or places a page, and a
 * page sized to the smallest the document allows holds no more applications than that, next to the
 * unpaged list holding more (a list of one or none is paged whatever the parameter does).
 */
import { describe } from 'vitest';
import { documentedSuccess } from '../../../harness/business/checks/runtime.ts';
import { failure, type Failure } from '../../../harness/checks/failure.ts';
import { inconclusive } from '../../../harness/errors.ts';
import type { CapturedResponse } from '../../../harness/request/http.ts';
import { requirementTest } from '../../../harness/test/suite.ts';
import { conclusive, notAfterServerError } from '../../../harness/business/runtime/judge.ts';
import { itemsOf, PAGING_NAMES, pagingOf } from '../../../harness/business/runtime/paging.ts';
import type { OperationPlan } from '../../../harness/business/runtime/plan.ts';
import { runtimePlan } from '../../../generators/business/plan.ts';
import { sendOperation } from '../../../harness/business/runtime/send.ts';
import { notLocatedRow, unusableRows } from '../../../harness/business/blocks.ts';

const plan = await runtimePlan();
const APPLICATIONS = 'GET /api/v3/card/virtual/issue/application';

async function page(op: OperationPlan, query: Record<string, unknown>, note: string): Promise<CapturedResponse> {
  const [answered] = conclusive([await sendOperation(plan, op, { path: {}, query, header: {} }, 'valid', note)]);
  notAfterServerError(op, answered.response!);
  return answered.response!;
}

/** The documented success, carrying a list; `most` caps its items. */
function listed(op: OperationPlan, res: CapturedResponse, id: string, what: string, most = Infinity): Failure[] {
  const off = documentedSuccess(op.model, res, plan.schemas, id).map((f) => ({ ...f, expected: `${what}: ${f.expected}` }));
  if (off.length) return off;
  const items = itemsOf(res.json);
  if (!items) return [failure(id, `${what}: a list of applications (an array)`, res.rawBody.slice(0, 120) || 'an empty body')];
  return items.length <= most
    ? []
    : [failure(id, `${what}: at most ${most} application(s), the page size asked for`, `${items.length} applications`)];
}

describe('business runtime: paginated lists (4.5)', () => {
  if (unusableRows(plan, ['BUS-PAG-001'], 'the virtual card applications list')) return;
  const op = plan.operations.find((o) => o.row === APPLICATIONS);
  if (!op) return notLocatedRow('BUS-PAG-001', APPLICATIONS, [APPLICATIONS]);
  const paging = pagingOf(op.model);

  requirementTest('BUS-PAG-001', { row: `${APPLICATIONS} takes a paging parameter` }, async (t) => {
    const query = op.model.parameters.filter((p) => p.in === 'query').map((p) => p.name);
    if (paging.size || paging.position) return;
    if (query.length)
      throw inconclusive(
        'NOT_LOCATED',
        `none of the query parameters of ${APPLICATIONS} (${query.join(', ')}) is named like ${PAGING_NAMES}`,
      );
    t.expectNone([
      failure(
        t.id,
        `a query parameter that sizes or places a page of ${APPLICATIONS} (4.5 calls it paginated)`,
        'no query parameter at all',
      ),
    ]);
  });

  requirementTest('BUS-PAG-001', { row: `${APPLICATIONS}: a page of the smallest size holds no more` }, async (t) => {
    const { size } = paging;
    if (!size) throw inconclusive('NOT_LOCATED', `${APPLICATIONS} has no query parameter named like a page size (${PAGING_NAMES})`);
    const smallest = Math.max(1, typeof size.schema.minimum === 'number' ? Math.ceil(size.schema.minimum) : 1);
    const one = await page(op, { [size.name]: smallest }, `${size.name}=${smallest}`);
    t.expectNone(listed(op, one, t.id, `${size.name}=${smallest}`, smallest), one);
    const all = await page(op, {}, 'the control: the list without paging parameters');
    if (listed(op, all, t.id, 'the control').length)
      throw inconclusive(
        'NO_CONTROL',
        `the list without paging parameters was not answered as documented (HTTP ${all.status}), so a page proves nothing; control: ${all.curl}`,
      );
    const count = itemsOf(all.json)!.length;
    if (count <= smallest)
      throw inconclusive(
        'PRECONDITION_MISSING',
        `the list without paging parameters holds ${count} application(s), no more than a page of ${smallest}: any answer is such a page`,
      );
  });
});
