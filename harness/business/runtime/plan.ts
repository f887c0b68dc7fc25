/**
 * The plan of the business runtime and rule suites, made once per worker when a suite file first asks
 * for it while it is collected (so that every test row names an operation the served document really
 * has; importing this module sends nothing): the served document,
 * fetched through the HTTP client, and for every catalog operation (current or deprecated) that it
 * describes, its model, side-effect class (from the catalog), rate group, host (plain or secured) and
 * the requests generated from it with the run's seed.
 */
import { catalogOperations, type CatalogOperation } from '../openapi/catalog.ts';
import { mtlsOperations } from '../openapi/business-target.ts';
import { DocumentSchemas } from '../openapi/json-schema.ts';
import { loadServedDocument } from '../openapi/load.ts';
import { inconclusive, ToolError, type ErrorCode } from '../../errors.ts';
import { jsonBodyOf, operationModel, type OperationModel } from '../openapi/operation-model.ts';
import { OperationIndex, sameOperation, type OperationName } from '../openapi/paths.ts';
import { businessRateGroup, type RateGroup } from '../../request/rate-groups.ts';
import { runContext, type RunContext } from '../../test/suite.ts';
import { perScope } from '../../runner/run-scope.ts';
import { seedFor } from '../../text/seeds.ts';
import { GenerationError, type GeneratedRequest, type InvalidRequest, type RequestGenerator } from './request.ts';

export interface OperationPlan {
  /** "GET /api/v1/card/{ucid}" as the catalog names it. */
  row: string;
  catalog: CatalogOperation;
  model: OperationModel;
  rateGroup: RateGroup;
  /** Listed in services.business.mtlsOperations: sent to mtlsUrl with the client certificate. */
  mtls: boolean;
  /** The first mTLS operation of its catalog area: the one also sent to the plain url (BUS-MTL-004). */
  plainUrlProbe: boolean;
  /** The operation that stands for its catalog area in the token and scope checks (BUS-AUT-002, 003). */
  authProbe: boolean;
  /** Parameters or a JSON body: something an invalid request can break. */
  breakable: boolean;
  /** The run's seed for this operation. */
  seed: number;
}

export interface Generated {
  valid: GeneratedRequest[];
  invalid: InvalidRequest[];
}

export interface RuntimePlan {
  run: RunContext;
  /**
   * Why the runtime suites cannot run at all: the document could not be fetched (a tool error, with its
   * code) or read (inconclusive: BUS-DOC-001 judges the document). Their rows end with it.
   */
  unusable?: ToolError;
  /** Why they do not apply to this target (business not selected or not described): their rows skip. */
  notApplicable?: ToolError;
  raw: Record<string, unknown>;
  operations: OperationPlan[];
  requests: RequestGenerator;
  schemas: DocumentSchemas;
  /** The generated requests by operation, seed and count (generatedFor), shared with every plan over the same document. */
  generated: Map<string, Generated>;
  /** The valid requests by operation, seed and count (validRequests), shared the same way. */
  validRequests: Map<string, GeneratedRequest[]>;
  /** Why the mTLS rows cannot run (services.business.mtlsOperations missing or malformed), when they cannot. */
  mtlsUnconfigured?: ToolError;
}

/** Runs of the property per operation: the run's depth scaled down (25 runs, the default, is one request). */
export function perOperation(runs: number): number {
  return Math.max(1, Math.round(runs / 25));
}

/** The generator of requests over a served document: handed in by generators/business (harness never imports generators). */
export type RequestGeneratorFor = (document: Record<string, unknown>) => RequestGenerator;

/** A plan with no operations, for a run that cannot have one (it says why beside it). */
function emptyPlan(run: RunContext) {
  return {
    run,
    raw: {},
    operations: [],
    requests: undefined as unknown as RequestGenerator,
    schemas: undefined as unknown as DocumentSchemas,
    generated: new Map<string, Generated>(),
    validRequests: new Map<string, GeneratedRequest[]>(),
  };
}

async function build(generatorFor: RequestGeneratorFor): Promise<RuntimePlan> {
  const run = runContext();
  const empty = emptyPlan(run);
  if (!run.target.areas.includes('business'))
    return { ...empty, notApplicable: new ToolError('AREA_NOT_SELECTED', `area business is not selected in target "${run.target.name}"`) };
  if (!run.target.services.business)
    return {
      ...empty,
      notApplicable: new ToolError('CREDENTIAL_MISSING', `services.business is not described in target "${run.target.name}"`),
    };
  let served: Awaited<ReturnType<typeof loadServedDocument>>;
  try {
    served = await loadServedDocument(run.client, run.target);
  } catch (error) {
    // Fetched while the files are collected: a failure here must end the rows, never the file.
    const code: ErrorCode = error instanceof ToolError ? error.code : 'SUITE_ERROR';
    return { ...empty, unusable: new ToolError(code, `the served document could not be fetched: ${(error as Error).message}`) };
  }
  if (!served.readable)
    return {
      ...empty,
      unusable: inconclusive(
        'PRECONDITION_MISSING',
        `the served document could not be read, so no operation can be judged against it (BUS-DOC-001 judges the document): ${served.unreadable}`,
      ),
    };
  const raw = served.readable.raw;
  let secured: OperationName[] = [];
  let mtlsUnconfigured: ToolError | undefined;
  try {
    secured = mtlsOperations(run.target);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    mtlsUnconfigured = error;
  }
  const operations = operationPlans(raw, secured, run.seed);
  const { requests, schemas, generated, validRequests } = documentWork(generatorFor, raw);
  return { run, raw, operations, requests, schemas, generated, validRequests, mtlsUnconfigured };
}

/**
 * What the served document alone decides: the compiled schemas, the request generator and the requests
 * generated for an operation and a seed. None depends on the target, so they are made once per parsed
 * document in a worker (the parse is shared by content: harness/text/parsed-once.ts) and every target that
 * serves the same text shares them: in the fault and latitude runs many variants, each a target of its
 * own, serve the clean document, and each paid the schema compiling and the generation again.
 */
interface DocumentWork {
  requests: RequestGenerator;
  schemas: DocumentSchemas;
  generated: Map<string, Generated>;
  validRequests: Map<string, GeneratedRequest[]>;
}
const workByGenerator = new WeakMap<RequestGeneratorFor, WeakMap<Record<string, unknown>, DocumentWork>>();

function documentWork(generatorFor: RequestGeneratorFor, raw: Record<string, unknown>): DocumentWork {
  let byDocument = workByGenerator.get(generatorFor);
  if (!byDocument) workByGenerator.set(generatorFor, (byDocument = new WeakMap()));
  let work = byDocument.get(raw);
  if (!work)
    byDocument.set(
      raw,
      (work = { requests: generatorFor(raw), schemas: new DocumentSchemas(raw), generated: new Map(), validRequests: new Map() }),
    );
  return work;
}

/** The catalog operations (current or deprecated) the document describes, as the suites exercise them. */
export function operationPlans(raw: Record<string, unknown>, secured: OperationName[], seed: number): OperationPlan[] {
  const index = new OperationIndex(raw);
  const operations: OperationPlan[] = [];
  const probedAreas = new Set<string>();
  for (const catalog of catalogOperations().filter((row) => row.status !== 'removed')) {
    const model = operationModel(raw, index, catalog.method, catalog.path);
    if (!model) continue;
    const row = `${catalog.method} ${catalog.path}`;
    const mtls = secured.some((s) => sameOperation(s, catalog));
    const plainUrlProbe = mtls && !probedAreas.has(catalog.area);
    if (plainUrlProbe) probedAreas.add(catalog.area);
    const breakable = model.parameters.length > 0 || jsonBodyOf(model) !== undefined;
    operations.push({
      row,
      catalog,
      model,
      rateGroup: businessRateGroup(model.path),
      mtls,
      plainUrlProbe,
      authProbe: false,
      breakable,
      seed: seedFor(seed, 'operation', row),
    });
  }
  for (const op of authProbes(operations)) op.authProbe = true;
  return operations;
}

/**
 * One secured operation per catalog area for the token checks: a GET without path parameters where
 * there is one (no 404 can hide the refusal), then any GET, then the first.
 */
function authProbes(operations: OperationPlan[]): OperationPlan[] {
  const byArea = new Map<string, OperationPlan[]>();
  for (const op of operations.filter((o) => o.model.secured)) byArea.set(op.catalog.area, [...(byArea.get(op.catalog.area) ?? []), op]);
  const rank = (op: OperationPlan) => (op.model.method === 'GET' ? 0 : 2) + (op.model.parameters.some((p) => p.in === 'path') ? 1 : 0);
  return [...byArea.values()].map((ops) => [...ops].sort((a, b) => rank(a) - rank(b))[0]);
}

/**
 * The operation's generated requests (made on first use, kept with the document's work: they depend on
 * its model, seed and count alone): perOperation(runs) valid ones, and as many that break one rule each.
 * A document the generators cannot work from skips the operation's tests. Shared: never modify them.
 */
export function generatedFor(plan: RuntimePlan, op: OperationPlan): Generated {
  const count = perOperation(plan.run.runs);
  const key = `${op.row}\0${op.seed}\0${count}`;
  let out = plan.generated.get(key);
  if (out) return out;
  try {
    const valid = validRequests(plan, op, op.seed, count);
    let invalid = plan.requests.invalid(op.model, valid[0], { seed: op.seed, count });
    // A valid request without its optional parameters has nothing to break there: try a few others.
    for (let extra = 1; invalid.length === 0 && op.breakable && extra <= 8; extra++) {
      const other = validRequests(plan, op, seedFor(op.seed, 'breakable-valid', extra), 1)[0];
      invalid = plan.requests.invalid(op.model, other, { seed: op.seed, count });
    }
    out = { valid, invalid };
  } catch (error) {
    if (error instanceof GenerationError) throw new ToolError('PRECONDITION_MISSING', error.message);
    throw error;
  }
  plan.generated.set(key, out);
  return out;
}

/**
 * `count` valid requests of the operation generated with `seed`, made once per document (they depend on
 * its model, the seed and the count alone: kept with the document's work). Shared: never modify them.
 */
export function validRequests(plan: RuntimePlan, op: OperationPlan, seed: number, count: number): GeneratedRequest[] {
  const key = `valid\0${op.row}\0${seed}\0${count}`;
  let out = plan.validRequests.get(key);
  if (!out) plan.validRequests.set(key, (out = plan.requests.valid(op.model, { seed, count })));
  return out;
}

const plans = perScope((): { plan?: Promise<RuntimePlan>; settled?: RuntimePlan } => ({}));

/**
 * The plan, built on first use for the target with the generator its first caller hands in; it never
 * rejects (a plan that cannot be made says why).
 */
export function runtimePlanWith(generatorFor: RequestGeneratorFor): Promise<RuntimePlan> {
  const state = plans();
  return (state.plan ??= build(generatorFor)
    .catch((error: unknown): RuntimePlan => {
      const empty = emptyPlan(runContext());
      return {
        ...empty,
        unusable:
          error instanceof ToolError
            ? error
            : new ToolError('SUITE_ERROR', `the runtime plan could not be made: ${(error as Error).message}`),
      };
    })
    .then((made) => (state.settled = made)));
}

/**
 * The plan runtimePlanWith() made, for the rule helpers that read the served document synchronously. A
 * suite file awaits runtimePlan() before it declares its tests; using a helper before that is our bug.
 */
export function loadedPlan(): RuntimePlan {
  const { settled } = plans();
  if (!settled) throw new ToolError('SUITE_ERROR', 'the business plan was used before the runtime plan had been made');
  return settled;
}
