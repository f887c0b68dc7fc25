/**
 * Every business operation the served document describes and the catalog knows (spec 4.5, 5.5, 7):
 * requests generated from the FETCHED document (path, query, header parameters and JSON bodies), with
 * identifiers that exist where the run can have them, sent to the operation's host (mtlsUrl with the
 * client certificate for the configured operations), and what came back judged against the same
 * document; without a token, without the certificate, with a bad or scopeless token (one operation per
 * group); and the vendor's conventions over all answers.
 *
 * No pass without evidence: a failure counts whenever it is seen, but a row passes only when a valid
 * request of its operation reached the documented success in this run (the control); otherwise it ends
 * inconclusive (NO_CONTROL), whatever the other answers were. One row per operation and requirement;
 * the exchanges are made once per operation and shared by its rows, all operations at once (each rate
 * group at its own pace), so that the groups overlap.
 */
import { beforeAll, describe } from 'vitest';
import {
  acceptanceOf,
  type AcceptanceVerdict,
  bodyConforms,
  bodyDocumented,
  contentTypeDocumented,
  noServerError,
  notServedOnPlainHost,
  rejectedAsInvalid,
  refusedWithoutCertificate,
  judgedSchema,
  servedWithCertificate,
  operationStatusDocumented,
  vendorErrorBody,
} from '../../../harness/business/checks/runtime.ts';
import { isJsonLabelled } from '../../../harness/request/media-type.ts';
import { jsonWhere400, reasonsCarried } from '../../../harness/business/checks/errors.ts';
import { refused } from '../../../harness/checks/answer.ts';
import { failure, type Failure } from '../../../harness/checks/failure.ts';
import { inconclusive } from '../../../harness/errors.ts';
import type { CapturedResponse } from '../../../harness/request/http.ts';
import { isTlsRefusal } from '../../../harness/business/mtls.ts';
import { requirementTest, type RequirementContext } from '../../../harness/test/suite.ts';
import { scoped } from '../../../harness/runner/run-scope.ts';
import { credentialOf } from '../../../harness/config/target.ts';
import { allAnswered, authExchangesOf, everyOperation, exchangesOf, prefetch } from '../../../harness/business/runtime/exchanges.ts';
import { type OperationExchange, serverErrorsOf } from '../../../harness/business/runtime/send.ts';
import { disposableShortage } from '../../../harness/business/runtime/fixtures.ts';
import { refusedForCertificate } from '../../../harness/business/runtime/certificate.ts';
import { identifiersExist } from '../../../harness/business/runtime/identifiers.ts';
import { readLinks } from '../../../harness/business/runtime/links.ts';
import { templateKey } from '../../../harness/business/openapi/paths.ts';
import {
  answered,
  conclusive,
  documentsContent,
  documentsJsonSchema,
  operationControl,
  served,
  unknownIdentifierIs400,
} from '../../../harness/business/runtime/judge.ts';
import type { OperationPlan, RuntimePlan } from '../../../harness/business/runtime/plan.ts';
import { runtimePlan } from '../../../generators/business/plan.ts';
import { skippedRow, unusableRows } from '../../../harness/business/blocks.ts';

const plan = await runtimePlan();
/**
 * The paths of the reads BUS-STA-001 pairs with a create: whether what the create made is found there
 * (by its read, or an edit or delete of the same path) is that requirement's subject.
 */
const linkedPaths = new Set(readLinks(plan.raw, plan.operations).map((link) => templateKey(link.read.model.path)));
const readOfCreate = (op: OperationPlan) => linkedPaths.has(templateKey(op.model.path));

const IDS = [
  'BUS-RUN-001',
  'BUS-RUN-002',
  'BUS-RUN-003',
  'BUS-RUN-004',
  'BUS-RUN-005',
  'BUS-NEG-001',
  'BUS-AUT-001',
  'BUS-AUT-002',
  'BUS-AUT-003',
  'BUS-AUT-004',
  'BUS-ERR-001',
  'BUS-ERR-002',
  'BUS-ERR-004',
  'BUS-MTL-003',
  'BUS-MTL-004',
  'BUS-MTL-005',
];

interface Answer {
  e: OperationExchange;
  res: CapturedResponse;
}

/** Every answer of the exchanges, a 5xx that a retry did not repeat included. */
const answersOf = (exchanges: OperationExchange[]): Answer[] => conclusive(exchanges).flatMap((e) => e.attempts.map((res) => ({ e, res })));

/** Runs a check on each answer and fails with all failures, each under the exchange it came from. */
function judge(t: RequirementContext, answers: Answer[], check: (a: Answer) => Failure[]): void {
  const failed = answers.map((a) => ({ a, failures: check(a) })).filter((x) => x.failures.length);
  if (!failed.length) return;
  const [first] = failed;
  // The defect stays in the check's words: the same defect met by a test that takes it as given is one root cause.
  const failures = failed.flatMap(({ a, failures }) =>
    failures.map((f) => ({ ...f, defect: f.defect ?? f.expected, expected: `${f.expected} — for ${a.e.note}` })),
  );
  const note = `${failed.length} of ${answers.length} answer(s) failed; the reproduction is of the first: ${first.a.e.note} (requests generated with CONFORMANCE_SEED=${t.seed})`;
  t.expectNone(failures, first.a.res, note);
}

/** No 5xx to a valid request; a 5xx that the one retry did not repeat is still a failure, named intermittent. */
function noServerErrors(e: OperationExchange, id: string): Failure[] {
  return e.attempts.flatMap((res, i) => {
    const retry = e.attempts[i + 1];
    const failures = noServerError(res, id);
    return retry && retry.status < 500
      ? failures.map((f) => ({ ...f, received: `${f.received}, intermittent: the one retry answered ${retry.status}` }))
      : failures;
  });
}

/**
 * On an operation that destroys what it names, the probe sent alongside with the valid request's
 * identifiers (without a token, without the certificate, on the plain url, or breaking one rule) that
 * was served anyway: what the valid request names may be gone by the time it arrives. Each probe's own
 * requirement (BUS-AUT-001, BUS-MTL-003/004, BUS-NEG-001) judges that it was served.
 */
function servedProbe(op: OperationPlan, x: Awaited<ReturnType<typeof exchangesOf>>): string | undefined {
  if (op.catalog.sideEffect !== 'destructive' && op.model.method !== 'DELETE') return undefined;
  const probes = [x.noToken, x.noCertificate, x.plainUrl, ...x.invalid].filter((e): e is OperationExchange => e !== undefined);
  return probes.find((e) => e.attempts.some((res) => res.status >= 200 && res.status < 300))?.note;
}

function operationRows(plan: RuntimePlan, op: OperationPlan): void {
  const row = (text: string) => `${op.row}: ${text}`;
  const options = (text: string) => ({ row: row(text), timeoutMs: 180_000 });
  /**
   * Judges the answers, then asks for the control before the row may pass; where `judges` says which
   * answers the check has something to say about, a row where it had nothing to say about any ends
   * inconclusive, never passed.
   */
  async function judged(
    t: RequirementContext,
    pick: (x: Awaited<ReturnType<typeof exchangesOf>>) => OperationExchange[],
    check: (a: Answer) => Failure[],
    what: string,
    judges?: { which: (a: Answer) => boolean; none: string },
  ) {
    const exchanges = await exchangesOf(plan, op);
    const answers = answersOf(pick(exchanges));
    judge(t, answers, check);
    operationControl(plan, op, exchanges, what);
    if (judges && !answers.some(judges.which))
      throw inconclusive('PRECONDITION_MISSING', `no answer of ${op.row} ${judges.none}, so nothing was judged`);
  }
  /** A refusal among the operation's own exchanges (see refusalOf). */
  async function refusal(
    t: RequirementContext,
    pick: (x: Awaited<ReturnType<typeof exchangesOf>>) => OperationExchange[],
    check: (a: Answer) => Failure[],
    what: string,
  ) {
    await refusalOf(t, plan, op, answersOf(pick(await exchangesOf(plan, op))), check, what);
  }
  const everyAnswer = (x: Awaited<ReturnType<typeof exchangesOf>>) => [
    ...x.valid,
    ...(x.unknown ? [x.unknown] : []),
    ...x.invalid,
    ...(x.noToken ? [x.noToken] : []),
  ];

  requirementTest('BUS-RUN-001', options('a valid request gets no 5xx'), async (t) => {
    const exchanges = await exchangesOf(plan, op);
    const valid = conclusive(exchanges.valid);
    const own = new Set(valid.flatMap((e) => e.attempts));
    // The creates and lists that looked for identifiers sent valid requests too: their 5xx count.
    const lookups = serverErrorsOf(op).filter(({ res }) => !own.has(res));
    const failures = [
      ...valid.flatMap((e) => noServerErrors(e, t.id)),
      ...lookups.flatMap(({ note, res }) => noServerError(res, t.id).map((f) => ({ ...f, expected: `${f.expected} — for ${note}` }))),
    ];
    const first = valid.flatMap((e) => e.attempts).find((r) => r.status >= 500) ?? lookups[0]?.res;
    if (failures.length) t.expectNone(failures, first, `${failures.length} valid request(s) of ${op.row} drew a 5xx`);
    operationControl(plan, op, exchanges, 'the absence of a 5xx');
  });

  requirementTest('BUS-RUN-002', options('every answer has a documented status'), async (t) => {
    await judged(
      t,
      everyAnswer,
      ({ e, res }) => operationStatusDocumented(op.model, res, t.id, { credentialRefusal: e.variant === 'no-token' }),
      'a documented status',
    );
  });

  if (documentsContent(op.model)) {
    requirementTest('BUS-RUN-003', options('every answer has its documented body and Content-Type'), async (t) => {
      await judged(t, everyAnswer, ({ res }) => contentTypeDocumented(op.model, res, t.id), 'a documented Content-Type', {
        which: ({ res }) => bodyDocumented(op.model, res),
        none: 'had a status the document gives a body',
      });
    });
  }

  if (documentsJsonSchema(op.model, { errors: op.breakable || op.model.secured })) {
    requirementTest('BUS-RUN-004', options('every JSON answer conforms to its documented schema'), async (t) => {
      await judged(t, everyAnswer, ({ res }) => bodyConforms(op.model, res, plan.schemas, t.id), 'a conforming error body', {
        which: ({ res }) => judgedSchema(op.model, res) !== undefined,
        none: 'had a body and a status the document gives a JSON schema',
      });
    });
  }

  requirementTest('BUS-RUN-005', options('a valid request reaches its documented success'), async (t) => {
    const exchanges = await exchangesOf(plan, op);
    const valid = conclusive(exchanges.valid);
    const consumedBy = servedProbe(op, exchanges);
    // Refused for its certificate where 5.5 says it is not: BUS-MTL-005's or BUS-MTL-006's subject, which this row takes as given.
    const verdictOf = (e: OperationExchange): AcceptanceVerdict => {
      const certificate = refusedForCertificate(op, e.host, answered(e));
      if (certificate.length) return { failures: certificate };
      return acceptanceOf(op.model, answered(e), plan.schemas, t.id, {
        consumedBy,
        identifiersExist: identifiersExist(e.origins ?? {}),
        unknownIdentifierIs400: unknownIdentifierIs400(op),
        createdReadableBy: readOfCreate(op) && Object.values(e.origins ?? {}).includes('created') ? 'BUS-STA-001' : undefined,
      });
    };
    judge(
      t,
      valid.map((e) => ({ e, res: answered(e) })),
      ({ e }) => verdictOf(e).failures,
    );
    if (valid.some((e) => served(plan, op, e.response))) return;
    const origins = Object.entries(valid[0].origins ?? {})
      .map(([name, origin]) => `${name} ${origin}`)
      .join(', ');
    // A destructive operation with a generated identifier: the target file gave it nothing it may destroy.
    const shortage = Object.values(valid[0].origins ?? {}).includes('generated') ? disposableShortage(op) : undefined;
    throw inconclusive(
      'PRECONDITION_MISSING',
      `no valid request reached the documented success: ${valid.map((e) => verdictOf(e).unjudged).join('; ')}${origins ? ` (identifiers: ${origins})` : ''}${shortage ? `; ${shortage}` : ''}`,
    );
  });

  if (op.breakable) {
    requirementTest('BUS-NEG-001', options('a request that breaks one rule is rejected'), async (t) => {
      const { invalid } = await exchangesOf(plan, op);
      if (!invalid.length) throw inconclusive('NOT_LOCATED', `the document gives ${op.row} no rule that a request can break on the wire`);
      await refusal(
        t,
        (x) => x.invalid,
        ({ res }) => rejectedAsInvalid(res, t.id),
        'a refusal of a broken request',
      );
    });
  }

  if (op.model.secured) {
    requirementTest('BUS-AUT-001', options('a request without a token is refused'), async (t) => {
      await refusal(
        t,
        (x) => [x.noToken!],
        ({ res }) => refused(res, t.id),
        'a refusal without a token',
      );
    });
  }

  if (op.mtls) {
    requirementTest('BUS-MTL-003', options('refused on mtlsUrl without a client certificate'), async (t) => {
      const exchanges = await exchangesOf(plan, op);
      const noCertificate = exchanges.noCertificate!;
      const judgedExchange = noCertificate.error !== undefined ? noCertificate : conclusive([noCertificate])[0];
      const failures = refusedWithoutCertificate(judgedExchange, t.id, (error) => isTlsRefusal(error));
      const status = judgedExchange.response?.status;
      if (status !== undefined && (status < 300 || status >= 500)) t.expectNone(failures, judgedExchange.response, judgedExchange.note);
      operationControl(plan, op, exchanges, 'a refusal without the certificate');
      t.expectNone(failures, judgedExchange.response, judgedExchange.note);
    });
    requirementTest('BUS-MTL-005', options('served on mtlsUrl with the client certificate'), async (t) => {
      const exchanges = await exchangesOf(plan, op);
      judge(t, answersOf(exchanges.valid), ({ res }) => servedWithCertificate(res, t.id));
      operationControl(plan, op, exchanges, 'an answer that does not refuse the certificate');
    });
  }

  if (op.plainUrlProbe) {
    requirementTest('BUS-MTL-004', options(`not served on the plain url (one operation of ${op.catalog.area})`), async (t) => {
      await refusal(
        t,
        (x) => [x.plainUrl!],
        ({ res }) => notServedOnPlainHost(res, t.id),
        'a refusal on the plain url',
      );
    });
  }
}

/**
 * A refusal: served (2xx) or a server error fails whatever the control; any other answer is judged only
 * next to the control, for a target that refuses valid requests too says nothing by refusing.
 */
async function refusalOf(
  t: RequirementContext,
  plan: RuntimePlan,
  op: OperationPlan,
  answers: Answer[],
  check: (a: Answer) => Failure[],
  what: string,
) {
  judge(
    t,
    answers.filter(({ res }) => res.status < 300 || res.status >= 500),
    check,
  );
  operationControl(plan, op, await exchangesOf(plan, op), what);
  judge(t, answers, check);
}

/** The token and scope rows of an operation that stands for its group (5.5). */
function authRows(plan: RuntimePlan, op: OperationPlan, scopeRefusal: boolean): void {
  const where = `${op.catalog.area} (${op.row})`;
  for (const which of ['unknownToken', 'malformedToken'] as const) {
    requirementTest(
      'BUS-AUT-002',
      { row: `${where}: ${which === 'unknownToken' ? 'an unknown' : 'a malformed'} token is refused`, timeoutMs: 180_000 },
      async (t) => {
        const exchange = (await authExchangesOf(plan, op))[which];
        await refusalOf(t, plan, op, answersOf([exchange]), ({ res }) => refused(res, t.id), 'a refusal of a bad token');
      },
    );
  }
  if (!scopeRefusal) return;
  requirementTest('BUS-AUT-003', { row: `${where}: a token without the scope is refused`, timeoutMs: 180_000 }, async (t) => {
    credentialOf(t.target, 'business', 'tokenWithoutScope');
    const { noScope } = await authExchangesOf(plan, op);
    await refusalOf(t, plan, op, answersOf([noScope!]), ({ res }) => refused(res, t.id), 'a refusal of a token without the scope');
  });
}

/**
 * The operations whose valid requests reached the documented success in this run: the evidence a
 * convention over all answers needs. With none, an operation's tool error (a run out of time) is why.
 */
async function controlledOperations(plan: RuntimePlan, what: string): Promise<Set<OperationPlan>> {
  const { made, toolError } = await everyOperation(plan);
  const controlled = new Set(
    made.filter(({ op, exchanges }) => exchanges.valid.some((e) => served(plan, op, e.response))).map((x) => x.op),
  );
  if (!controlled.size)
    throw (
      toolError ??
      inconclusive('NO_CONTROL', `no operation's valid request reached its documented success in this run, so ${what} proves nothing`)
    );
  return controlled;
}

describe('business runtime: every operation of the served document', () => {
  if (unusableRows(plan, IDS, 'every operation of the served document')) return;
  if (plan.mtlsUnconfigured)
    for (const id of ['BUS-MTL-003', 'BUS-MTL-004', 'BUS-MTL-005'])
      skippedRow(id, 'operations that need a client certificate', plan.mtlsUnconfigured);
  // Not awaited: the rows await their own operation's exchanges, and the rest go on meanwhile.
  beforeAll(scoped(() => void prefetch(plan)));
  for (const op of plan.operations) {
    describe(op.row, () => operationRows(plan, op));
  }

  describe('tokens and scopes, one operation per group (5.5)', () => {
    // Which groups services.business.tokenWithoutScope lacks the scope of is configuration
    // (services.business.scopeRefusalAreas, catalog area names; every group when absent).
    const areas = plan.run.target.services.business?.scopeRefusalAreas;
    for (const op of plan.operations.filter((o) => o.authProbe))
      authRows(plan, op, !Array.isArray(areas) || areas.includes(op.catalog.area));
  });

  describe('spec 7, over every answer above', () => {
    // The scope refusals have a row per group (suites/business/rules/errors.test.ts); every other 403 is judged here.
    requirementTest('BUS-ERR-004', { row: 'every 403 the operations answered carries its reasons', timeoutMs: 300_000 }, async (t) => {
      const { answers, toolError } = await allAnswered(plan);
      const forbidden = answers.filter(({ exchange }) => exchange.response!.status === 403);
      if (!forbidden.length)
        throw toolError ?? inconclusive('PRECONDITION_MISSING', 'no request of the operations was answered 403 in this run');
      const bare = forbidden.flatMap(({ op, exchange }) => reasonsCarried(exchange.response!, t.id, `${op.row}, ${exchange.note}`));
      t.expectNone(bare, forbidden[0].exchange.response, `${bare.length} of ${forbidden.length} 403 answers`);
      await controlledOperations(plan, 'a 403 that carries its reasons');
    });

    requirementTest('BUS-ERR-002', { row: 'every 400 the operations answered is JSON', timeoutMs: 300_000 }, async (t) => {
      const { answers, toolError } = await allAnswered(plan);
      const bad = answers.filter(({ exchange }) => exchange.response!.status === 400);
      if (!bad.length) throw toolError ?? inconclusive('PRECONDITION_MISSING', 'no request of the operations was answered 400 in this run');
      const notJson = bad.flatMap(({ op, exchange }) => jsonWhere400(exchange.response!, t.id, `${op.row}, ${exchange.note}`));
      t.expectNone(notJson, bad[0].exchange.response, `${notJson.length} of ${bad.length} 400 answers`);
      await controlledOperations(plan, 'a 400 in JSON');
    });
  });

  describe('vendor conventions, over every answer above', () => {
    requirementTest('BUS-AUT-004', { timeoutMs: 300_000 }, async (t) => {
      const { answers, toolError } = await allAnswered(plan);
      const refusals = answers.filter(({ exchange }) => exchange.variant === 'no-token' && exchange.response!.status !== 429);
      const wrong = refusals.filter(({ exchange }) => exchange.response!.status !== 401);
      // An operation that refuses its valid requests for their certificate (BUS-MTL-005's or BUS-MTL-006's subject) refuses a token-less one for it too: that says nothing of the token.
      const failures = await Promise.all(
        wrong.map(async ({ op, exchange }) => {
          const certificate = (await exchangesOf(plan, op)).valid
            .map((e) => (e.response ? refusedForCertificate(op, e.host, e.response) : []))
            .find((f) => f.length);
          return certificate ?? [failure(t.id, `${op.row} without a token: 401`, `status ${exchange.response!.status}`)];
        }),
      );
      t.expectNone(failures.flat(), wrong[0]?.exchange.response, `${wrong.length} of ${refusals.length} operations`);
      const controlled = await controlledOperations(plan, 'a 401 without a token');
      if (!refusals.some(({ op }) => controlled.has(op)))
        throw toolError ?? inconclusive('NO_CONTROL', 'no operation whose valid request was served got a request without a token');
    });

    requirementTest('BUS-ERR-001', { timeoutMs: 300_000 }, async (t) => {
      // The error answers with a JSON body: the convention says what such a body holds, and nothing of others.
      const { answers, toolError } = await allAnswered(plan);
      const errors = answers.filter(
        ({ exchange }) => exchange.response!.status >= 400 && exchange.response!.status !== 429 && isJsonLabelled(exchange.response!),
      );
      const wrong = errors
        .map((x) => ({
          ...x,
          failures: vendorErrorBody(x.exchange.response!, t.id, `${x.op.row}, ${x.exchange.note} (status ${x.exchange.response!.status})`),
        }))
        .filter((x) => x.failures.length);
      t.expectNone(
        wrong.flatMap((x) => x.failures),
        wrong[0]?.exchange.response,
        `${wrong.length} of ${errors.length} error answers`,
      );
      const controlled = await controlledOperations(plan, 'an error body');
      if (!errors.some(({ op }) => controlled.has(op)))
        throw toolError ?? inconclusive('PRECONDITION_MISSING', 'no JSON error answer of an operation whose valid request was served');
    });
  });
});
