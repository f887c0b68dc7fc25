/**
 * The latitude run: proves that the suite does not fail a conforming target. Each latitude of the catalog
 * (sandbox/services/<area>/latitudes.ts: a change of the sandbox's answers within what the spec allows)
 * is switched on alone in its own sandbox, and every suite file of its area runs against it. A false
 * alarm is a failed test of a `spec` or `configuration` requirement, or a tool error; policy and vendor
 * failures, warnings and inconclusive tests are counted and reported, never held against the suite.
 * Prints `latitude: N held, K false alarms`; exits non-zero on any false alarm.
 *   LATITUDES=id,id   only these latitudes     AREA=insurance   only this area's latitudes
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { requirements } from '../harness/requirements.ts';
import { CI_SEED } from '../harness/runner/settings.ts';
import { loadLatitudes } from '../sandbox/faults/index.ts';
import type { Latitude } from '../sandbox/faults/types.ts';
import { startSandbox } from '../sandbox/server.ts';
import { ROOT, runSuite, tempDir } from './helpers.ts';

function* filesUnder(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

const areaFiles = (area: string) => [...filesUnder(join(ROOT, 'suites', area))].filter((f) => f.endsWith('.test.ts')).map((f) => relative(ROOT, f));

interface Outcome {
  latitude: Latitude;
  falseAlarms: string[];
  reported: string[];
  counts: string;
  wallMs: number;
}

async function runLatitude(latitude: Latitude): Promise<Outcome> {
  const sandbox = await startSandbox({ faults: [latitude.id] });
  const dir = tempDir('pc-latitude-');
  try {
    const run = await runSuite({
      env: { CONFORMANCE_TARGET: sandbox.writeTarget(join(dir, 'target.yaml')), CONFORMANCE_SHRINK: '0', CONFORMANCE_SEED: String(CI_SEED), CONFORMANCE_WORKERS: '2' },
      files: areaFiles(latitude.area),
      reportDir: join(dir, 'reports'),
    });
    const registry = requirements();
    const tests = run.summary?.tests ?? [];
    const blocking = (id?: string) => ['spec', 'configuration'].includes(registry.get(id ?? '')?.source ?? '');
    const falseAlarms = run.summary
      ? tests.filter((t) => t.verdict === 'error' || (t.verdict === 'failed' && blocking(t.requirement))).map((t) => `${t.verdict === 'error' ? `tool error ${t.code ?? ''}` : 'failed'}: ${t.title}\n        ${(t.message ?? '').split('\n').slice(0, 4).join('\n        ')}`)
      : [`the run wrote no summary (exit ${run.code}): ${(run.stderr || run.stdout).slice(-400)}`];
    const reported = tests.filter((t) => (t.verdict === 'failed' || t.verdict === 'warning') && !blocking(t.requirement)).map((t) => `${registry.get(t.requirement ?? '')?.source ?? '?'}: ${t.title}`);
    const c = run.summary?.counts;
    return { latitude, falseAlarms, reported, counts: c ? `${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped` : 'no summary', wallMs: run.wallMs };
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const started = Date.now();
  const only = (process.env.LATITUDES ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const area = process.env.AREA || undefined;
  const latitudes = (await loadLatitudes()).filter((l) => (!only.length || only.includes(l.id)) && (!area || l.area === area));
  console.log(`latitude run: ${latitudes.length} latitudes, each alone against its area's suites`);
  let held = 0;
  let alarms = 0;
  for (const latitude of latitudes) {
    const o = await runLatitude(latitude);
    if (o.falseAlarms.length) alarms++;
    else held++;
    console.log(`  ${o.falseAlarms.length ? 'FALSE ALARM' : 'held       '} ${latitude.id.padEnd(40)} ${o.counts}; ${o.reported.length} policy/vendor finding(s) reported; ${(o.wallMs / 1000).toFixed(1)} s`);
    for (const a of o.falseAlarms) console.log(`      ✗ ${a}`);
    for (const r of o.reported) console.log(`      · ${r}`);
  }
  console.log(`latitude: ${held} held, ${alarms} false alarms`);
  console.log(`latitude run wall time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return alarms === 0 ? 0 : 1;
}

process.exitCode = await main();
