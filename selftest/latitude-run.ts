/**
 * The latitude run: proves that the suite does not fail a conforming target. Each latitude of the catalog
 * (sandbox/services/<area>/latitudes.ts: a change of the sandbox's answers within what the spec allows)
 * is switched on alone in its own sandbox, and every suite file of its area runs against it; latitudes
 * share batch runs (selftest/variants/batch.ts) as the faults do, each still alone against its sandbox.
 * A false alarm is a failed test of a `spec` or `configuration` requirement, or a tool error; policy and
 * vendor failures, warnings and inconclusive tests are counted and reported, never held against the
 * suite. A latitude whose only alarms are tool errors runs once more, a few at a time (a busy machine can
 * starve a sandbox past its deadline); a tool error then too is a false alarm. Prints `latitude: N held,
 * K false alarms`; exits non-zero on any false alarm.
 *   LATITUDES=id,id   only these latitudes     AREA=insurance   only this area's latitudes
 *   FAULT_BATCH=40    variants per batch run      FAULT_PARALLEL=2   batch runs at a time (default: one per core and one more)
 */
import { pathToFileURL } from 'node:url';
import { requirements } from '../harness/spec/requirements.ts';
import type { TestRecord } from '../harness/report/records.ts';
import { faultRunSettings } from '../harness/runner/settings.ts';
import { loadLatitudes } from '../sandbox/faults/index.ts';
import type { Latitude } from '../sandbox/faults/types.ts';
import { runBatch, type BatchRun } from './variants/batch.ts';
import { areaFiles, batchesOf, slowestFiles } from './variants/common.ts';
import { batchesAtOnce, inOrder, OrderedLog, type SlotUser, Slots } from './variants/pool.ts';

const BATCH_SIZE = 40;
/**
 * A business latitude runs the area's 1,800 tests: its 19 in one batch run (one worker) took 290 s, the
 * longest job of the selftest by far, and ended it alone. In two batches they go side by side.
 */
const BUSINESS_BATCH_SIZE = 10;

interface Outcome {
  latitude: Latitude;
  falseAlarms: string[];
  reported: string[];
  counts: string;
}

function judge(latitude: Latitude, tests: TestRecord[], failedRun?: string): Outcome {
  if (failedRun) return { latitude, falseAlarms: [failedRun], reported: [], counts: 'no summary' };
  const registry = requirements();
  const blocking = (id?: string) => ['spec', 'configuration'].includes(registry.get(id ?? '')?.source ?? '');
  const falseAlarms = tests
    .filter((t) => t.verdict === 'error' || (t.verdict === 'failed' && blocking(t.requirement)))
    .map(
      (t) =>
        `${t.verdict === 'error' ? `tool error ${t.code ?? ''}` : 'failed'}: ${t.title}\n        ${(t.message ?? '').split('\n').slice(0, 4).join('\n        ')}`,
    );
  if (!tests.length) falseAlarms.push('no test ran against it');
  const reported = tests
    .filter((t) => (t.verdict === 'failed' || t.verdict === 'warning') && !blocking(t.requirement))
    .map((t) => `${registry.get(t.requirement ?? '')?.source ?? '?'}: ${t.title}`);
  const count = (v: string) => tests.filter((t) => t.verdict === v).length;
  return {
    latitude,
    falseAlarms,
    reported,
    counts: `${count('passed')} passed, ${count('failed')} failed, ${count('warning')} warnings, ${count('inconclusive') + count('skipped')} inconclusive or skipped`,
  };
}

/** The latitude run in `slots` (its own, or shared with the fault run), its lines into `out`. */
export async function latitudeRun(slots: SlotUser, out: OrderedLog = new OrderedLog()): Promise<number> {
  const part = out.section();
  const log = part.log;
  const started = Date.now();
  const only = (process.env.LATITUDES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const area = process.env.AREA || undefined;
  const latitudes = (await loadLatitudes()).filter((l) => (!only.length || only.includes(l.id)) && (!area || l.area === area));
  const size = faultRunSettings().batchSize;
  const batches = batchesOf(latitudes, (of) => size ?? (of === 'business' ? BUSINESS_BATCH_SIZE : BATCH_SIZE));
  log(
    `latitude run: ${latitudes.length} latitudes in ${batches.length} batch run(s), each alone against its own sandbox and its area's suites`,
  );
  let held = 0;
  let alarms = 0;
  const run = (batch: Latitude[]) => runBatch(batch.map((l) => ({ id: l.id, switches: [l.id], files: areaFiles(l.area) })));
  // A latitude whose only alarms are tool errors (a sandbox a busy machine starved past its deadline) runs
  // once more, a few at a time, before it is counted: a tool error there again is a false alarm.
  const onTools: Latitude[] = [];
  const report = (batch: Latitude[], run: BatchRun, again: boolean) => {
    log(
      `  ${again ? 'again, ' : ''}batch of ${batch.length} ${batch[0].area} latitude(s): ${(run.wallMs / 1000).toFixed(1)} s (from ${run.startedAtS.toFixed(0)} s; test time by file: ${slowestFiles(run.byVariant)})`,
    );
    const failedRun = run.summary
      ? undefined
      : `the batch run wrote no summary (exit ${run.code}): ${(run.stderr || run.stdout).slice(-400)}`;
    for (const latitude of batch) {
      const tests = run.byVariant.get(latitude.id) ?? [];
      const o = judge(latitude, tests, failedRun);
      const toolErrorsOnly = o.falseAlarms.length > 0 && o.falseAlarms.every((a) => a.startsWith('tool error')) && !failedRun;
      if (!again && toolErrorsOnly) {
        onTools.push(latitude);
        log(`  (tools)     ${latitude.id.padEnd(40)} ${o.counts}; its only alarms are tool errors: run again`);
        for (const a of o.falseAlarms) log(`      · ${a.split('\n')[0]}`);
        continue;
      }
      if (o.falseAlarms.length) alarms++;
      else held++;
      log(
        `  ${o.falseAlarms.length ? 'FALSE ALARM' : 'held       '} ${latitude.id.padEnd(40)} ${o.counts}; ${o.reported.length} policy/vendor finding(s) reported`,
      );
      for (const a of o.falseAlarms) log(`      ✗ ${a}`);
      for (const r of o.reported) log(`      · ${r}`);
    }
  };
  await inOrder(batches, slots, run, (batch, run) => report(batch, run, false));
  if (onTools.length) await inOrder(batchesOf(onTools, 4), slots, run, (batch, run) => report(batch, run, true));
  log(`latitude: ${held} held, ${alarms} false alarms`);
  log(`latitude run wall time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  part.end();
  return alarms === 0 ? 0 : 1;
}

// Run as a script (not imported by selftest/variant-runs.ts): its own slots.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  process.exitCode = await latitudeRun(new Slots(batchesAtOnce(faultRunSettings().parallel)));
