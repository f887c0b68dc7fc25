/**
 * Every business operation the served document describes and the catalog knows (spec 4.5, 5.5, 7):
 * requests generated from the FETCHED document (path, query, header parameters and JSON bodies), sent
 * to the operation's host (mtlsUrl with the client certificate for the configured operations), and
 * what came back judged against the same document; without a token, without the certificate, with a
 * bad or scopeless token (one operation per group); and the vendor's conventions over all answers.
 * One row per operation and requirement; the exchanges are made once per operation and shared by its
 * rows, all operations at once (each rate group at its own pace), so that the groups overlap.
 */
import { beforeAll, describe } from 'vitest';
import {
  acceptedAsValid,
  bodyConforms,
  contentTypeDocumented,
  noServerError,
  notServedOnPlainHost,
  rejectedAsInvalid,
  refusedWithoutCertificate,
  refusedWithoutCredentials,
  servedWithCertificate,
  statusDocumented,
  vendorErrorBody,
} from '../../../harness/checks/business-runtime.ts';
import { failure, type Failure } from '../../../harness/checks/failure.ts';
import { ToolError } from '../../../harness/errors.ts';
import { isTlsRefusal } from '../../../harness/mtls.ts';
import { requirementTest, type RequirementContext } from '../../../harness/suite.ts';
import { credentialOf } from '../../../harness/target.ts';
import { allAnswered, authExchangesOf, exchangesOf, prefetch, type Exchange } from './_exchanges.ts';
import { answered, conclusive, documentsContent, documentsJsonSchema, unknownIdentifierIs400 } from './_judge.ts';
import { runtimePlan, skippedRow, unusableRow, type OperationPlan, type RuntimePlan } from './_runtime.ts';

const plan = await runtimePlan();

/** Runs a check on each exchange and fails with all failures, each under the exchange it came from. */
function judge(t: RequirementContext, exchanges: Exchange[], check: (e: Exchange) => Failure[]): void {
  const failed = exchanges.map((e) => ({ e, failures: check(e) })).filter((x) => x.failures.length);
  if (!failed.length) return;
  const [first] = failed;
  const failures = failed.flatMap(({ e, failures }) => failures.map((f) => ({ ...f, expected: `${f.expected} — for ${e.note}` })));
  const note = `${failed.length} of ${exchanges.length} answer(s) failed; the reproduction is of the first: ${first.e.note} (requests generated with CONFORMANCE_SEED=${t.seed})`;
  t.expectNone(failures, first.e.response, note);
}

function operationRows(plan: RuntimePlan, op: OperationPlan): void {
  const row = (text: string) => `${op.row}: ${text}`;
  const each = async () => {
    const all = await exchangesOf(plan, op);
    return conclusive([...all.valid, ...all.invalid, ...(all.noToken ? [all.noToken] : [])]);
  };

  requirementTest('BUS-RUN-001', { row: row('a valid request gets no 5xx'), timeoutMs: 180_000 }, async (t) => {
    const { valid } = await exchangesOf(plan, op);
    judge(t, conclusive(valid), (e) => noServerError(answered(e), t.id));
  });

  requirementTest('BUS-RUN-002', { row: row('every answer has a documented status'), timeoutMs: 180_000 }, async (t) => {
    judge(t, await each(), (e) => statusDocumented(op.model, answered(e), t.id));
  });

  if (documentsContent(op.model)) {
    requirementTest('BUS-RUN-003', { row: row('every answer has a documented Content-Type'), timeoutMs: 180_000 }, async (t) => {
      judge(t, await each(), (e) => contentTypeDocumented(op.model, answered(e), t.id));
    });
  }

  if (documentsJsonSchema(op.model)) {
    requirementTest('BUS-RUN-004', { row: row('every JSON answer conforms to its documented schema'), timeoutMs: 180_000 }, async (t) => {
      judge(t, await each(), (e) => bodyConforms(op.model, answered(e), plan.schemas, t.id));
    });
  }

  requirementTest('BUS-RUN-005', { row: row('a valid request is not refused as malformed'), timeoutMs: 180_000 }, async (t) => {
    const { valid } = await exchangesOf(plan, op);
    judge(t, conclusive(valid), (e) => acceptedAsValid(answered(e), t.id, { unknownIdentifierIs400: unknownIdentifierIs400(op) }));
  });

  if (op.breakable) {
    requirementTest('BUS-NEG-001', { row: row('a request that breaks one rule is rejected'), timeoutMs: 180_000 }, async (t) => {
      const { invalid } = await exchangesOf(plan, op);
      if (!invalid.length) throw new ToolError('PRECONDITION_MISSING', `the document gives ${op.row} no rule that a request can break on the wire`);
      judge(t, conclusive(invalid), (e) => rejectedAsInvalid(answered(e), t.id));
    });
  }

  if (op.model.secured) {
    requirementTest('BUS-AUT-001', { row: row('a request without a token is refused'), timeoutMs: 180_000 }, async (t) => {
      const { noToken } = await exchangesOf(plan, op);
      const tolerate404 = op.model.parameters.some((p) => p.in === 'path');
      judge(t, conclusive([noToken!]), (e) => refusedWithoutCredentials(answered(e), t.id, { allow: [401, 403], tolerate404 }));
    });
  }

  if (op.mtls) {
    requirementTest('BUS-MTL-003', { row: row('refused on mtlsUrl without a client certificate'), timeoutMs: 180_000 }, async (t) => {
      const { noCertificate } = await exchangesOf(plan, op);
      const judged = noCertificate!.error !== undefined ? noCertificate! : conclusive([noCertificate!])[0];
      t.expectNone(refusedWithoutCertificate(judged, t.id, (error) => isTlsRefusal(error)), judged.response, judged.note);
    });
    requirementTest('BUS-MTL-005', { row: row('served on mtlsUrl with the client certificate'), timeoutMs: 180_000 }, async (t) => {
      const { valid } = await exchangesOf(plan, op);
      judge(t, conclusive(valid), (e) => servedWithCertificate(answered(e), t.id));
    });
  }

  if (op.plainUrlProbe) {
    requirementTest('BUS-MTL-004', { row: row(`not served on the plain url (one operation of ${op.catalog.area})`), timeoutMs: 180_000 }, async (t) => {
      const { plainUrl } = await exchangesOf(plan, op);
      judge(t, conclusive([plainUrl!]), (e) => notServedOnPlainHost(answered(e), t.id));
    });
  }
}

describe('business runtime: every operation of the served document', () => {
  if (plan.notApplicable) {
    for (const id of ['BUS-RUN-001', 'BUS-RUN-002', 'BUS-RUN-003', 'BUS-RUN-004', 'BUS-RUN-005', 'BUS-NEG-001', 'BUS-AUT-001', 'BUS-AUT-002', 'BUS-AUT-003', 'BUS-AUT-004', 'BUS-ERR-001', 'BUS-MTL-003', 'BUS-MTL-004', 'BUS-MTL-005']) {
      skippedRow(id, 'every operation', plan.notApplicable);
    }
    return;
  }
  if (plan.unusable) {
    unusableRow('BUS-RUN-001', plan.unusable);
    return;
  }
  if (plan.mtlsUnconfigured) for (const id of ['BUS-MTL-003', 'BUS-MTL-004', 'BUS-MTL-005']) skippedRow(id, 'operations that need a client certificate', plan.mtlsUnconfigured);
  beforeAll(() => prefetch(plan));
  for (const op of plan.operations) {
    describe(op.row, () => operationRows(plan, op));
  }

  describe('tokens and scopes, one operation per group (5.5)', () => {
    // Which groups services.business.tokenWithoutScope lacks the scope of is configuration
    // (services.business.scopeRefusalAreas, catalog area names; every group when absent).
    const areas = plan.run.target.services.business?.scopeRefusalAreas;
    for (const op of plan.operations.filter((o) => o.authProbe)) {
      const tolerate404 = op.model.parameters.some((p) => p.in === 'path');
      const where = `${op.catalog.area} (${op.row})`;
      for (const which of ['unknownToken', 'malformedToken'] as const) {
        requirementTest('BUS-AUT-002', { row: `${where}: ${which === 'unknownToken' ? 'an unknown' : 'a malformed'} token is refused`, timeoutMs: 180_000 }, async (t) => {
          const exchange = (await authExchangesOf(plan, op))[which];
          judge(t, conclusive([exchange]), (e) => refusedWithoutCredentials(answered(e), t.id, { allow: [401, 403], tolerate404 }));
        });
      }
      if (Array.isArray(areas) && !areas.includes(op.catalog.area)) continue;
      requirementTest('BUS-AUT-003', { row: `${where}: a token without the scope is refused with 403`, timeoutMs: 180_000 }, async (t) => {
        credentialOf(t.target, 'business', 'tokenWithoutScope');
        const { noScope } = await authExchangesOf(plan, op);
        judge(t, conclusive([noScope!]), (e) => refusedWithoutCredentials(answered(e), t.id, { allow: [403], tolerate404 }));
      });
    }
  });

  describe('vendor conventions, over every answer above', () => {
    requirementTest('BUS-AUT-004', { timeoutMs: 300_000 }, async (t) => {
      const refusals = (await allAnswered(plan)).filter(({ exchange }) => exchange.variant === 'no-token' && exchange.response!.status !== 429);
      if (!refusals.length) throw new ToolError('PRECONDITION_MISSING', 'no request without a token got an answer');
      const wrong = refusals.filter(({ exchange }) => exchange.response!.status !== 401);
      t.expectNone(
        wrong.map(({ op, exchange }) => failure(t.id, `${op.row} without a token: 401`, `status ${exchange.response!.status}`)),
        wrong[0]?.exchange.response,
        `${wrong.length} of ${refusals.length} operations`,
      );
    });

    requirementTest('BUS-ERR-001', { timeoutMs: 300_000 }, async (t) => {
      const errors = (await allAnswered(plan)).filter(({ exchange }) => exchange.response!.status >= 400 && exchange.response!.status !== 429);
      if (!errors.length) throw new ToolError('PRECONDITION_MISSING', 'no error answer to judge');
      const wrong = errors.map((x) => ({ ...x, failures: vendorErrorBody(x.exchange.response!, t.id, `${x.op.row}, ${x.exchange.note} (status ${x.exchange.response!.status})`) })).filter((x) => x.failures.length);
      t.expectNone(wrong.flatMap((x) => x.failures), wrong[0]?.exchange.response, `${wrong.length} of ${errors.length} error answers`);
    });
  });
});
