/**
 * The fault (mutation) run: proves that every check can fail.
 * 1. The clean sandbox, with marker secrets, must pass the whole suite 100%, and every requirement of
 *    specs/requirements.yaml must have passed at least one test.
 * 2. Each fault of the catalog is switched on alone in its own sandbox; the tests of the requirements
 *    it names, and of those they depend on, run against it (the suite files of its area that name them).
 *    Many faults share one vitest run (selftest/variants/batch.ts), each against its own sandbox and target file. A fault is killed only when every requirement it names failed
 *    with a contract failure (verdict `failed`): a tool error (TARGET_*, SUITE_ERROR) proves nothing.
 *    Every requirement must be named by at least one fault.
 *    Precision: the faults of the share PRECISION names (default: the day's part of each area's faults, one
 *    in fourteen of business, one in four of the others; `full`: all) run their area's whole suite instead, and any blocking requirement (spec,
 *    configuration) that failed and that the fault does not name is a collateral failure: printed per
 *    fault with its root cause, and the run fails on any.
 * 3. Degenerate targets (sandbox/faults/degenerate.ts: every answer 401, 404, an empty 200, `{}`, an HTML page, JSON labelled HTML,
 *    a first 500): the whole suite runs against each; per area, at most 5% of the tests that ran (one at least) may
 *    pass, and no test of an `acceptance: true` requirement may pass.
 * 4. No output of any run (console, junit, summaries) may contain a marker secret or a whole JWT.
 * Prints `mutation score: K/N killed` (contract failures only) and the wall time; exits non-zero when
 * anything is off. Reports go to a temporary folder, never to reports/.
 *   FAULTS=id,id   only these faults      AREA=insurance   only this area's faults
 *   FAULT_BATCH=40 faults per batch run    SKIP_CLEAN=1     skip step 1 (while developing faults)
 *   SKIP_DEGENERATE=1 skip step 3          DEGENERATE=id,id only these degenerate targets (run even with FAULTS)
 *   FAULT_PARALLEL=2  batch runs at a time (default: one per core and one more)
 *   PRECISION=full|off|k/n  which faults run their area's whole suite (default: the day's part, k/14 of business, k/4 of the others)
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { dependenciesOf, requirements } from '../harness/spec/requirements.ts';
import { rootCausesOf } from '../harness/report/records.ts';
import { CI_SEED, faultRunSettings, precisionParts, type FaultRunSettings } from '../harness/runner/settings.ts';
import { TARGET_WIDE_FAULTS } from '../sandbox/faults/degenerate.ts';
import type { TestRecord } from '../harness/report/records.ts';
import type { Fault } from '../sandbox/faults/types.ts';
import { loadServices } from '../sandbox/services/index.ts';
import { startSandbox } from '../sandbox/server.ts';
import { runSuite, tempDir } from './helpers.ts';
import { rmSync } from 'node:fs';
import { runBatch, type BatchRun } from './variants/batch.ts';
import {
  allSuiteFiles,
  areaFiles,
  batchesOf,
  leaks,
  markerCredentials,
  reportTexts,
  slowestFiles,
  suiteFilesFor,
} from './variants/common.ts';
import { batchesAtOnce, FIRST, inOrder, OrderedLog, type Section, type SlotUser, Slots } from './variants/pool.ts';

/** Faults per batch run: enough that the harness's imports and the business plan are paid rarely, few enough to keep memory small. */
const BATCH_SIZE = 40;

interface Outcome {
  fault: Fault;
  killed: boolean;
  missing: string[];
  /** Named requirements that ended in a tool error instead of a contract failure. */
  toolErrors: string[];
  alsoFailed: string[];
  /**
   * Where the fault ran its area's whole suite: the blocking requirements (spec, configuration) that failed
   * and that it does not name, each with the defect it failed on. Undefined where it ran only what it names.
   */
  collateral?: string[];
  /** Defects (root causes) the fault's run showed, where it ran its area's whole suite. */
  defects?: number;
  note?: string;
}

/** Requirements that block a certification of the sandbox's target (strictPolicy off): spec and configuration. */
const blocking = (id: string | undefined) => {
  const source = id ? requirements().get(id)?.source : undefined;
  return source === 'spec' || source === 'configuration';
};

/** A fault's verdict from its batch: killed only when every requirement it names failed with a contract failure. */
function outcomeOf(fault: Fault, run: BatchRun, precise: boolean): Outcome {
  const tests = run.byVariant.get(fault.id) ?? [];
  const failedIds = new Set(tests.filter((t) => t.verdict === 'failed').map((t) => t.requirement ?? '?'));
  const erroredIds = new Set(tests.filter((t) => t.verdict === 'error').map((t) => t.requirement ?? '?'));
  const missing = fault.catches.filter((id) => !failedIds.has(id));
  // A batch that wrote no summary measured nothing: its faults are not counted as precise.
  const measured = precise && run.summary !== undefined;
  const collateralIds = measured ? [...failedIds].filter((id) => !fault.catches.includes(id) && blocking(id)) : undefined;
  const described = (id: string) => `${id} (${tests.find((t) => t.verdict === 'failed' && t.requirement === id)?.rootCause ?? '?'})`;
  return {
    collateral: collateralIds?.map(described),
    defects: measured ? rootCausesOf(tests).length : undefined,
    fault,
    killed: run.summary !== undefined && missing.length === 0,
    missing,
    toolErrors: missing
      .filter((id) => erroredIds.has(id))
      .map((id) => {
        const t = tests.find((x) => x.verdict === 'error' && x.requirement === id);
        return `${id}: ${(t?.message ?? t?.code ?? '').split('\n')[0].slice(0, 200)}`;
      }),
    alsoFailed: [...failedIds].filter((id) => !fault.catches.includes(id)),
    note: run.summary
      ? tests.length
        ? undefined
        : 'no test of it ran'
      : `the batch wrote no summary (exit ${run.code}): ${(run.stderr || run.stdout).slice(-400)}`,
  };
}

/** Step 1: the whole suite against the clean sandbox with marker secrets: 100% passing, every requirement proven, no leak. */
async function cleanRun(
  overrides: Record<string, Record<string, string>>,
  markers: string[],
  log: (line: string) => void,
): Promise<boolean> {
  let ok = true;
  const from = process.uptime();
  const sandbox = await startSandbox({ credentials: overrides });
  const dir = tempDir('pc-clean-');
  const run = await runSuite({
    env: {
      CONFORMANCE_TARGET: sandbox.writeTarget(join(dir, 'target.yaml')),
      CONFORMANCE_SEED: String(CI_SEED),
      // Two workers, not the six of a target file's default: every worker imports the harness and makes
      // its areas' plans, and on two cores six of them took a quarter more CPU and longer (42 against 33
      // core-s with three, 24 with two); two still share one pacer across workers.
      CONFORMANCE_WORKERS: '2',
    },
    reportDir: join(dir, 'reports'),
  });
  await sandbox.close();
  const s = run.summary;
  const passedIds = new Set((s?.tests ?? []).filter((t) => t.verdict === 'passed').map((t) => t.requirement));
  const unproven = [...requirements().keys()].filter((id) => !passedIds.has(id));
  const leaked = leaks(reportTexts(run.stdout + run.stderr, run.reportDir), markers);
  log(
    `clean sandbox: ${s ? `${s.counts.passed} passed, ${s.counts.failed} failed, ${s.counts.skipped} skipped` : 'no summary'} in ${(run.wallMs / 1000).toFixed(1)} s (from ${from.toFixed(0)} s)`,
  );
  if (!s || s.counts.failed > 0 || run.code !== 0) {
    ok = false;
    log(
      `  ✗ the clean sandbox must pass 100%:\n${
        (s?.tests ?? [])
          .filter((t) => t.verdict === 'failed' || t.verdict === 'error')
          .map((t) => `    ${t.title}\n${t.message}`)
          .join('\n') || run.stdout.slice(-3000)
      }`,
    );
  }
  if (unproven.length) {
    ok = false;
    log(`  ✗ requirements without a passing test on the clean sandbox: ${unproven.join(', ')}`);
  }
  for (const l of leaked) log(`  ✗ leak: ${l}`);
  if (leaked.length) ok = false;
  rmSync(dir, { recursive: true, force: true });
  return ok;
}

/**
 * A part of the fault run that goes on beside its fault batches (the clean run, the degenerate batch), or
 * none: its section ends when it is done, or at once. Awaited at the end of the run, which is where a
 * throw of it is thrown, not earlier as an unhandled rejection.
 */
function beside(section: Section, run: (() => Promise<boolean>) | undefined): Promise<boolean> {
  if (!run) {
    section.end();
    return Promise.resolve(true);
  }
  const done = run().finally(section.end);
  done.catch(() => undefined);
  return done;
}

/**
 * The fault run in `slots` (its own, or shared with the latitude run), its lines into `out`. Its clean
 * run, its fault batches and its degenerate batch take slots side by side; their lines are printed in
 * that order.
 */
export async function faultRun(slots: SlotUser, out: OrderedLog = new OrderedLog()): Promise<number> {
  const started = Date.now();
  const { overrides, markers } = await markerCredentials();
  const settings = faultRunSettings();
  const [cleanPart, faultPart, degeneratePart, summaryPart] = [out.section(), out.section(), out.section(), out.section()];

  const clean = beside(cleanPart, settings.skipClean ? undefined : () => slots.use(() => cleanRun(overrides, markers, cleanPart.log)));
  const log = faultPart.log;
  let ok = true;
  const wanted = settings.faults;
  const catalog = (await loadServices()).flatMap((m) => m.faults);
  const faults = catalog.filter((f) => (!wanted.length || wanted.includes(f.id)) && (!settings.area || f.area === settings.area));
  const unknownIds = catalog.flatMap((f) =>
    f.catches.filter((id) => !requirements().has(id)).map((id) => `${f.id} names unknown requirement ${id}`),
  );
  for (const u of unknownIds) log(`  ✗ ${u}`);
  if (unknownIds.length) ok = false;

  const degenerate = beside(
    degeneratePart,
    !settings.skipDegenerate && ((!wanted.length && !settings.area) || settings.degenerate.length)
      ? () => degenerateRun(slots, overrides, markers, degeneratePart.log)
      : undefined,
  );
  // The batches that run the most kinds of suite file first: a batch of document faults runs one file per
  // fault and is over in 15 to 25 s, the one of the runtime faults runs eight and took 75 s; asked for last,
  // it had ended the whole selftest alone.
  // A fault runs the tests of what it names and of what those take as given (their failure settles a
  // dependent test), or, where its precision is measured, its area's whole suite.
  const precise = new Set(preciseFaults(faults, settings.precision).map((f) => f.id));
  const onlyOf = (f: Fault) => [...new Set([...f.catches, ...f.catches.flatMap((id) => [...dependenciesOf(id)])])];
  const filesOf = new Map(faults.map((f) => [f.id, precise.has(f.id) ? areaFiles(f.area) : suiteFilesFor(f, onlyOf(f))]));
  const kinds = (batch: Fault[]) => new Set(batch.flatMap((f) => filesOf.get(f.id)!)).size;
  const batches = [
    ...batchesOf(
      faults.filter((f) => precise.has(f.id)),
      (area) => PRECISE_BATCH[area] ?? settings.batchSize ?? BATCH_SIZE,
    ),
    ...batchesOf(
      faults.filter((f) => !precise.has(f.id)),
      settings.batchSize ?? BATCH_SIZE,
    ),
  ].sort((a, b) => kinds(b) * b.length - kinds(a) * a.length);
  log(
    `fault run: ${faults.length} faults in ${batches.length} batch run(s), each fault against its own sandbox; ${precise.size} of them over their area's whole suite (precision: ${describePrecision(settings.precision, [...new Set(faults.map((f) => f.area))])})`,
  );
  const outcomes: Outcome[] = [];
  let leaked = false;
  const run = (batch: Fault[]) =>
    runBatch(
      batch.map((f) => ({ id: f.id, switches: [f.id], files: filesOf.get(f.id)!, only: precise.has(f.id) ? undefined : onlyOf(f) })),
      { credentials: overrides },
    );
  const report = (batch: Fault[], run: BatchRun, again = false) => {
    const batchLeaks = leaks([['console output', run.stdout + run.stderr], ...run.reports], markers);
    for (const l of batchLeaks) log(`    ✗ leak in the batch of ${batch[0].area}: ${l}`);
    if (batchLeaks.length) leaked = true;
    log(
      `  ${again ? 'again, ' : ''}batch of ${batch.length} ${batch[0].area} fault(s): ${(run.wallMs / 1000).toFixed(1)} s (from ${run.startedAtS.toFixed(0)} s; test time by file: ${slowestFiles(run.byVariant)})`,
    );
    for (const fault of batch) {
      const o = outcomeOf(fault, run, precise.has(fault.id));
      const earlier = outcomes.findIndex((x) => x.fault.id === fault.id);
      if (earlier >= 0) outcomes[earlier] = o;
      else outcomes.push(o);
      const mark = o.killed ? 'killed  ' : 'SURVIVED';
      const extra = o.killed
        ? ''
        : `  missing: ${o.missing.join(', ')}${o.toolErrors.length ? ` (tool errors, not contract failures: ${o.toolErrors.join('; ')})` : ''}${o.note ? `; ${o.note}` : ''}`;
      const also = o.collateral?.length
        ? `  COLLATERAL: ${o.collateral.join('; ')}`
        : !o.collateral && o.alsoFailed.length
          ? `  also failed: ${o.alsoFailed.join(', ')}`
          : '';
      const defects = o.defects !== undefined ? ` ${o.defects} defect(s)` : '';
      log(`  ${mark} ${o.fault.id.padEnd(40)} [${o.fault.catches.join(', ')}]${defects}${extra}${also}`);
    }
  };
  await inOrder(batches, slots, run, (batch, run) => report(batch, run));
  // A fault that survived only because what it names ended in tool errors (a sandbox a busy machine starved
  // past its deadline) proved nothing either way: it runs once more, in small batches of its own.
  const onTools = outcomes.filter(
    (o) => !o.killed && o.missing.length && o.missing.every((id) => o.toolErrors.some((e) => e.startsWith(`${id}:`))),
  );
  if (onTools.length) {
    log(
      `  ${onTools.length} fault(s) survived on tool errors alone: run again, a few at a time: ${onTools.map((o) => o.fault.id).join(', ')}`,
    );
    await inOrder(
      batchesOf(
        onTools.map((o) => o.fault),
        4,
      ),
      slots,
      run,
      (batch, run) => report(batch, run, true),
    );
  }
  const killed = outcomes.filter((o) => o.killed).length;
  if (!wanted.length && !settings.area) {
    const named = new Set(catalog.flatMap((f) => f.catches));
    const uncovered = [...requirements().keys()].filter((id) => !named.has(id));
    if (uncovered.length) {
      ok = false;
      log(`  ✗ ${uncovered.length} requirement(s) named by no fault: ${uncovered.join(', ')}`);
    } else log('every requirement is named by at least one fault');
  }
  faultPart.end();
  if (leaked) ok = false;
  if (!(await clean)) ok = false;
  if (!(await degenerate)) ok = false;
  const byArea = new Map<string, [number, number]>();
  for (const o of outcomes) {
    const [k, n] = byArea.get(o.fault.area) ?? [0, 0];
    byArea.set(o.fault.area, [k + (o.killed ? 1 : 0), n + 1]);
  }
  summaryPart.log(`by area: ${[...byArea].map(([a, [k, n]]) => `${a} ${k}/${n}`).join(', ')}`);
  summaryPart.log(`mutation score: ${killed}/${outcomes.length} killed`);
  const measured = outcomes.filter((o) => o.collateral);
  const withCollateral = measured.filter((o) => o.collateral!.length);
  summaryPart.log(
    `precision: ${measured.length - withCollateral.length}/${measured.length} faults measured over their area's whole suite failed no blocking requirement they do not name (collateral failures: ${withCollateral.reduce((n, o) => n + o.collateral!.length, 0)})`,
  );
  if (withCollateral.length) {
    ok = false;
    summaryPart.log(`  ✗ faults with collateral failures: ${withCollateral.map((o) => o.fault.id).join(', ')}`);
  }
  summaryPart.log(`fault run wall time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  summaryPart.end();
  return ok && killed === outcomes.length ? 0 : 1;
}

/**
 * Variants per batch where a fault runs its area's whole suite: a business fault runs about 1,800 tests,
 * so ten share a batch (as the business latitudes do), while the other areas' suites are small.
 */
const PRECISE_BATCH: Record<string, number> = { business: 10 };

/** The part of an area's faults a share measures: the k-th of n, or the day's of the area's own number of parts. */
function partOf(share: { part: number; of: number } | { day: number }, area: string): { part: number; of: number } {
  if ('part' in share) return share;
  const of = precisionParts(area);
  return { part: share.day % of, of };
}

/** The faults whose precision the run measures: all, none, or a part of every area's faults. */
function preciseFaults(faults: readonly Fault[], precision: FaultRunSettings['precision']): Fault[] {
  if (precision === 'full') return [...faults];
  if (precision === 'off') return [];
  return faults.filter((f) => {
    const ofArea = faults.filter((g) => g.area === f.area);
    const { part, of } = partOf(precision, f.area);
    return Math.floor((ofArea.indexOf(f) * of) / ofArea.length) === part;
  });
}

function describePrecision(precision: FaultRunSettings['precision'], areas: readonly string[]): string {
  if (typeof precision === 'string') return precision;
  if ('part' in precision) return `part ${precision.part} of ${precision.of} (PRECISION=${precision.part}/${precision.of})`;
  return `the day's part of each area: ${areas.map((area) => `${area} ${partOf(precision, area).part}/${partOf(precision, area).of}`).join(', ')}`;
}

/** The tests that judge only the served business document, not the target's answers: its file, and the runtime rows of its own operation. */
const documentOnly = (t: { file?: string; title: string }) =>
  /(^|\/)suites\/business\/document\.test\.ts$/.test(t.file ?? '') || t.title.includes(' GET /openapi/docs/openapi.yaml: ');

interface HarAnswer {
  status: number;
  content: { size: number; mimeType: string };
}

/** The answers of the batch's evidence (evidence/<area>.har), by the reference a test record uses (`<file>#<_id>`). */
function harAnswers(reports: Array<[string, string]>): Map<string, HarAnswer> {
  const out = new Map<string, HarAnswer>();
  for (const [file, text] of reports) {
    if (!file.endsWith('.har')) continue;
    const entries = (JSON.parse(text) as { log: { entries: Array<{ _id: string; response: HarAnswer }> } }).log.entries;
    for (const entry of entries) out.set(`${file}#${entry._id}`, entry.response);
  }
  return out;
}

/**
 * Where a degenerate target keeps the document and most answers intact, the answers its one change
 * touched: a test counts against it only when one of its exchanges got such an answer (a DELETE answered
 * 204 without a body is the same under target-json-as-html, and may pass).
 */
const TOUCHED: Record<string, (answers: HarAnswer[]) => boolean> = {
  // A test whose served request has no body (a DELETE's empty success) stands on answers the label cannot touch.
  'target-json-as-html': (answers) =>
    answers.some((a) => a.content.size > 0 && /text\/html/i.test(a.content.mimeType)) &&
    !answers.some((a) => a.status >= 200 && a.status < 300 && a.content.size === 0),
  'target-first-500': (answers) => answers.some((a) => a.status === 500),
};

/** The share of tests that ran (not skipped or inconclusive) that may still pass against a degenerate target (one test at least). */
const DEGENERATE_PASS_LIMIT = 0.05;

/** Step 3: the whole suite against each degenerate target; per area at most 5% passing, no acceptance passing. */
async function degenerateRun(
  slots: SlotUser,
  credentials: Record<string, Record<string, string>>,
  markers: string[],
  log: (line: string) => void,
): Promise<boolean> {
  const only = faultRunSettings().degenerate;
  const targets = TARGET_WIDE_FAULTS.filter((f) => !only.length || only.includes(f.id));
  // Two batch runs of about half the targets each, asked for before any other run: each runs the whole
  // suite per target, the longest jobs of the selftest, and started first they end with the rest.
  const cut = Math.ceil(targets.length / 2);
  const halves = [targets.slice(0, cut), targets.slice(cut)].filter((half) => half.length);
  log(`degenerate targets: ${targets.length}, the whole suite against each, in ${halves.length} batch run(s)`);
  const registry = requirements();
  const files = allSuiteFiles();
  const batches = await Promise.all(
    halves.map((half) =>
      slots.use(
        () =>
          runBatch(
            half.map((t) => ({ id: t.id, switches: [t.id], files })),
            { credentials },
          ),
        FIRST,
      ),
    ),
  );
  let ok = true;
  const results: Array<{ fault: (typeof targets)[number]; tests: TestRecord[]; answers: Map<string, HarAnswer> }> = [];
  for (const [i, batch] of batches.entries()) {
    if (!batch.summary) {
      log(`  ✗ a degenerate batch wrote no summary (exit ${batch.code}): ${(batch.stderr || batch.stdout).slice(-400)}`);
      return false;
    }
    for (const l of leaks([['console output', batch.stdout + batch.stderr], ...batch.reports], markers)) {
      ok = false;
      log(`    ✗ leak: ${l}`);
    }
    log(
      `  batch of ${halves[i].length} degenerate target(s): ${(batch.wallMs / 1000).toFixed(1)} s (from ${batch.startedAtS.toFixed(0)} s)`,
    );
    // A test's evidence names an entry of its own batch run's HAR files.
    const answers = harAnswers(batch.reports);
    for (const fault of halves[i]) results.push({ fault, tests: batch.byVariant.get(fault.id) ?? [], answers });
  }
  for (const { fault, tests, answers } of results.sort((a, b) => a.fault.id.localeCompare(b.fault.id))) {
    // Where the document comes through intact, the tests that judge only it are judged by the document faults.
    const touched = TOUCHED[fault.id];
    const judged = fault.documentIntact
      ? tests.filter(
          (t) =>
            !documentOnly(t) && (!touched || touched((t.evidence ?? []).flatMap((ref) => (answers.has(ref) ? [answers.get(ref)!] : [])))),
        )
      : tests;
    const left = tests.length - judged.length;
    const areas = [...new Set(judged.map((t) => t.area ?? 'other'))].sort();
    const cells: string[] = [];
    let faultOk = true;
    for (const area of areas) {
      const ran = judged.filter((t) => (t.area ?? 'other') === area && !['skipped', 'inconclusive'].includes(t.verdict));
      const passed = ran.filter((t) => t.verdict === 'passed');
      // One test may pass however few ran: a burst that draws no 5xx holds against any label.
      const tooMany = passed.length > Math.max(1, DEGENERATE_PASS_LIMIT * ran.length);
      if (tooMany) faultOk = false;
      cells.push(`${area} ${passed.length}/${ran.length}${tooMany ? ' ✗' : ''}`);
    }
    const acceptancePassed = judged.filter((t) => t.verdict === 'passed' && t.requirement && registry.get(t.requirement)?.acceptance);
    if (acceptancePassed.length) faultOk = false;
    if (!faultOk) ok = false;
    log(
      `  ${faultOk ? 'held    ' : 'PASSED  '} ${fault.id.padEnd(24)} passing of ran: ${cells.join(', ')}${left ? ` (${left} tests of the intact document or of untouched answers left out)` : ''}`,
    );
    for (const t of acceptancePassed) log(`      ✗ an acceptance test passed: ${t.title}`);
    if (!faultOk) {
      const passing = judged.filter((t) => t.verdict === 'passed' && !acceptancePassed.includes(t));
      for (const t of passing) log(`      passed: ${t.title}`);
    }
  }
  return ok;
}

// Run as a script (not imported by selftest/variant-runs.ts): its own slots.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  process.exitCode = await faultRun(new Slots(batchesAtOnce(faultRunSettings().parallel)));
