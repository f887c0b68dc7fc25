/**
 * The run's results as data: one record per test with its verdict, code and the requirement's source,
 * counts that keep contract failures, tool errors, inconclusive tests, policy warnings and waived
 * failures apart, and the grouping of failures that share one root cause. Every report (console,
 * conformance.json/.md, junit.xml, the certification pack) is rendered from this one shape, so they
 * cannot disagree.
 */
import { ERROR_CODES, INCONCLUSIVE_CODES, SKIP_CODES, type ErrorCode } from '../errors.ts';
import type { RequirementSource } from '../spec/requirements.ts';
import { interruptionLine, type Interruption } from '../runner/interruption.ts';
import type { Verdict } from '../test/suite.ts';
import type { RequirementEntry } from './requirement-basis.ts';

/**
 * @3: a test's outcome is its verdict alone (the `state` of @2, vitest's view, counted a policy warning as
 * passed and is gone); a root cause is named in words (`rootCause`) and grouped by `rootCauseKey`; every
 * test names its evidence. `readSummary` (merge.ts) still reads @2.
 */
export const SUMMARY_FORMAT = 'partner-conformance/summary@3';

/**
 * A test's verdict in the reports: the test's own verdict, or `waived` when a waiver in force accepted its
 * contract failure for a time. Only the reports make `waived`; a test never ends with it.
 */
export type RecordVerdict = Verdict | 'waived';

/** A waiver as the reports show it beside a test, or in the run's list of waivers. */
export interface WaiverRecord {
  requirement: string;
  row?: string;
  reason: string;
  owner: string;
  /** The last day (UTC) the waiver holds, yyyy-mm-dd. */
  expires: string;
  /** The entry's position in the waiver file, from 1. */
  entry: number;
}

/** How the run's waivers were used: applied (waived N failures), expired (no longer waives), unused (matched no failure). */
export interface WaiverUse extends WaiverRecord {
  status: 'applied' | 'expired' | 'unused';
  /** Titles of the failed tests it matched: waived when applied, still failed when expired. */
  tests: string[];
}

/** A document the run fetched from the target and judged (the business openapi.yaml), bound by its hash. */
export interface FetchedDocument {
  url: string;
  sha256: string;
  bytes: number;
  contentType?: string;
  /** Where its bytes were kept, relative to the report folder; empty when they were withheld. */
  file: string;
  /** Why the bytes were not kept (they hold a credential of the target file). */
  withheld?: string;
  /** What a reader should know about the kept bytes (values in it that look like credentials and are not). */
  note?: string;
}

/** The target a run checked (target-identity.ts makes it and compares two). */
export interface TargetRecord {
  name: string;
  kind: string;
  vendorConventions: boolean;
  strictPolicy?: boolean;
  /** The target file, relative to the suite's folder; absent for the embedded sandbox. */
  file?: string;
  /** The first 16 hex digits of the SHA-256 of the services' URLs; absent for the embedded sandbox, whose ports change. */
  services?: string;
  /** The embedded sandbox the run started, with the faults it was started with (sorted). */
  embeddedSandbox?: { faults: string[] };
}

export interface TestRecord {
  requirement?: string;
  title: string;
  file: string;
  /** describe titles, outermost first */
  suitePath: string[];
  area?: string;
  section?: string;
  source?: RequirementSource;
  /** The test's one outcome: passed, failed, error, skipped, inconclusive, warning or waived. */
  verdict: RecordVerdict;
  /** The tool-error, skip or inconclusive code. */
  code?: ErrorCode;
  durationMs: number;
  /** The whole failure or tool-error message, never cut. */
  message?: string;
  skipReason?: string;
  /** A policy failure reported as a warning: the whole message. */
  warning?: string;
  /** The defect the test failed on, or took as given (DEPENDENCY_FAILED), in words: the requirement, what was expected and what came. */
  rootCause?: string;
  /** Tests that share this key show one defect (harness/report/root-cause.ts). */
  rootCauseKey?: string;
  /** The requirement this test takes as given and found broken (DEPENDENCY_FAILED); settled over the run (dependencies.ts). */
  dependsOn?: string;
  /** What the test saw of the requirement it depends on, kept so that a merge of shards can settle it again. */
  dependencyReason?: string;
  /**
   * The exchanges that decided the test: those it made and those it judged (a control, an answer made
   * once and shared), in the order it met them, as `<HAR file>#<entry _id>` into summary.evidence's files.
   */
  evidence?: string[];
  /** Among `evidence`, the controls a refusal stood next to: a valid request of the same operation, served in this run. */
  controls?: string[];
  /**
   * The waiver that accepted this failure (verdict `waived`), or the expired waiver that no longer does
   * (verdict still `failed`, `waiverExpired` true).
   */
  waiver?: WaiverRecord;
  waiverExpired?: boolean;
}

export interface Counts {
  /** Tests that passed (policy warnings are not counted here). */
  passed: number;
  /** Contract failures plus tool errors, as the closing line counts them. */
  failed: number;
  /** Skipped plus inconclusive. */
  skipped: number;
  total: number;
  contractFailures: number;
  toolErrors: number;
  inconclusive: number;
  warnings: number;
  /** Contract failures a waiver in force accepted: in none of passed, failed, skipped. */
  waived: number;
  /** Defects: root causes with at least one contract failure (rootCauses). */
  defects?: number;
  /** Requirements with at least one contract failure. */
  failedRequirements?: number;
}

export interface RunSummary {
  format: typeof SUMMARY_FORMAT;
  /**
   * `errored` when the run could not start (a bad target file), `error` then says why; `interrupted` when
   * it was stopped before its end, `interruption` then says by what, and the results are partial.
   */
  status: 'ran' | 'errored' | 'interrupted';
  error?: { code: ErrorCode; message: string };
  interruption?: Interruption & {
    /** Test files the run had not started; their tests are not listed. */
    filesNotStarted?: number;
  };
  generatedAt: string;
  startedAt?: string;
  target?: TargetRecord;
  seed?: number;
  runs?: number;
  /** The areas the run checked. */
  areas?: string[];
  /** The share of every documented rate limit the run used (1/n for a shard of n). */
  paceShare?: number;
  /** Set on a merged summary: the shard reports it was made from. */
  mergedFrom?: string[];
  counts: Counts;
  /** Tests a name filter (--grep, --only-failed) left out: not results, not counted. */
  filteredOut?: number;
  /**
   * Every requirement the run judged, by id: its section, source and text, the spec's words it rests on
   * (`quote`) and our reading, so that each report shows what a verdict rests on (requirement-basis.ts).
   */
  requirements?: Record<string, RequirementEntry>;
  toolErrorsByCode: Partial<Record<ErrorCode, number>>;
  /**
   * The defects of the run, worst first: each root cause with a contract failure, named in words, with
   * every test it touched (those that failed on it and those that took it as given and ended inconclusive).
   */
  rootCauses: RootCauseGroup[];
  unhandledErrors: string[];
  /** The waiver file of the run (its name) and what each waiver did; absent when the run had none. */
  waivers?: { file: string; uses: WaiverUse[] };
  /** Documents fetched from the target and judged, with their SHA-256. */
  documents?: FetchedDocument[];
  /** The run's exchanges as HAR 1.2 files (one per area), which the tests' `evidence` points into. */
  evidence?: EvidenceFiles;
  tests: TestRecord[];
}

export interface RootCauseGroup {
  key: string;
  about: string;
  /** The requirement whose subject the defect is (absent in summaries of earlier versions). */
  requirement?: string;
  /** Titles of every test it touched. */
  tests: string[];
  /** Of them, the contract failures, and the tests that depend on it (inconclusive, DEPENDENCY_FAILED). */
  failed?: number;
  dependent?: number;
}

export interface EvidenceFiles {
  format: 'HAR 1.2';
  /** Each body is kept to this many bytes; a longer one is cut there and says so. */
  bodyCapBytes: number;
  files: Array<{ area: string; file: string; entries: number; bytes: number }>;
}

const CODE_PREFIX = /^([A-Z][A-Z0-9_]+):/;
/** vitest's message when a test outlives its timeout. */
export const VITEST_TIMEOUT = /^Test timed out in \d+ms/;

/** The code a message starts with, when it is one of ours. */
export function codeOf(text: string | undefined): ErrorCode | undefined {
  const match = CODE_PREFIX.exec(text ?? '');
  return match && match[1] in ERROR_CODES ? (match[1] as ErrorCode) : undefined;
}

/** vitest's own state of a test: a warning is passed to it, a tool error failed, an inconclusive test skipped. */
export type VitestState = 'passed' | 'failed' | 'skipped';

/**
 * The verdict from vitest's state and the test's meta. Tests registered without `requirementTest` (and
 * module-level errors) carry no meta: their verdict comes from the state and the code their message starts with.
 */
export function verdictOf(
  state: VitestState,
  meta: { verdict?: Verdict; code?: ErrorCode },
  text: string | undefined,
): { verdict: Verdict; code?: ErrorCode } {
  // vitest's own timeout came before the test's budget (a machine too busy to run the budget's timer): the budget ran out all the same.
  if (state === 'failed' && VITEST_TIMEOUT.test(text ?? '')) return { verdict: 'error', code: 'TARGET_TIMEOUT' };
  const code = meta.code ?? codeOf(text);
  if (state === 'failed')
    return meta.verdict === 'error' || (code && !SKIP_CODES.has(code) && !INCONCLUSIVE_CODES.has(code))
      ? { verdict: 'error', code: code ?? 'SUITE_ERROR' }
      : { verdict: 'failed' };
  if (state === 'skipped')
    return meta.verdict === 'inconclusive' || (code && INCONCLUSIVE_CODES.has(code))
      ? { verdict: 'inconclusive', code }
      : { verdict: 'skipped', code };
  return meta.verdict === 'warning' ? { verdict: 'warning' } : { verdict: 'passed' };
}

export function countsOf(tests: readonly TestRecord[]): Counts {
  const n = (v: RecordVerdict) => tests.filter((t) => t.verdict === v).length;
  const contractFailures = n('failed');
  const toolErrors = n('error');
  const inconclusive = n('inconclusive');
  return {
    defects: rootCausesOf(tests).length,
    failedRequirements: new Set(tests.filter((t) => t.verdict === 'failed').map((t) => t.requirement ?? t.title)).size,
    passed: n('passed'),
    failed: contractFailures + toolErrors,
    skipped: n('skipped') + inconclusive,
    total: tests.length,
    contractFailures,
    toolErrors,
    inconclusive,
    warnings: n('warning'),
    waived: n('waived'),
  };
}

export function toolErrorsByCode(tests: readonly TestRecord[]): Partial<Record<ErrorCode, number>> {
  const out: Partial<Record<ErrorCode, number>> = {};
  for (const t of tests) if (t.verdict === 'error') out[t.code ?? 'SUITE_ERROR'] = (out[t.code ?? 'SUITE_ERROR'] ?? 0) + 1;
  return out;
}

/**
 * The defects of the run: the tests grouped by root cause, the most tests first. A group holds contract
 * failures, or tests that depend on a requirement that failed in the run (after `settleDependencies`)
 * and met a defect of it that its own tests did not: that is a defect of its own, of that requirement.
 */
export function rootCausesOf(tests: readonly TestRecord[]): RootCauseGroup[] {
  const groups = new Map<string, { about: string; requirement?: string; tests: TestRecord[] }>();
  for (const t of tests) {
    const key = t.rootCauseKey ?? t.rootCause;
    const dependent = t.verdict === 'inconclusive' && t.dependsOn !== undefined;
    if (!key || (t.verdict !== 'failed' && !dependent)) continue;
    const group = groups.get(key) ?? { about: t.rootCause ?? key, requirement: undefined, tests: [] };
    if (!group.requirement) group.requirement = t.dependsOn ?? t.requirement;
    group.tests.push(t);
    groups.set(key, group);
  }
  return [...groups]
    .map(([key, g]) => ({
      key,
      about: g.about,
      requirement: g.requirement,
      tests: g.tests.map((t) => t.title),
      failed: g.tests.filter((t) => t.verdict === 'failed').length,
      dependent: g.tests.filter((t) => t.verdict === 'inconclusive').length,
    }))
    .sort((a, b) => b.tests.length - a.tests.length);
}

/** The summary of a run, from its records. */
export function summaryOf(
  tests: TestRecord[],
  extra: Pick<
    RunSummary,
    'target' | 'seed' | 'runs' | 'startedAt' | 'areas' | 'paceShare' | 'mergedFrom' | 'waivers' | 'documents' | 'evidence' | 'requirements'
  > &
    Partial<Pick<RunSummary, 'status' | 'interruption'>> & { unhandledErrors?: string[] },
): RunSummary {
  return {
    format: SUMMARY_FORMAT,
    status: 'ran',
    generatedAt: new Date().toISOString(),
    ...extra,
    counts: countsOf(tests),
    toolErrorsByCode: toolErrorsByCode(tests),
    rootCauses: rootCausesOf(tests),
    unhandledErrors: extra.unhandledErrors ?? [],
    tests,
  };
}

/** The summary of a run that could not start (a bad target file): zero tests, the error, status errored. */
export function erroredSummary(error: { code: ErrorCode; message: string }): RunSummary {
  return { ...summaryOf([], {}), status: 'errored', error };
}

/** The summary of a run interrupted before vitest could write one: zero tests, what stopped it. */
export function interruptedSummary(interruption: Interruption): RunSummary {
  return { ...summaryOf([], {}), status: 'interrupted', interruption };
}

/** Why a run that ran checked nothing (no test passed or failed), or undefined when it checked something. */
export function nothingCheckedReason(summary: RunSummary): string | undefined {
  const c = summary.counts;
  if (summary.status !== 'ran' || c.passed + c.contractFailures + c.warnings + c.waived > 0) return undefined;
  if (c.total === 0) return 'no test was collected';
  const byCode = new Map<string, number>();
  for (const t of summary.tests) byCode.set(t.code ?? t.verdict, (byCode.get(t.code ?? t.verdict) ?? 0) + 1);
  const counted = [...byCode].sort((a, b) => b[1] - a[1]);
  const parts = counted.map(([code, count]) => `${code} ${count}`);
  // The tests of the areas that were not selected say nothing about why the selected ones checked nothing
  // (a run of every file, as certify's, holds far more of them).
  const main = counted.find(([code]) => code !== 'AREA_NOT_SELECTED')?.[0];
  const inSelected = summary.areas?.length ? ` in the selected areas (${summary.areas.join(', ')})` : '';
  const why =
    c.toolErrors > 0
      ? 'every test that could run ended in a tool error'
      : main === undefined
        ? 'no area is selected'
        : main === 'CREDENTIAL_MISSING'
          ? 'the target file gives no service (or no credentials) for the selected areas'
          : main === 'SAFETY_REFUSED'
            ? `the safety gate refused everything for this target kind${inSelected}`
            : `every test${inSelected} was skipped or inconclusive`;
  return `nothing was checked: ${why} (${parts.join(', ')})`;
}

/** What stopped an interrupted run, and what it left out, in words; undefined for a run that was not interrupted. */
export function interruptionOf(summary: RunSummary): string | undefined {
  const interruption = summary.interruption;
  if (summary.status !== 'interrupted' || !interruption) return undefined;
  const files = interruption.filesNotStarted ? ` (${interruption.filesNotStarted} test file(s) had not started)` : '';
  return `${interruptionLine(interruption, summary.startedAt)}${files}`;
}

/**
 * The exit code of a run: 0 when everything checked passed, 1 on a contract failure, 2 on tool or
 * configuration errors only, when nothing was checked, or when the run was interrupted (its results are
 * partial, whatever they hold).
 */
export function exitCodeOf(summary: RunSummary): 0 | 1 | 2 {
  if (summary.status !== 'ran') return 2;
  if (summary.counts.contractFailures > 0) return 1;
  if (summary.counts.toolErrors > 0 || summary.unhandledErrors.length > 0) return 2;
  return nothingCheckedReason(summary) ? 2 : 0;
}
