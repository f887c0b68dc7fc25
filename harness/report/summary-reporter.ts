/**
 * Prints the run's summary (failures with their messages, skipped tests with their reasons, totals) and
 * writes reports/conformance.json and reports/conformance.md. Everything passes through the target's
 * redactor once more, on top of the redaction done where messages are made.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, SerializedError, TestModule } from 'vitest/node';
import { Redactor } from '../redact.ts';
import { REQUIREMENT_ID } from '../requirements.ts';
import { loadTarget } from '../target.ts';
import { getRunInfo } from '../runner/run-info.ts';
import { runSettings } from '../runner/settings.ts';

export interface TestRecord {
  requirement?: string;
  title: string;
  file: string;
  state: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  message?: string;
  skipReason?: string;
}

export interface RunSummary {
  format: 'partner-conformance/summary@1';
  generatedAt: string;
  target?: { name: string; kind: string; vendorConventions: boolean };
  seed?: number;
  runs?: number;
  counts: { passed: number; failed: number; skipped: number; total: number };
  unhandledErrors: string[];
  tests: TestRecord[];
}

function redactorFor(file: string | undefined): Redactor {
  try {
    return file ? loadTarget(file).redactor : new Redactor();
  } catch {
    return new Redactor();
  }
}

export function summarise(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>, root: string): RunSummary {
  const info = getRunInfo();
  const redactor = redactorFor(info?.targetFile);
  const tests: TestRecord[] = [];
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      const result = test.result();
      const id = test.name.split(' ')[0];
      const state = result.state === 'failed' ? 'failed' : result.state === 'passed' ? 'passed' : 'skipped';
      tests.push({
        requirement: REQUIREMENT_ID.test(id) ? id : undefined,
        title: redactor.redact(test.name),
        file: relative(root, module.moduleId),
        state,
        durationMs: Math.round(test.diagnostic()?.duration ?? 0),
        message: result.state === 'failed' ? redactor.redact((result.errors ?? []).map((e) => e.message).join('\n')) : undefined,
        skipReason: result.state === 'skipped' ? redactor.redact(result.note ?? (test.options.mode === 'todo' ? 'todo' : 'skipped without a reason')) : undefined,
      });
    }
  }
  const count = (s: TestRecord['state']) => tests.filter((t) => t.state === s).length;
  return {
    format: 'partner-conformance/summary@1',
    generatedAt: new Date().toISOString(),
    target: info ? { name: info.targetName, kind: info.kind, vendorConventions: info.vendorConventions } : undefined,
    seed: info?.seed,
    runs: info?.runs,
    counts: { passed: count('passed'), failed: count('failed'), skipped: count('skipped'), total: tests.length },
    unhandledErrors: unhandled.map((e) => redactor.redact(e.message ?? String(e))),
    tests,
  };
}

export function renderText(summary: RunSummary): string {
  const lines: string[] = ['', '── conformance summary ──'];
  if (summary.target) lines.push(`target: ${summary.target.name} (kind ${summary.target.kind}); seed ${summary.seed}; ${summary.runs} runs per property`);
  const failed = summary.tests.filter((t) => t.state === 'failed');
  const skipped = summary.tests.filter((t) => t.state === 'skipped');
  if (failed.length) {
    lines.push(`failed (${failed.length}):`);
    for (const t of failed) {
      lines.push(`  ✗ ${t.title}  [${t.file}]`);
      for (const line of (t.message ?? '').split('\n').slice(1, 5)) lines.push(`      ${line.trim()}`);
    }
  }
  if (skipped.length) {
    lines.push(`skipped (${skipped.length}), by reason:`);
    const byReason = new Map<string, TestRecord[]>();
    for (const t of skipped) byReason.set(t.skipReason!, [...(byReason.get(t.skipReason!) ?? []), t]);
    for (const [reason, list] of byReason) {
      lines.push(`  - ${reason} (${list.length}):`);
      for (const t of list.slice(0, 8)) lines.push(`      ${t.title}`);
      if (list.length > 8) lines.push(`      … and ${list.length - 8} more`);
    }
  }
  for (const e of summary.unhandledErrors) lines.push(`unhandled error: ${e}`);
  const c = summary.counts;
  lines.push(`conformance: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
  return lines.join('\n');
}

export function renderMarkdown(summary: RunSummary): string {
  const c = summary.counts;
  const out = [
    `# Conformance report`,
    '',
    `Target **${summary.target?.name ?? '?'}** (kind ${summary.target?.kind ?? '?'}, vendor conventions ${summary.target?.vendorConventions ? 'on' : 'off'}), generated ${summary.generatedAt}, seed ${summary.seed}.`,
    '',
    `**${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped** of ${c.total}.`,
    '',
  ];
  const section = (title: string, tests: TestRecord[], body: (t: TestRecord) => string) => {
    if (!tests.length) return;
    out.push(`## ${title} (${tests.length})`, '');
    for (const t of tests) out.push(body(t));
    out.push('');
  };
  section('Failed', summary.tests.filter((t) => t.state === 'failed'), (t) => `### ${t.title}\n\n\`\`\`\n${t.message ?? ''}\n\`\`\`\n`);
  section('Skipped', summary.tests.filter((t) => t.state === 'skipped'), (t) => `- ${t.title}: ${t.skipReason}`);
  section('Passed', summary.tests.filter((t) => t.state === 'passed'), (t) => `- ${t.title}`);
  return out.join('\n');
}

export default class SummaryReporter implements Reporter {
  private root = process.cwd();

  onInit(vitest: { config: { root: string } }) {
    this.root = vitest.config.root;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>) {
    const summary = summarise(modules, unhandled, this.root);
    const dir = getRunInfo()?.reportDir ?? runSettings().reportDir;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'conformance.json'), JSON.stringify(summary, null, 2));
    writeFileSync(join(dir, 'conformance.md'), renderMarkdown(summary));
    console.log(renderText(summary));
  }
}
