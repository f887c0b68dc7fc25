/**
 * The fault (mutation) run: proves that every check can fail.
 * 1. The clean sandbox, with marker secrets, must pass the whole suite 100%, and every requirement of
 *    specs/requirements.yaml must have passed at least one test.
 * 2. Each fault of the catalog is switched on alone in its own sandbox; the suites of its area that
 *    name its requirements run against it. A fault is killed only when every requirement it names failed
 *    with a contract failure (verdict `failed`): a tool error (TARGET_*, SUITE_ERROR) proves nothing.
 *    Every requirement must be named by at least one fault.
 * 3. Degenerate targets (sandbox/faults/degenerate.ts: every answer 401, 404, an empty 200, `{}`, an HTML page, JSON labelled HTML,
 *    a first 500): the whole suite runs against each; per area, at most 5% of the tests that ran may
 *    pass, and no test of an `acceptance: true` requirement may pass.
 * 4. No output of any run (console, junit, summaries) may contain a marker secret or a whole JWT.
 * Prints `mutation score: K/N killed` (contract failures only) and the wall time; exits non-zero when
 * anything is off. Reports go to a temporary folder, never to reports/.
 *   FAULTS=id,id   only these faults      AREA=insurance   only this area's faults
 *   FAULT_CONCURRENCY=3                   SKIP_CLEAN=1     skip step 1 (while developing faults)
 *   SKIP_DEGENERATE=1 skip step 3          DEGENERATE=id,id only these degenerate targets (run even with FAULTS)
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { availableParallelism } from 'node:os';
import { SECRET_KEY_PATTERN } from '../harness/redact.ts';
import { requirements } from '../harness/requirements.ts';
import { CI_SEED, faultRunSettings } from '../harness/runner/settings.ts';
import { TARGET_WIDE_FAULTS } from '../sandbox/faults/degenerate.ts';
import type { Fault } from '../sandbox/faults/types.ts';
import { loadServices } from '../sandbox/services/index.ts';
import { startSandbox } from '../sandbox/server.ts';
import { ROOT, runSuite, tempDir, type SuiteRun } from './helpers.ts';

const JWT_SHAPE = /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/;

async function markerCredentials(): Promise<{ overrides: Record<string, Record<string, string>>; markers: string[] }> {
  const overrides: Record<string, Record<string, string>> = {};
  const markers: string[] = [];
  for (const { service, credentials } of await loadServices()) {
    for (const [key, value] of Object.entries(credentials)) {
      if (!SECRET_KEY_PATTERN.test(key) || typeof value !== 'string') continue;
      // Alphanumeric, a multiple of 4 long: usable as a token, and as a base64 secret key too.
      const marker = `PCMARK${service.area.slice(0, 3).toUpperCase()}${randomBytes(12).toString('hex')}`.slice(0, 32);
      (overrides[service.area] ??= {})[key] = marker;
      markers.push(marker);
    }
  }
  return { overrides, markers };
}

function* filesUnder(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

function leaks(run: SuiteRun, markers: string[]): string[] {
  const found: string[] = [];
  const texts: Array<[string, string]> = [['console output', run.stdout + run.stderr]];
  for (const file of filesUnder(run.reportDir)) texts.push([relative(run.reportDir, file), readFileSync(file, 'utf8')]);
  for (const [where, text] of texts) {
    for (const m of markers) if (text.includes(m)) found.push(`${where} contains a secret (${m.slice(0, 9)}…)`);
    if (JWT_SHAPE.test(text)) found.push(`${where} contains a whole JWT`);
  }
  return found;
}

/** Suite files of the fault's area that name one of its requirements (all the area's files if none does). */
function suiteFilesFor(fault: Fault): string[] {
  const dir = join(ROOT, 'suites', fault.area);
  const files = [...filesUnder(dir)].filter((f) => f.endsWith('.test.ts'));
  const naming = files.filter((f) => {
    const text = readFileSync(f, 'utf8');
    return fault.catches.some((id) => text.includes(`'${id}'`));
  });
  return (naming.length ? naming : files).map((f) => relative(ROOT, f));
}

interface Outcome {
  fault: Fault;
  killed: boolean;
  missing: string[];
  /** Named requirements that ended in a tool error instead of a contract failure. */
  toolErrors: string[];
  alsoFailed: string[];
  leaks: string[];
  wallMs: number;
  note?: string;
}

async function runFault(fault: Fault, credentials: Record<string, Record<string, string>>, markers: string[]): Promise<Outcome> {
  const sandbox = await startSandbox({ faults: [fault.id], credentials });
  const dir = tempDir('pc-fault-');
  try {
    const target = sandbox.writeTarget(join(dir, 'target.yaml'));
    const run = await runSuite({
      env: { CONFORMANCE_TARGET: target, CONFORMANCE_SHRINK: '0', CONFORMANCE_SEED: String(CI_SEED), CONFORMANCE_WORKERS: '2' },
      files: suiteFilesFor(fault),
      reportDir: join(dir, 'reports'),
    });
    const tests = run.summary?.tests ?? [];
    const failedIds = new Set(tests.filter((t) => t.verdict === 'failed').map((t) => t.requirement ?? '?'));
    const erroredIds = new Set(tests.filter((t) => t.verdict === 'error').map((t) => t.requirement ?? '?'));
    const missing = fault.catches.filter((id) => !failedIds.has(id));
    return {
      fault,
      killed: run.summary !== undefined && missing.length === 0,
      missing,
      toolErrors: missing.filter((id) => erroredIds.has(id)),
      alsoFailed: [...failedIds].filter((id) => !fault.catches.includes(id)),
      leaks: leaks(run, markers),
      wallMs: run.wallMs,
      note: run.summary ? undefined : `the run wrote no summary (exit ${run.code}): ${(run.stderr || run.stdout).slice(-400)}`,
    };
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function pool<T, R>(items: T[], size: number, work: (item: T) => Promise<R>, done: (r: R) => void): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length) {
        const r = await work(items[next++]);
        results.push(r);
        done(r);
      }
    }),
  );
  return results;
}

async function main(): Promise<number> {
  const started = Date.now();
  const { overrides, markers } = await markerCredentials();
  const settings = faultRunSettings();
  let ok = true;

  if (!settings.skipClean) {
    const sandbox = await startSandbox({ credentials: overrides });
    const dir = tempDir('pc-clean-');
    const run = await runSuite({ env: { CONFORMANCE_TARGET: sandbox.writeTarget(join(dir, 'target.yaml')), CONFORMANCE_SEED: String(CI_SEED) }, reportDir: join(dir, 'reports') });
    await sandbox.close();
    const s = run.summary;
    const passedIds = new Set((s?.tests ?? []).filter((t) => t.verdict === 'passed').map((t) => t.requirement));
    const unproven = [...requirements().keys()].filter((id) => !passedIds.has(id));
    const leaked = leaks(run, markers);
    console.log(`clean sandbox: ${s ? `${s.counts.passed} passed, ${s.counts.failed} failed, ${s.counts.skipped} skipped` : 'no summary'} in ${(run.wallMs / 1000).toFixed(1)} s`);
    if (!s || s.counts.failed > 0 || run.code !== 0) {
      ok = false;
      console.log(`  ✗ the clean sandbox must pass 100%:\n${(s?.tests ?? []).filter((t) => t.verdict === 'failed' || t.verdict === 'error').map((t) => `    ${t.title}\n${t.message}`).join('\n') || run.stdout.slice(-3000)}`);
    }
    if (unproven.length) {
      ok = false;
      console.log(`  ✗ requirements without a passing test on the clean sandbox: ${unproven.join(', ')}`);
    }
    for (const l of leaked) console.log(`  ✗ leak: ${l}`);
    if (leaked.length) ok = false;
    rmSync(dir, { recursive: true, force: true });
  }

  const wanted = settings.faults;
  const catalog = (await loadServices()).flatMap((m) => m.faults);
  const faults = catalog.filter((f) => (!wanted.length || wanted.includes(f.id)) && (!settings.area || f.area === settings.area));
  const unknownIds = catalog.flatMap((f) => f.catches.filter((id) => !requirements().has(id)).map((id) => `${f.id} names unknown requirement ${id}`));
  for (const u of unknownIds) console.log(`  ✗ ${u}`);
  if (unknownIds.length) ok = false;

  const concurrency = settings.concurrency ?? Math.max(2, Math.min(4, availableParallelism() + 1));
  console.log(`fault run: ${faults.length} faults, ${concurrency} at a time`);
  const outcomes = await pool(faults, concurrency, (f) => runFault(f, overrides, markers), (o) => {
    const mark = o.killed ? 'killed  ' : 'SURVIVED';
    const extra = o.killed ? '' : `  missing: ${o.missing.join(', ')}${o.toolErrors.length ? ` (tool errors, not contract failures: ${o.toolErrors.join(', ')})` : ''}${o.note ? `; ${o.note}` : ''}`;
    const also = o.alsoFailed.length ? `  also failed: ${o.alsoFailed.join(', ')}` : '';
    console.log(`  ${mark} ${o.fault.id.padEnd(40)} [${o.fault.catches.join(', ')}] ${(o.wallMs / 1000).toFixed(1)} s${extra}${also}`);
    for (const l of o.leaks) console.log(`    ✗ leak: ${l}`);
  });
  const killed = outcomes.filter((o) => o.killed).length;
  if (!wanted.length && !settings.area) {
    const named = new Set(catalog.flatMap((f) => f.catches));
    const uncovered = [...requirements().keys()].filter((id) => !named.has(id));
    if (uncovered.length) {
      ok = false;
      console.log(`  ✗ ${uncovered.length} requirement(s) named by no fault: ${uncovered.join(', ')}`);
    } else console.log('every requirement is named by at least one fault');
  }
  if (!settings.skipDegenerate && ((!wanted.length && !settings.area) || settings.degenerate.length)) {
    if (!(await degenerateRun(overrides, markers, concurrency))) ok = false;
  }
  if (outcomes.some((o) => o.leaks.length)) ok = false;
  const byArea = new Map<string, [number, number]>();
  for (const o of outcomes) {
    const [k, n] = byArea.get(o.fault.area) ?? [0, 0];
    byArea.set(o.fault.area, [k + (o.killed ? 1 : 0), n + 1]);
  }
  console.log(`by area: ${[...byArea].map(([a, [k, n]]) => `${a} ${k}/${n}`).join(', ')}`);
  console.log(`mutation score: ${killed}/${outcomes.length} killed`);
  console.log(`fault run wall time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return ok && killed === outcomes.length ? 0 : 1;
}

/** The tests that judge only the served business document, not the target's answers: its file, and the runtime rows of its own operation. */
const documentOnly = (t: { file?: string; title: string }) => /(^|\/)suites\/business\/document\.test\.ts$/.test(t.file ?? '') || t.title.includes(' GET /openapi/docs/openapi.yaml: ');

/** The share of tests that ran (not skipped or inconclusive) that may still pass against a degenerate target. */
const DEGENERATE_PASS_LIMIT = 0.05;

/** Step 3: the whole suite against each degenerate target; per area at most 5% passing, no acceptance passing. */
async function degenerateRun(credentials: Record<string, Record<string, string>>, markers: string[], concurrency: number): Promise<boolean> {
  const only = faultRunSettings().degenerate;
  const targets = TARGET_WIDE_FAULTS.filter((f) => !only.length || only.includes(f.id));
  console.log(`degenerate targets: ${targets.length}, the whole suite against each, ${concurrency} at a time`);
  const registry = requirements();
  const results = await pool(targets, concurrency, async (fault) => {
    const sandbox = await startSandbox({ faults: [fault.id], credentials });
    const dir = tempDir('pc-degenerate-');
    try {
      const run = await runSuite({
        env: { CONFORMANCE_TARGET: sandbox.writeTarget(join(dir, 'target.yaml')), CONFORMANCE_SHRINK: '0', CONFORMANCE_SEED: String(CI_SEED), CONFORMANCE_WORKERS: '4' },
        reportDir: join(dir, 'reports'),
        timeoutMs: 900_000,
      });
      return { fault, run, leaks: leaks(run, markers) };
    } finally {
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, () => undefined);
  let ok = true;
  for (const { fault, run, leaks: leaked } of results.sort((a, b) => a.fault.id.localeCompare(b.fault.id))) {
    const tests = run.summary?.tests ?? [];
    if (!run.summary) {
      ok = false;
      console.log(`  ✗ ${fault.id}: the run wrote no summary (exit ${run.code}): ${(run.stderr || run.stdout).slice(-400)}`);
      continue;
    }
    // Where the document comes through intact, the tests that judge only it are judged by the document faults.
    const judged = fault.documentIntact ? (run.summary?.tests ?? []).filter((t) => !documentOnly(t)) : tests;
    const left = tests.length - judged.length;
    const areas = [...new Set(judged.map((t) => t.area ?? 'other'))].sort();
    const cells: string[] = [];
    let faultOk = true;
    for (const area of areas) {
      const ran = judged.filter((t) => (t.area ?? 'other') === area && !['skipped', 'inconclusive'].includes(t.verdict));
      const passed = ran.filter((t) => t.verdict === 'passed');
      const share = ran.length ? passed.length / ran.length : 0;
      if (share > DEGENERATE_PASS_LIMIT) faultOk = false;
      cells.push(`${area} ${passed.length}/${ran.length}${share > DEGENERATE_PASS_LIMIT ? ' ✗' : ''}`);
    }
    const acceptancePassed = judged.filter((t) => t.verdict === 'passed' && t.requirement && registry.get(t.requirement)?.acceptance);
    if (acceptancePassed.length) faultOk = false;
    if (!faultOk) ok = false;
    console.log(`  ${faultOk ? 'held    ' : 'PASSED  '} ${fault.id.padEnd(24)} passing of ran: ${cells.join(', ')}${left ? ` (${left} tests of the intact document left out)` : ''}`);
    for (const t of acceptancePassed) console.log(`      ✗ an acceptance test passed: ${t.title}`);
    if (!faultOk) {
      const passing = judged.filter((t) => t.verdict === 'passed' && !acceptancePassed.includes(t));
      for (const t of passing) console.log(`      passed: ${t.title}`);
    }
    for (const l of leaked) {
      ok = false;
      console.log(`    ✗ leak: ${l}`);
    }
  }
  return ok;
}

process.exitCode = await main();
