/**
 * allure-results/ from the run's records: one Allure result per test, for the Allure report many QA teams
 * run and for its history over nights (a test is known by its historyId, the same every night: its file
 * and title). Each result carries the requirement id, area, spec section, source and verdict as labels
 * (the report can be grouped by any of them: examples/ci/allurerc.yaml groups by area and requirement),
 * file and describe blocks as suites, the requirement's quote in its description, the test's exchanges
 * as Allure HTTP exchanges (each written once, however many tests cite it, and named by its HAR entry,
 * evidence/<area>.har#e<n>) and their curl lines.
 *
 * Verdicts map onto Allure's four statuses as junit.xml maps them, with the verdict itself as a label
 * (`verdict`) so that nothing is merged away: passed → passed; a contract failure → failed; a tool error →
 * broken; skipped and inconclusive → skipped, the status detail saying which; a policy warning → passed
 * (the warning in the status detail); a waived failure → skipped (the waiver and the failure in the
 * status detail). A run that did not start is one broken result. Everything comes from the records and the
 * HAR files, both redacted where they were made.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { printable, printableJson } from '../text/printable.ts';
import { join } from 'node:path';
import type { Attachment, Label, StatusDetails, TestResult } from 'allure-js-commons';
import { quotesOf, requirements, type Requirement } from '../spec/requirements.ts';
import { curlOfEntry, exchangeTitle, httpExchangeOf, type HarEntry } from './allure-exchange.ts';
import type { EvidenceOutput } from './evidence.ts';
import { harEntries } from './har.ts';
import type { RunSummary, TestRecord } from './records.ts';
import { describeWaiver } from './waivers.ts';

export const ALLURE_DIR = 'allure-results';

/** Allure's status as it is written (allure-js-commons types it as an enum). */
type AllureStatus = 'passed' | 'failed' | 'broken' | 'skipped';
type Result = Omit<TestResult, 'status'> & { status: AllureStatus };

const STATUS: Record<TestRecord['verdict'], AllureStatus> = {
  passed: 'passed',
  failed: 'failed',
  error: 'broken',
  skipped: 'skipped',
  inconclusive: 'skipped',
  warning: 'passed',
  waived: 'skipped',
};

const firstLine = (text: string | undefined) =>
  (text ?? '')
    .split('\n')
    .find((l) => l.trim() !== '')
    ?.trim() ?? '';

/** A failure in one line: what was expected and received (a failure message repeats the title first, and marks the requirement). */
function reasonOf(t: TestRecord): string {
  const lines = (t.message ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && l !== t.title && !/^✗ \S+$/.test(l));
  return lines.slice(0, 2).join(' / ') || firstLine(t.message);
}

function statusDetails(t: TestRecord): StatusDetails {
  switch (t.verdict) {
    case 'failed':
    case 'error':
      return { message: reasonOf(t), trace: t.message };
    case 'skipped':
      return { message: t.skipReason };
    case 'inconclusive':
      return { message: `inconclusive: ${t.skipReason ?? ''}` };
    case 'warning':
      return { message: `warning (policy, not strict): ${firstLine(t.warning)}`, trace: t.warning };
    case 'waived':
      return { message: `waived: ${t.waiver ? describeWaiver(t.waiver) : ''}`, trace: t.message };
    default:
      return {};
  }
}

/** The requirement in words: id, section, source, the spec's own words, how we read them. */
function description(t: TestRecord, req: Requirement | undefined): string {
  if (!req) return t.requirement ? `**${t.requirement}**` : '';
  const quotes = quotesOf(req).map((q) => `> ${q.replace(/\n/g, '\n> ')}`);
  return [
    `**${req.id}** §${req.section} · source: ${req.source}`,
    '',
    ...(quotes.length ? ['The spec:', '', ...quotes.flatMap((q) => [q, ''])] : []),
    `Requirement: ${req.text}`,
    ...(req.reading ? ['', `Our reading: ${req.reading}`] : []),
    ...(t.waiverExpired && t.waiver ? ['', `Expired: ${describeWaiver(t.waiver)}`] : []),
  ].join('\n');
}

function labels(t: TestRecord): Label[] {
  const out: Array<[string, string | undefined]> = [
    ['parentSuite', t.area],
    ['suite', t.file],
    ['subSuite', t.suitePath.join(' > ') || undefined],
    ['requirement', t.requirement],
    ['area', t.area],
    ['section', t.section],
    ['source', t.source],
    ['verdict', t.verdict],
    ['code', t.code],
    ['dependsOn', t.dependsOn],
  ];
  return out.filter((l): l is [string, string] => !!l[1]).map(([name, value]) => ({ name, value }));
}

/** The same id every night for the same test; a title met twice in one run gets its occurrence, so no result is read as another's retry. */
function historyIds(tests: readonly TestRecord[]): string[] {
  const seen = new Map<string, number>();
  return tests.map((t) => {
    const key = `${t.file}\n${t.title}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return createHash('sha256')
      .update(n > 1 ? `${key}\n#${n}` : key)
      .digest('hex')
      .slice(0, 32);
  });
}

/** The run's HAR entries by reference (`evidence/<area>.har#e<n>`). */
function entriesByRef(evidence: EvidenceOutput | undefined): Map<string, HarEntry> {
  const out = new Map<string, HarEntry>();
  for (const { file, text } of evidence?.files ?? [])
    for (const entry of harEntries(text)) out.set(`${file}#${String(entry._id)}`, entry as unknown as HarEntry);
  return out;
}

/** Writes each cited exchange once (many tests judge one control) and gives each test its attachments. */
class Attachments {
  private readonly written = new Map<string, string>();

  constructor(
    private readonly dir: string,
    private readonly entries: Map<string, HarEntry>,
  ) {}

  private file(ext: string, content: string): string {
    const source = `${randomUUID()}-attachment${ext}`;
    writeFileSync(join(this.dir, source), content);
    return source;
  }

  of(t: TestRecord): Attachment[] {
    const cited = (t.evidence ?? []).map((ref) => ({ ref, entry: this.entries.get(ref) })).filter((c) => c.entry);
    const out: Attachment[] = cited.map(({ ref, entry }) => {
      let source = this.written.get(ref);
      if (!source) {
        source = this.file('.httpexchange', printableJson(httpExchangeOf(entry!)));
        this.written.set(ref, source);
      }
      const control = t.controls?.includes(ref) ? ' (control)' : '';
      return { name: `${exchangeTitle(ref, entry!)}${control}`, type: 'application/vnd.allure.http+json', source };
    });
    if (cited.length) {
      const curl = cited.map(({ ref, entry }) => `# ${exchangeTitle(ref, entry!)}\n${curlOfEntry(entry!)}\n`).join('\n');
      out.push({ name: 'curl (the requests, credentials masked)', type: 'text/plain', source: this.file('.txt', printable(curl)) });
    }
    return out;
  }
}

function runNotStarted(summary: RunSummary, at: number): Result {
  const message = summary.error?.message ?? 'the run could not start';
  return {
    uuid: randomUUID(),
    historyId: 'run-could-not-start',
    testCaseId: 'run-could-not-start',
    name: 'the run could not start',
    fullName: 'the run could not start',
    status: 'broken',
    statusDetails: { message: firstLine(message), trace: message },
    stage: 'finished' as TestResult['stage'],
    labels: [{ name: 'verdict', value: 'error' }, ...(summary.error ? [{ name: 'code', value: summary.error.code }] : [])],
    links: [],
    steps: [],
    attachments: [],
    parameters: [],
    start: at,
    stop: at,
  };
}

/** What the run was, for Allure's environment view: target, kind, seed, runs per property. */
function environment(summary: RunSummary): string {
  const facts: Array<[string, string | number | undefined]> = [
    ['target', summary.target?.name],
    ['kind', summary.target?.kind],
    ['seed', summary.seed],
    ['runs per property', summary.runs],
    ['areas', summary.areas?.join(', ')],
  ];
  return facts
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k.replace(/ /g, '\\ ')}=${String(v).replace(/\n/g, ' ')}`)
    .join('\n');
}

/** Replaces the report folder's allure-results/ with the run's. */
export function writeAllureResults(reportDir: string, summary: RunSummary, evidence?: EvidenceOutput): void {
  const dir = join(reportDir, ALLURE_DIR);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const registry = requirements();
  const attachments = new Attachments(dir, entriesByRef(evidence));
  const stop = Date.parse(summary.generatedAt);
  const write = (result: Result) => writeFileSync(join(dir, `${result.uuid}-result.json`), printableJson(result));
  if (summary.status === 'errored') write(runNotStarted(summary, stop));
  const ids = historyIds(summary.tests);
  summary.tests.forEach((t, i) => {
    const req = t.requirement ? registry.get(t.requirement) : undefined;
    write({
      uuid: randomUUID(),
      historyId: ids[i],
      testCaseId: ids[i],
      name: t.title,
      fullName: `${t.file} > ${[...t.suitePath, t.title].join(' > ')}`,
      titlePath: [t.file, ...t.suitePath],
      status: STATUS[t.verdict],
      statusDetails: statusDetails(t),
      stage: 'finished' as TestResult['stage'],
      description: description(t, req),
      labels: labels(t),
      links: [],
      steps: [],
      attachments: attachments.of(t),
      parameters: [],
      // The records keep each test's duration, not its start: every test ends when the run's summary was made.
      start: stop - t.durationMs,
      stop,
    });
  });
  writeFileSync(join(dir, 'environment.properties'), `${printable(environment(summary))}\n`);
}
