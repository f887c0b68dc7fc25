/**
 * vitest globalSetup: loads the target file (CONFORMANCE_TARGET; without one, sandbox/global-setup.ts,
 * listed before this one, has started the embedded sandbox and named its file there), validates it,
 * starts the shared pacer, and hands the workers what they need.
 */
import { ToolError } from '../errors.ts';
import { resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startPacerServer } from '../request/pacer.ts';
import { printable, printableLine } from '../text/printable.ts';
import { probeServices, type ProbeFailure } from '../request/probe.ts';
import { describePlan, rememberedPlan } from '../request/pace-plan.ts';
import { reportFolderOf } from '../report/publish.ts';
import { targetFileData, targetOf, type Target, type TargetFileData } from '../config/target.ts';
import { depthOf } from './depth.ts';
import { effectiveTarget } from './effective-target.ts';
import { readBatchManifest, type ProvidedVariant } from './batch.ts';
import { runSettings, type RunSettings } from './settings.ts';
import { setRunInfo } from './run-info.ts';

interface Provided {
  targetFile: string;
  pacerUrl: string;
  seed: number;
  runs: number;
  shrink: boolean;
  unreachable: Partial<Record<string, ProbeFailure>>;
  batch?: Record<string, ProvidedVariant>;
  targetData: Record<string, TargetFileData>;
}

interface Shared {
  ready: Promise<Provided>;
  teardown: () => Promise<void>;
  users: number;
}
const KEY = Symbol.for('partner-conformance.global-setup');
const store = globalThis as unknown as Record<symbol, Shared | undefined>;

/** What sandbox/global-setup.ts, listed first, says it started: the embedded sandbox and its faults. */
type EmbeddedSandbox = ReturnType<TestProject['getProvidedContext']>['embeddedSandbox'];

async function start(embedded: EmbeddedSandbox): Promise<Shared> {
  const closers: Array<() => Promise<void>> = [];
  const teardown = async () => {
    for (const close of closers.reverse()) await close();
  };
  const ready = (async (): Promise<Provided> => {
    const settings = runSettings(process.env);
    if (settings.batch) return startBatch(settings, closers);
    const targetFile = settings.targetFile;
    if (!targetFile)
      throw new ToolError(
        'SETTING_INVALID',
        'no target file: CONFORMANCE_TARGET is not set and sandbox/global-setup.ts, which starts the embedded sandbox without one, is not in the run',
      );
    const data = targetFileData(targetFile);
    const file = targetOf(targetFile, data);
    const final = runSettings(process.env, file);
    const target = effectiveTarget(file, final);
    const pacer = await startPacerServer();
    closers.push(pacer.close);
    const unreachable = await probeServices(target);
    for (const [area, failure] of Object.entries(unreachable))
      console.log(
        printable(
          target.redactor.redact(
            `${failure!.code}: services.${area}: ${failure!.message}; its tests are reported as tool errors without being sent`,
          ),
        ),
      );
    setRunInfo({
      targetFile: target.file,
      targetName: target.name,
      kind: target.kind,
      vendorConventions: target.vendorConventions,
      strictPolicy: target.strictPolicy,
      startedAt: new Date().toISOString(),
      seed: final.seed,
      runs: final.runs,
      reportDir: final.reportDir,
      paceShare: final.paceShare,
      areas: target.areas,
      targetData: data,
      ...(embedded && resolve(embedded.targetFile) === target.file ? { embeddedSandbox: { faults: embedded.faults } } : {}),
      paceCounts: pacer.counts,
    });
    const share = final.paceShare < 1 ? `; pacing at ${+final.paceShare.toFixed(4)} of every documented limit (this run's share)` : '';
    // The name is the target file's: a line feed or an ESC in it must not start a line of its own.
    console.log(
      `conformance target: ${printableLine(target.name)} (kind ${target.kind}, vendorConventions ${target.vendorConventions}); areas ${target.areas.join(', ') || 'none'}; seed ${final.seed}; ${final.runs} runs per property (depth ${depthOf(final.runs)})${share}`,
    );
    // The last run's pacing.json is in the report folder; this run's reports go into a fresh one inside it.
    console.log(planLine(reportFolderOf(final.reportDir), target, final.runs, final.paceShare));
    return {
      targetFile: target.file,
      pacerUrl: pacer.url,
      seed: final.seed,
      runs: final.runs,
      shrink: final.shrink,
      unreachable,
      targetData: { [target.file]: data },
    };
  })().catch(async (error) => {
    await teardown();
    throw error;
  });
  return {
    ready,
    users: 0,
    teardown,
  };
}

/** The run's plan before its first request: what the last comparable run counted, paced by this target's limits. */
function planLine(reportDir: string, target: Target, runs: number, paceShare: number): string {
  const plan = rememberedPlan(reportDir, target, runs, paceShare);
  if (!plan)
    return `plan: no earlier run at this depth and share of these areas in ${reportDir}; this run counts its requests and prints at its end the pacing they needed`;
  const { target: from, countedAt, tests } = plan.from;
  return `plan: ${describePlan(plan.counts)} (requests as counted by the last run of ${tests} tests at this depth in ${reportDir}, against ${from} at ${countedAt}; paced by this target's limits)`;
}

/**
 * A batch run (runner/batch.ts): the selftest started the variants' sandboxes; every variant's target
 * is loaded and probed here, once, and the workers get each one's target file and probe results.
 */
async function startBatch(settings: RunSettings, closers: Array<() => Promise<void>>): Promise<Provided> {
  const manifest = readBatchManifest(settings.batch!);
  const pacer = await startPacerServer();
  closers.push(pacer.close);
  const batch: Record<string, ProvidedVariant> = {};
  const targetData: Record<string, TargetFileData> = {};
  // A few variants at a time: their sandboxes share one process, which must not be probed all at once.
  const queue = [...manifest.variants];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let variant = queue.shift(); variant; variant = queue.shift()) {
        const data = targetFileData(variant.targetFile);
        const file = targetOf(variant.targetFile, data);
        targetData[file.file] = data;
        const unreachable = await probeServices(effectiveTarget(file, runSettings(process.env, file)));
        batch[variant.id] = { targetFile: variant.targetFile, only: variant.only, unreachable };
      }
    }),
  );
  const first = manifest.variants[0]?.targetFile ?? '';
  // Checked above: the first variant's data is not parsed and checked again.
  const firstData = first ? targetData[resolve(first)] : undefined;
  const file = firstData ? targetOf(first, firstData) : undefined;
  setRunInfo({
    targetFile: first,
    targetName: `batch of ${manifest.variants.length} variants`,
    kind: file?.kind ?? 'sandbox',
    vendorConventions: file?.vendorConventions ?? true,
    strictPolicy: file?.strictPolicy ?? true,
    startedAt: new Date().toISOString(),
    seed: settings.seed,
    runs: settings.runs,
    reportDir: settings.reportDir,
    paceShare: settings.paceShare,
    areas: file?.areas ?? [],
    targetData: firstData,
  });
  console.log(`conformance batch: ${manifest.variants.length} sandbox variants; seed ${settings.seed}; ${settings.runs} runs per property`);
  return {
    targetFile: first,
    pacerUrl: pacer.url,
    seed: settings.seed,
    runs: settings.runs,
    shrink: settings.shrink,
    unreachable: {},
    batch,
    targetData,
  };
}

export default async function setup(project: TestProject) {
  const shared = (store[KEY] ??= await start(project.getProvidedContext().embeddedSandbox));
  shared.users++;
  const provided = await shared.ready;
  for (const [key, value] of Object.entries(provided)) project.provide(key as keyof typeof provided, value as never);
  return async () => {
    shared.users--;
    if (shared.users === 0) {
      store[KEY] = undefined;
      await shared.teardown();
    }
  };
}
