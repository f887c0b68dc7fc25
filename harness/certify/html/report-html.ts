/**
 * report.html: the certification report a person opens in a browser. One self-contained file: inline
 * style and script, no external asset, a Content-Security-Policy that lets nothing be fetched.
 *
 * Top: the verdict (certifiable or not, and why), the counts, target, date, seed, depth, suite version.
 * Then the failures first, those that share one root cause (one answer of the target) grouped with the
 * requirements they break, each whole (expected, received, response excerpt, curl with secrets masked);
 * waived failures with their waiver; policy warnings. Then every requirement by spec section with its
 * verdict, source and tests (skips and inconclusive results with their reasons). Then coverage by section.
 * Every test (failure or row) opens onto the exchanges that decided it, from the pack's evidence
 * (exchanges.ts). Filters by area and verdict work from the file alone. Every text is escaped; every
 * message and exchange was redacted when it was made.
 */
import type { RecordVerdict, RunSummary, TestRecord, WaiverRecord } from '../../report/records.ts';
import { describeWaiver } from '../../report/waivers.ts';
import { AREAS } from '../../areas.ts';
import { runCoverage } from '../../report/coverage.ts';
import type { SectionCoverage } from '../../traceability.ts';
import type { ManifestInput } from '../manifest.ts';
import type { RequirementOutcome } from '../verdict.ts';
import { SCRIPT, STYLE } from './assets.ts';
import { EXCHANGES_SCRIPT, EXCHANGES_STYLE, exchangesBlock, exchangesData } from './exchanges.ts';
import { byKey, esc, sectionOrder, slug } from './html.ts';

export interface ReportHtmlInput {
  summary: RunSummary;
  manifest: ManifestInput;
  /** The run's HAR entries by reference (`<file>#<_id>`), for the tests' exchanges. */
  exchanges?: ReadonlyMap<string, unknown>;
}

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

/** Message lines after the title line (messages repeat the test's title first). */
function bodyOf(t: TestRecord, text: string | undefined): string {
  const lines = (text ?? '').split('\n');
  return (lines[0]?.trim() === t.title.trim() ? lines.slice(1) : lines).join('\n').replace(/^\n+/, '');
}

const waiverBox = (w: WaiverRecord, expired = false) =>
  `<div class="waiver">${expired ? '<b>Expired waiver, no longer waives:</b> ' : '<b>Waived:</b> '}${esc(describeWaiver(w))}</div>`;

function header({ summary, manifest }: ReportHtmlInput): string {
  const v = manifest.verdict;
  const run = manifest.run;
  const suite = manifest.suite;
  const lines = v.certifiable ? v.basis : v.reasons;
  return `<header class="verdict ${v.certifiable ? 'ok' : 'ko'}" id="verdict">
<h1>${v.certifiable ? 'CERTIFIABLE' : 'NOT CERTIFIABLE'}</h1>
<p class="facts">Target <b>${esc(manifest.target.name)}</b> (kind ${esc(manifest.target.kind)}; mission ${esc(manifest.target.areas.join(', '))}) ·
run ${esc(run.startedAt)} to ${esc(run.endedAt)} · seed ${esc(run.seed ?? '?')} · depth ${esc(run.depth)} (${esc(run.runs ?? '?')} runs per property) ·
suite ${esc(suite.name)} ${esc(suite.version)}${suite.commit ? ` (commit ${esc(suite.commit.slice(0, 12))}${suite.modified ? ', with local changes' : ''})` : ''} ·
${manifest.signing.signed ? `signed ${esc(manifest.signing.alg)}, key thumbprint <code>${esc(manifest.signing.thumbprint)}</code>` : `<b>unsigned</b>: ${esc(manifest.signing.why)}`}</p>
<p><b>${v.certifiable ? 'Why it is certifiable' : 'Why it is not certifiable'}:</b></p>
<ul>${lines.map((l) => `<li>${esc(l)}</li>`).join('')}</ul>
${v.certifiable ? '' : `<p class="facts">${v.basis.map(esc).join(' · ')}</p>`}
</header>
<p class="muted">Generated ${esc(summary.generatedAt)}. A waived failure is not a pass; skipped and inconclusive tests checked nothing.</p>`;
}

function counts({ summary, manifest }: ReportHtmlInput): string {
  const c = summary.counts;
  const outside = summary.tests.filter((t) => !missionFilter(manifest.target.areas)(t)).length;
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
  const note = outside ? `<p class="muted">The run's counts: ${outside} of the skipped tests belong to areas outside the mission.</p>` : '';
  return `<h2 id="counts-title">Counts</h2>${note}<table class="counts" id="counts"><tr>${rows.map(([label, , cls]) => `<th>${cls ? badge(label, `v-${cls}`) : esc(label)}</th>`).join('')}</tr><tr>${rows.map(([, n]) => `<td>${n}</td>`).join('')}</tr></table>`;
}

function facts({ summary, manifest }: ReportHtmlInput): string {
  const spec = manifest.spec;
  const rows: Array<[string, string]> = [
    [
      'target',
      `${esc(manifest.target.name)} (${esc(manifest.target.source)}), kind ${esc(manifest.target.kind)}, vendor conventions ${manifest.target.vendorConventions ? 'on' : 'off'}, policy ${manifest.target.strictPolicy ? 'strict (blocking)' : 'warnings (not blocking)'}`,
    ],
    ['mission (areas)', esc(manifest.target.areas.join(', '))],
    [
      'suite',
      `${esc(manifest.suite.name)} ${esc(manifest.suite.version)}${manifest.suite.commit ? `, commit <code>${esc(manifest.suite.commit)}</code>${manifest.suite.modified ? ' <b>with local changes</b>' : ''}` : ', commit unknown'}; requirements.yaml <code>${esc(manifest.suite.requirementsSha256)}</code>`,
    ],
    ['spec', 'sha256' in spec ? `${esc(spec.file)} <code>${esc(spec.sha256)}</code>` : `<b>not found</b>: ${esc(spec.missing)}`],
    [
      'documents fetched',
      (summary.documents ?? []).length
        ? (summary.documents ?? [])
            .map(
              (d) =>
                `${esc(d.url)} <code>${esc(d.sha256)}</code> (${d.bytes} bytes)${d.withheld ? `<br><span class="muted">withheld: ${esc(d.withheld)}</span>` : d.note ? `<br><span class="muted">${esc(d.note)}</span>` : ''}`,
            )
            .join('<br>')
        : 'none',
    ],
    ['waivers', manifest.waivers ? `${esc(manifest.waivers.file)} <code>${esc(manifest.waivers.sha256)}</code>` : 'none'],
    ['started / ended', `${esc(manifest.run.startedAt)} / ${esc(manifest.run.endedAt)}`],
    [
      'seed / depth',
      `${esc(manifest.run.seed ?? '?')} / ${esc(manifest.run.depth)}, ${esc(manifest.run.runs ?? '?')} runs per property (reproduce with CONFORMANCE_SEED and CONFORMANCE_RUNS)`,
    ],
    ['certified by', esc(manifest.certifiedBy ?? 'not stated')],
  ];
  return `<h2>Run</h2><table id="run">${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${v}</td></tr>`).join('')}</table>`;
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

function failureBlock(t: TestRecord, anchor: string): string {
  const text = t.verdict === 'warning' ? t.warning : t.message;
  return `<article class="failure" id="${anchor}" data-test data-area="${esc(areaOf(t))}" data-verdict="${t.verdict}">
<div>${badge(t.verdict)} ${t.code ? badge(t.code, 'v-error') : ''} ${badge(t.source ?? 'no source', 'src')} <b>${esc(t.title)}</b> <span class="muted">${esc(t.file)}</span></div>
${t.waiver ? waiverBox(t.waiver, t.waiverExpired) : ''}<pre>${esc(bodyOf(t, text))}</pre>${exchangesBlock(t)}</article>`;
}

function failures({ summary }: ReportHtmlInput, anchors: Map<TestRecord, string>): string {
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
        `<section class="group" data-container><h3>One defect, ${same.length} failures of ${ids.length} requirement(s): ${esc(ids.join(', '))}</h3><p class="muted">root cause: ${esc(same[0].rootCause ?? key)}. Each of them failed on the same expectation at the same place; fixing that defect may fix every failure below.</p>${same.map((t) => failureBlock(t, anchors.get(t)!)).join('')}</section>`,
      );
    }
    const grouped2 = new Set([...grouped.values()].filter((g) => g.length > 1).flat());
    for (const t of list) if (!grouped2.has(t)) blocks.push(failureBlock(t, anchors.get(t)!));
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

function requirementsBySection(
  { summary, manifest }: ReportHtmlInput,
  outcomes: readonly RequirementOutcome[],
  anchors: Map<TestRecord, string>,
): string {
  const inMission = missionFilter(manifest.target.areas);
  const testsOf = byKey(
    summary.tests.filter((t) => t.requirement && inMission(t)),
    (t) => t.requirement!,
  );
  const out: string[] = [
    '<h2 id="requirements">Requirements by spec section</h2>',
    `<p class="muted">Each requirement with its verdict over its tests in this run; blocking requirements (marked) decide the certification. Mission: ${esc(manifest.target.areas.join(', '))}.</p>`,
  ];
  const bySection = byKey(
    outcomes.filter((r) => r.verdict !== 'out of scope'),
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
      out.push(`<details class="req" data-container${open}><summary>${badge(r.verdict)} ${badge(r.source, 'src')} ${r.blocking ? '<span class="blocking">blocking</span> ' : ''}<b>${esc(r.id)}</b> ${esc(r.text)} <span class="muted">(${esc(counts)})</span></summary>
${tests.map((t) => testRow(t, anchors.get(t) ?? '')).join('')}</details>`);
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
      `<p class="muted" id="outside">${outside.length} test(s) of areas outside the mission (${esc([...new Set(outside.map(areaOf))].join(', '))}) were skipped and are not listed.</p>`,
    );
  return out.join('\n');
}

/** Coverage by spec section from the traceability matrix (specs/traceability.yaml), or why it is missing. */
function coverage({ summary, manifest }: ReportHtmlInput): string {
  let coverage: ReturnType<typeof runCoverage>;
  try {
    coverage = runCoverage(summary.tests, manifest.target.areas);
  } catch (error) {
    return `<h2 id="coverage">Coverage by spec section</h2><p class="muted">Coverage by section is not available: ${esc((error as Error).message)}</p>`;
  }
  const row = (r: SectionCoverage) =>
    `<tr><td>${r.section === 'all' ? '<b>all</b>' : `§${esc(r.section)}`}</td><td>${r.statements}</td><td>${r.checked}</td><td>${r.passed}</td><td>${r.untestable}</td><td>${r.pending}</td></tr>`;
  return `<h2 id="coverage">Coverage by spec section</h2><p class="muted">The spec's testable statements (specs/traceability.yaml) of each section: checked by a requirement; passed in this run (every test of every requirement that checks it passed: a waived one did not); not testable from outside; pending a check.${coverage.areas.length < AREAS.length ? ` Only the sections and statements of the mission's areas (${esc(coverage.areas.join(', '))}).` : ''}</p>
<table><tr><th>section</th><th>statements</th><th>checked</th><th>passed</th><th>not testable</th><th>pending</th></tr>${[...coverage.rows, coverage.total].map(row).join('')}</table>`;
}

const footer = `<h2>Checking this pack</h2><p>This report is one file of a certification pack. <code>npx partner-conformance certify verify &lt;pack folder&gt; --public-key certifier.pub.pem</code> (or <code>--thumbprint</code> with the thumbprint the certifier published) checks the signature of manifest.json and the SHA-256 of every file, and names any file that was altered.</p>`;

export function renderReportHtml(input: ReportHtmlInput): string {
  const anchors = new Map(input.summary.tests.map((t, i) => [t, anchorOf(t, i)]));
  const outcomes = input.manifest.verdict.requirements;
  const title = `${input.manifest.verdict.certifiable ? 'Certifiable' : 'Not certifiable'}: ${input.manifest.target.name}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}: certification report</title><style>${STYLE}${EXCHANGES_STYLE}</style></head>
<body>
${header(input)}
${counts(input)}
${facts(input)}
${waivers(input)}
${filters(input.summary.tests.filter(missionFilter(input.manifest.target.areas)))}
${failures(input, anchors)}
${requirementsBySection(input, outcomes, anchors)}
${coverage(input)}
${footer}
${exchangesData(input.summary.tests.filter(missionFilter(input.manifest.target.areas)), input.exchanges ?? new Map())}
<script>${SCRIPT}${EXCHANGES_SCRIPT}</script>
</body></html>
`;
}
