/**
 * report.html: the report a person opens in a browser, of every run and of a certification pack. One
 * self-contained file: inline style and script, no external asset, a Content-Security-Policy that lets
 * nothing be fetched.
 *
 * Top: the run's outcome, or for a certification the verdict (certifiable or not, and why)
 * (page-head.ts), the counts, target, date, seed, depth, suite version.
 * Then the failures first, those that share one root cause (one answer of the target) grouped with the
 * requirements they break, each whole (expected, received, response excerpt, curl with secrets masked);
 * waived failures with their waiver; policy warnings; each with what it rests on (the spec's words, or
 * our reading, said to be ours). Then every requirement by spec section with its verdict, source, the
 * spec's words and its tests (skips and inconclusive results with their reasons). Then coverage by section.
 * Every test (failure or row) opens onto the exchanges that decided it, from the pack's evidence
 * (exchanges.ts). Filters by area and verdict work from the file alone. Every text is escaped; every
 * message and exchange was redacted when it was made.
 */
import { AREAS } from '../../areas.ts';
import type { Requirement } from '../../spec/requirements.ts';
import { runCoverage } from '../../report/coverage.ts';
import { bodyOf } from '../../report/message.ts';
import type { RecordVerdict, TestRecord, WaiverRecord } from '../../report/records.ts';
import { basisOf, type RequirementEntry } from '../../report/requirement-basis.ts';
import { describeWaiver } from '../../report/waivers.ts';
import type { SectionCoverage } from '../../spec/traceability.ts';
import { certificationVerdict, type RequirementOutcome } from '../verdict.ts';
import { SCRIPT, STYLE } from './assets.ts';
import { EXCHANGES_SCRIPT, EXCHANGES_STYLE, exchangesBlock, exchangesData } from './exchanges.ts';
import { byKey, esc, sectionOrder, slug } from './html.ts';
import { pageFooter, pageHeader, pageTitle, type ReportHtmlInput, runFacts, scopeOf } from './page-head.ts';

export type { ReportHtmlInput } from './page-head.ts';

const VERDICT_ORDER: readonly RecordVerdict[] = ['failed', 'error', 'waived', 'warning', 'inconclusive', 'skipped', 'passed'];
const OUTCOME_ORDER: readonly RequirementOutcome['verdict'][] = [
  'error',
  'failed',
  'not checked',
  'warning',
  'waived',
  'passed',
  'out of scope',
];

/** Tests of areas outside the mission are left out of the lists (one line says how many). */
const missionFilter = (areas: readonly string[]) => (t: TestRecord) => !t.area || areas.includes(t.area);

const badge = (text: string, cls = `v-${slug(text)}`) => `<span class="badge ${cls}">${esc(text)}</span>`;
const areaOf = (t: TestRecord) => t.area ?? 'other';
const anchorOf = (t: TestRecord, i: number) => `t${i}-${slug(t.requirement ?? 'test')}`;

const waiverBox = (w: WaiverRecord, expired = false) =>
  `<div class="waiver">${expired ? '<b>Expired waiver, no longer waives:</b> ' : '<b>Waived:</b> '}${esc(describeWaiver(w))}</div>`;

function counts(input: ReportHtmlInput): string {
  const c = input.summary.counts;
  const outside = input.summary.tests.filter((t) => !missionFilter(scopeOf(input))(t)).length;
  const rows: Array<[string, number, string]> = [
    ['passed', c.passed, 'passed'],
    ['contract failures', c.contractFailures, 'failed'],
    ['tool errors', c.toolErrors, 'error'],
    ['waived failures', c.waived, 'waived'],
    ['policy warnings', c.warnings, 'warning'],
    ['inconclusive', c.inconclusive, 'inconclusive'],
    ['skipped', c.skipped - c.inconclusive, 'skipped'],
    ['total', c.total, ''],
  ];
  const note = outside
    ? `<p class="muted">The run's counts: ${outside} of the skipped tests belong to areas outside ${input.manifest ? 'the mission' : "the run's areas"}.</p>`
    : '';
  return `<h2 id="counts-title">Counts</h2>${note}<table class="counts" id="counts"><tr>${rows.map(([label, , cls]) => `<th>${cls ? badge(label, `v-${cls}`) : esc(label)}</th>`).join('')}</tr><tr>${rows.map(([, n]) => `<td>${n}</td>`).join('')}</tr></table>`;
}

function waivers({ summary }: ReportHtmlInput): string {
  const uses = summary.waivers?.uses ?? [];
  if (!summary.waivers) return '';
  const rows = uses.map(
    (u) =>
      `<tr><td>${u.entry}</td><td>${badge(u.status, u.status === 'applied' ? 'v-waived' : u.status === 'expired' ? 'v-failed' : 'v-skipped')}</td><td>${esc(u.requirement)}${u.row ? `<br><span class="muted">rows ${esc(u.row)}</span>` : ''}</td><td>${esc(u.owner)}</td><td>${esc(u.expires)}</td><td>${esc(u.reason)}</td><td>${u.tests.length ? u.tests.map(esc).join('<br>') : '<span class="muted">matched no failure</span>'}</td></tr>`,
  );
  return `<h2 id="waivers">Waivers (${esc(summary.waivers.file)})</h2>
<p class="muted">applied: waives the failures listed while it holds · expired: past its day, the failures it matched fail again · unused: matched no failure (fixed, or a wrong pattern)</p>
<table><tr><th>#</th><th>status</th><th>requirement</th><th>owner</th><th>until</th><th>reason</th><th>failures matched</th></tr>${rows.join('')}</table>`;
}

function filters(tests: readonly TestRecord[]): string {
  const areas = [...new Set(tests.map(areaOf))].sort();
  const verdicts = VERDICT_ORDER.filter((v) => tests.some((t) => t.verdict === v));
  const box = (kind: string, value: string) =>
    `<label><input type="checkbox" data-kind="${kind}" value="${esc(value)}" checked> ${esc(value)} (${tests.filter((t) => (kind === 'area' ? areaOf(t) : t.verdict) === value).length})</label>`;
  return `<nav id="filters"><fieldset><legend>area</legend>${areas.map((a) => box('area', a)).join('')}<button type="button" data-kind="area" data-set="all">all</button><button type="button" data-kind="area" data-set="none">none</button></fieldset>
<fieldset><legend>verdict</legend>${verdicts.map((v) => box('verdict', v)).join('')}<button type="button" data-kind="verdict" data-set="all">all</button><button type="button" data-kind="verdict" data-set="problems">not passed</button><button type="button" data-kind="verdict" data-set="none">none</button></fieldset>
<span id="shown" class="muted"></span></nav>`;
}

function failureBlock(t: TestRecord, anchor: string, entries: Record<string, RequirementEntry>): string {
  const text = t.verdict === 'warning' ? t.warning : t.message;
  // A tool error is no verdict on the requirement: what the requirement rests on is shown beside verdicts only.
  const basis = t.verdict === 'error' ? '' : basisBlock(entries[t.requirement ?? '']);
  return `<article class="failure" id="${anchor}" data-test data-area="${esc(areaOf(t))}" data-verdict="${t.verdict}">
<div>${badge(t.verdict)} ${t.code ? badge(t.code, 'v-error') : ''} ${badge(t.source ?? 'no source', 'src')} <b>${esc(t.title)}</b> <span class="muted">${esc(t.file)}</span></div>
${basis}${t.waiver ? waiverBox(t.waiver, t.waiverExpired) : ''}<pre>${esc(bodyOf(t, text))}</pre>${exchangesBlock(t)}</article>`;
}

/** What a verdict rests on: the spec's words, or our reading, said to be ours. */
function basisBlock(entry: RequirementEntry | undefined): string {
  const basis = basisOf(entry);
  if (!basis) return '';
  const quotes = basis.quotes.map((q) => `<q>${esc(q)}</q>`).join('<br>');
  const reading = basis.reading
    ? `<div class="reading">${basis.ours ? 'Our reading' : 'Our reading of them'}: ${esc(basis.reading)}</div>`
    : '';
  return `<blockquote class="basis${basis.ours ? ' ours' : ''}"><div class="muted">${esc(basis.heading)}</div>${basis.ours ? reading + (quotes ? `<div class="muted">It reads the spec's words:</div>${quotes}` : '') : quotes + reading}</blockquote>`;
}

function failures({ summary }: ReportHtmlInput, anchors: Map<TestRecord, string>): string {
  const entries = summary.requirements ?? {};
  const parts: string[] = [];
  const section = (id: string, title: string, list: TestRecord[], note: string) => {
    if (!list.length) return;
    const grouped = byKey(
      list.filter((t) => t.rootCauseKey ?? t.rootCause),
      (t) => (t.rootCauseKey ?? t.rootCause)!,
    );
    const blocks: string[] = [];
    for (const [key, same] of grouped) {
      if (same.length < 2) continue;
      const ids = [...new Set(same.map((t) => t.requirement ?? t.title))];
      blocks.push(
        `<section class="group" data-container><h3>One defect, ${same.length} failures of ${ids.length} requirement(s): ${esc(ids.join(', '))}</h3><p class="muted">root cause: ${esc(same[0].rootCause ?? key)}. Each of them failed on the same expectation at the same place; fixing that defect may fix every failure below.</p>${same.map((t) => failureBlock(t, anchors.get(t)!, entries)).join('')}</section>`,
      );
    }
    const grouped2 = new Set([...grouped.values()].filter((g) => g.length > 1).flat());
    for (const t of list) if (!grouped2.has(t)) blocks.push(failureBlock(t, anchors.get(t)!, entries));
    parts.push(
      `<section id="${id}" data-container><h2>${esc(title)} (${list.length})</h2><p class="muted">${esc(note)}</p>${blocks.join('')}</section>`,
    );
  };
  const of = (...v: RecordVerdict[]) => summary.tests.filter((t) => v.includes(t.verdict));
  section(
    'failures',
    'Failures',
    of('failed', 'error'),
    'Contract failures (the target broke the requirement) and tool errors (the suite could not reach a verdict: not a contract result, but no certification either).',
  );
  if (!parts.length) parts.push('<h2 id="failures">Failures (0)</h2><p>No test failed and no tool error.</p>');
  section('waived', 'Waived failures', of('waived'), 'Contract failures a waiver in force accepts for now. Not passes.');
  section(
    'warnings',
    'Policy warnings',
    of('warning'),
    "Policy requirements (our reading, not the spec's words) that failed; they block only with strictPolicy: true.",
  );
  return parts.join('\n');
}

function testRow(t: TestRecord, anchor: string): string {
  const rowText = t.requirement ? t.title.replace(new RegExp(`^${t.requirement} §\\S+ `), '') : t.title;
  let detail = '';
  if (t.verdict === 'failed' || t.verdict === 'error' || t.verdict === 'waived' || t.verdict === 'warning')
    detail = ` <a href="#${anchor}">the failure, whole</a>`;
  if (t.verdict === 'skipped' || t.verdict === 'inconclusive') detail = `<div class="why">${esc(t.skipReason ?? 'no reason given')}</div>`;
  return `<div class="test" data-test data-count data-area="${esc(areaOf(t))}" data-verdict="${t.verdict}">${badge(t.verdict)} ${esc(rowText)}${detail}${exchangesBlock(t)}</div>`;
}

/**
 * Each requirement's outcome over its tests: a certification's, from its verdict (every requirement of the
 * registry); a run's, over the requirements it judged, with the same rules.
 */
function outcomesOf(input: ReportHtmlInput): readonly RequirementOutcome[] {
  if (input.manifest) return input.manifest.verdict.requirements;
  const registry = new Map<string, Requirement>(
    Object.entries(input.summary.requirements ?? {}).map(([id, entry]) => [id, { id, ...entry }]),
  );
  return certificationVerdict({ summary: input.summary, registry, areas: scopeOf(input), allAreas: AREAS }).requirements;
}

function requirementsBySection(input: ReportHtmlInput, anchors: Map<TestRecord, string>): string {
  const { summary, manifest } = input;
  const scope = scopeOf(input);
  const inMission = missionFilter(scope);
  const entries = summary.requirements ?? {};
  const testsOf = byKey(
    summary.tests.filter((t) => t.requirement && inMission(t)),
    (t) => t.requirement!,
  );
  const out: string[] = [
    '<h2 id="requirements">Requirements by spec section</h2>',
    manifest
      ? `<p class="muted">Each requirement with its verdict over its tests in this run and the spec's words it rests on; blocking requirements (marked) decide the certification. Mission: ${esc(scope.join(', '))}.</p>`
      : `<p class="muted">Each requirement this run judged, with its verdict over its tests and the spec's words it rests on. Areas: ${esc(scope.join(', '))}.</p>`,
  ];
  const bySection = byKey(
    outcomesOf(input).filter((r) => r.verdict !== 'out of scope'),
    (r) => r.section,
  );
  for (const section of [...bySection.keys()].sort(sectionOrder)) {
    const reqs = bySection
      .get(section)!
      .sort((a, b) => OUTCOME_ORDER.indexOf(a.verdict) - OUTCOME_ORDER.indexOf(b.verdict) || a.id.localeCompare(b.id));
    out.push(`<section data-container id="s${slug(section)}"><h3>§${esc(section)}</h3>`);
    for (const r of reqs) {
      const tests = (testsOf.get(r.id) ?? []).sort((a, b) => VERDICT_ORDER.indexOf(a.verdict) - VERDICT_ORDER.indexOf(b.verdict));
      // Open wherever something is not a plain pass, so that no failure, skip or waiver hides in a closed block.
      const open = tests.some((t) => t.verdict !== 'passed') || r.verdict === 'not checked' ? ' open' : '';
      const counts =
        Object.entries(r.tests)
          .map(([v, n]) => `${n} ${v}`)
          .join(', ') || 'no test in this run';
      out.push(`<details class="req" data-container${open}><summary>${badge(r.verdict)} ${badge(r.source, 'src')} ${manifest && r.blocking ? '<span class="blocking">blocking</span> ' : ''}<b>${esc(r.id)}</b> ${esc(r.text)} <span class="muted">(${esc(counts)})</span></summary>
${basisBlock(entries[r.id])}${tests.map((t) => testRow(t, anchors.get(t) ?? '')).join('')}</details>`);
    }
    out.push('</section>');
  }
  const loose = summary.tests.filter((t) => !t.requirement);
  if (loose.length)
    out.push(
      `<section data-container><h3>Not tied to a requirement</h3>${loose.map((t) => testRow(t, anchors.get(t) ?? '')).join('')}</section>`,
    );
  const outside = summary.tests.filter((t) => !inMission(t));
  if (outside.length)
    out.push(
      `<p class="muted" id="outside">${outside.length} test(s) of areas outside the ${manifest ? 'mission' : "run's areas"} (${esc([...new Set(outside.map(areaOf))].join(', '))}) were skipped and are not listed.</p>`,
    );
  return out.join('\n');
}

/** Coverage by spec section from the traceability matrix (specs/traceability.yaml), or why it is missing. */
function coverage(input: ReportHtmlInput): string {
  let coverage: ReturnType<typeof runCoverage>;
  try {
    coverage = runCoverage(input.summary.tests, scopeOf(input));
  } catch (error) {
    return `<h2 id="coverage">Coverage by spec section</h2><p class="muted">Coverage by section is not available: ${esc((error as Error).message)}</p>`;
  }
  const row = (r: SectionCoverage) =>
    `<tr><td>${r.section === 'all' ? '<b>all</b>' : `§${esc(r.section)}`}</td><td>${r.statements}</td><td>${r.checked}</td><td>${r.passed}</td><td>${r.untestable}</td><td>${r.pending}</td></tr>`;
  return `<h2 id="coverage">Coverage by spec section</h2><p class="muted">The spec's testable statements (specs/traceability.yaml) of each section: checked by a requirement; passed in this run (every test of every requirement that checks it passed: a waived one did not); not testable from outside; pending a check.${coverage.areas.length < AREAS.length ? ` Only the sections and statements of the ${input.manifest ? "mission's areas" : 'areas this run checked'} (${esc(coverage.areas.join(', '))}).` : ''}</p>
<table><tr><th>section</th><th>statements</th><th>checked</th><th>passed</th><th>not testable</th><th>pending</th></tr>${[...coverage.rows, coverage.total].map(row).join('')}</table>`;
}

export function renderReportHtml(input: ReportHtmlInput): string {
  const anchors = new Map(input.summary.tests.map((t, i) => [t, anchorOf(t, i)]));
  const inScope = input.summary.tests.filter(missionFilter(scopeOf(input)));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(pageTitle(input))}</title><style>${STYLE}${EXCHANGES_STYLE}</style></head>
<body>
${pageHeader(input)}
${counts(input)}
${runFacts(input)}
${waivers(input)}
${filters(inScope)}
${failures(input, anchors)}
${requirementsBySection(input, anchors)}
${coverage(input)}
${pageFooter(input)}
${exchangesData(inScope, input.exchanges ?? new Map())}
<script>${SCRIPT}${EXCHANGES_SCRIPT}</script>
</body></html>
`;
}
