/**
 * Spec 4.5, stateful: what a create answers can be read, and what a DELETE removed is gone. Create and
 * read operations are paired from the served document (harness/business/runtime/links.ts); identifiers a create needs for
 * itself come from another create or from a list (harness/business/runtime/identifiers.ts). Every resource is fresh for this run,
 * or one the target file marks disposable where nothing creates it (harness/business/runtime/fixtures.ts).
 *
 * Evidence: the create must be the documented success (a 2xx with the documented body), and the read
 * after it too; an answer that is neither a success nor "not found" says nothing either way.
 */
import { describe } from 'vitest';
import { failure } from '../../../harness/checks/failure.ts';
import { inconclusive } from '../../../harness/errors.ts';
import type { CapturedResponse } from '../../../harness/request/http.ts';
import { requirementTest } from '../../../harness/test/suite.ts';
import { sendOperation } from '../../../harness/business/runtime/send.ts';
import { create, requestsFor, withIdentifiers } from '../../../harness/business/runtime/identifiers.ts';
import { served } from '../../../harness/business/runtime/judge.ts';
import { disposableSet } from '../../../harness/business/runtime/fixtures.ts';
import { deletePairs, type ReadLink, readLinks } from '../../../harness/business/runtime/links.ts';
import type { OperationPlan } from '../../../harness/business/runtime/plan.ts';
import { runtimePlan } from '../../../generators/business/plan.ts';
import { skippedRow, unusableRows } from '../../../harness/business/blocks.ts';

const plan = await runtimePlan();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const gone = (res: CapturedResponse) => res.status === 404 || res.status === 410;

async function read(op: OperationPlan, values: Record<string, unknown>, note: string): Promise<CapturedResponse> {
  return (await sendOperation(plan, op, withIdentifiers(requestsFor(plan, op, 1)[0], values, op), 'valid', note)).response!;
}

function createThenRead(link: ReadLink): void {
  requirementTest('BUS-STA-001', { row: `${link.create.row} then ${link.read.row}`, timeoutMs: 120_000 }, async (t) => {
    const created = await create(plan, link.create, {});
    let res = await read(link.read, created.values, 'the read after the create');
    // Eventual consistency: a store may need a moment before a new resource is visible.
    for (let retry = 0; retry < 2 && gone(res); retry++) {
      await sleep(300);
      res = await read(link.read, created.values, 'the read after the create');
    }
    const note = `created with ${created.response.status}: ${created.response.rawBody.slice(0, 200)}`;
    t.expectNone(
      gone(res) ? [failure(t.id, `${link.read.row} finds what ${link.create.row} created (not 404 or 410)`, `status ${res.status}`)] : [],
      res,
      note,
    );
    if (!served(plan, link.read, res))
      throw inconclusive(
        'PRECONDITION_MISSING',
        `the read after the create answered ${res.status}, not its documented success (BUS-RUN-005 and BUS-RUN-002..004 judge that answer); ${note}`,
      );
  });
}

describe.concurrent('business runtime: resources (4.5)', () => {
  if (unusableRows(plan, ['BUS-STA-001', 'BUS-STA-002'], 'created and deleted resources')) return;
  const links = readLinks(plan.raw, plan.operations);
  const pairs = deletePairs(plan.operations, links);
  // A document without them still gets its rows: a file that registers nothing would be a module error.
  if (!links.length)
    skippedRow(
      'BUS-STA-001',
      'create and read pairs',
      inconclusive('NOT_LOCATED', 'the served document describes no create whose answer a read continues'),
    );
  if (!pairs.length)
    skippedRow(
      'BUS-STA-002',
      'DELETE and read pairs',
      inconclusive('NOT_LOCATED', 'the served document describes no DELETE with a read of the same path'),
    );
  for (const link of links) createThenRead(link);

  for (const pair of pairs) {
    const { link } = pair;
    requirementTest('BUS-STA-002', { row: `${pair.remove.row}, then ${pair.read.row}`, timeoutMs: 120_000 }, async (t) => {
      // What the run creates, or else a set the target file marks disposable: deleting other data is not this test's business.
      let values: Record<string, unknown>;
      let origin: string;
      if (link) {
        values = (await create(plan, link.create, {})).values;
        origin = 'created';
      } else {
        const { set, why } = await disposableSet(plan, pair.remove);
        if (!set)
          throw inconclusive('PRECONDITION_MISSING', `no operation of the served document creates what ${pair.read.row} reads, and ${why}`);
        [values, origin] = [set, 'named by the target file as disposable'];
      }
      const before = await read(pair.read, values, 'the read before the DELETE');
      if (!served(plan, pair.read, before))
        throw inconclusive('PRECONDITION_MISSING', `the resource was not read as documented before the DELETE (status ${before.status})`);
      const removed = (
        await sendOperation(
          plan,
          pair.remove,
          withIdentifiers(requestsFor(plan, pair.remove, 1)[0], values, pair.remove),
          'valid',
          'the DELETE',
        )
      ).response!;
      if (!served(plan, pair.remove, removed))
        throw inconclusive('PRECONDITION_MISSING', `only after a DELETE answered as documented (2xx): it answered ${removed.status}`);
      const after = await read(pair.read, values, 'the read after the DELETE');
      const failures = gone(after)
        ? []
        : [failure(t.id, `${pair.read.row} after a ${removed.status} DELETE: 404 or 410`, `status ${after.status}`)];
      t.expectNone(failures, after, `the resource was ${origin}, read (2xx), deleted (2xx), then read again`);
    });
  }
});
