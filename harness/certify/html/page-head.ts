/**
 * The parts of report.html that differ between a run and a certification: the heading (a run's outcome,
 * or the certification verdict and why), the table of facts about the run, and the footer. A run's page
 * says what its closing lines say; a certification's adds the signed verdict, the suite and the spec it
 * was checked against (manifest.json).
 */
import type { Area } from '../../areas.ts';
import { AREAS } from '../../areas.ts';
import type { RunSummary } from '../../report/records.ts';
import { exitCodeOf, interruptionOf, nothingCheckedReason } from '../../report/records.ts';
import { closingLines } from '../../report/text.ts';
import { depthOf } from '../../runner/depth.ts';
import type { ManifestInput } from '../manifest.ts';
import { esc } from './html.ts';

export interface ReportHtmlInput {
  summary: RunSummary;
  /** Set for a certification pack: its manifest, with the verdict. Absent for the report of a run. */
  manifest?: ManifestInput;
  /** The run's HAR entries by reference (`<file>#<_id>`), for the tests' exchanges. */
  exchanges?: ReadonlyMap<string, unknown>;
}

/** The areas the page is about: a certification's mission, or the areas the run checked. */
export const scopeOf = ({ summary, manifest }: ReportHtmlInput): readonly Area[] =>
  (manifest?.target.areas ?? summary.areas ?? AREAS) as readonly Area[];

/** A run's outcome as its heading says it, from the same exit code the command line returns. */
function runOutcome(summary: RunSummary): { title: string; cls: string } {
  if (summary.status === 'errored') return { title: 'THE RUN DID NOT START', cls: 'ko' };
  if (summary.status === 'interrupted') return { title: 'INTERRUPTED', cls: 'none' };
  const code = exitCodeOf(summary);
  if (code === 0) return { title: 'PASSED', cls: 'ok' };
  if (code === 1) return { title: 'FAILED', cls: 'ko' };
  return nothingCheckedReason(summary) ? { title: 'NOTHING CHECKED', cls: 'none' } : { title: 'TOOL ERRORS', cls: 'ko' };
}

function runHeader(summary: RunSummary, scope: readonly Area[]): string {
  const outcome = runOutcome(summary);
  const lines = [
    ...(summary.status === 'interrupted' ? [interruptionOf(summary) ?? 'interrupted'] : []),
    ...(summary.status === 'errored' ? [`the run could not start: ${summary.error?.message ?? 'unknown error'}`] : []),
    ...[nothingCheckedReason(summary)].filter((l): l is string => !!l),
    ...closingLines(summary),
  ];
  return `<header class="verdict ${outcome.cls}" id="verdict">
<h1>${outcome.title}</h1>
<p class="facts">Target <b>${esc(summary.target?.name ?? '?')}</b> (kind ${esc(summary.target?.kind ?? '?')}; areas ${esc(scope.join(', ') || 'none')}) ·
run ${esc(summary.startedAt ?? '?')} to ${esc(summary.generatedAt)} · seed ${esc(summary.seed ?? '?')} · ${esc(summary.runs ?? '?')} runs per property</p>
<ul>${lines.map((l) => `<li>${esc(l)}</li>`).join('')}</ul>
</header>
<p class="muted">The report of one run, from conformance.json beside it. A waived failure is not a pass; skipped and inconclusive tests checked nothing. <code>npm run certify</code> makes a signed certification pack.</p>`;
}

function certificationHeader({ summary }: ReportHtmlInput, manifest: ManifestInput): string {
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

export function pageHeader(input: ReportHtmlInput): string {
  return input.manifest ? certificationHeader(input, input.manifest) : runHeader(input.summary, scopeOf(input));
}

/** The page's title. */
export function pageTitle({ summary, manifest }: ReportHtmlInput): string {
  return manifest
    ? `${manifest.verdict.certifiable ? 'Certifiable' : 'Not certifiable'}: ${manifest.target.name}: certification report`
    : `${runOutcome(summary).title.toLowerCase()}: ${summary.target?.name ?? '?'}: conformance report`;
}

function documentsFetched(summary: RunSummary): string {
  const documents = summary.documents ?? [];
  if (!documents.length) return 'none';
  return documents
    .map(
      (d) =>
        `${esc(d.url)} <code>${esc(d.sha256)}</code> (${d.bytes} bytes)${d.withheld ? `<br><span class="muted">withheld: ${esc(d.withheld)}</span>` : d.note ? `<br><span class="muted">${esc(d.note)}</span>` : ''}`,
    )
    .join('<br>');
}

function runRows(summary: RunSummary, scope: readonly Area[]): Array<[string, string]> {
  const t = summary.target;
  return [
    [
      'target',
      t
        ? `${esc(t.name)}, kind ${esc(t.kind)}, vendor conventions ${t.vendorConventions ? 'on' : 'off'}, policy ${t.strictPolicy ? 'strict (failures)' : 'warnings'}`
        : 'unknown',
    ],
    ['areas', esc(scope.join(', ') || 'none')],
    ['documents fetched', documentsFetched(summary)],
    ['waivers', summary.waivers ? esc(summary.waivers.file) : 'none'],
    ['started / generated', `${esc(summary.startedAt ?? '?')} / ${esc(summary.generatedAt)}`],
    [
      'seed / depth',
      `${esc(summary.seed ?? '?')} / ${esc(summary.runs ? depthOf(summary.runs) : '?')}, ${esc(summary.runs ?? '?')} runs per property (reproduce with --seed and CONFORMANCE_RUNS)`,
    ],
    ...(summary.mergedFrom ? [['merged from', summary.mergedFrom.map(esc).join('<br>')] as [string, string]] : []),
  ];
}

function certificationRows({ summary }: ReportHtmlInput, manifest: ManifestInput): Array<[string, string]> {
  const spec = manifest.spec;
  return [
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
    ['documents fetched', documentsFetched(summary)],
    ['waivers', manifest.waivers ? `${esc(manifest.waivers.file)} <code>${esc(manifest.waivers.sha256)}</code>` : 'none'],
    ['started / ended', `${esc(manifest.run.startedAt)} / ${esc(manifest.run.endedAt)}`],
    [
      'seed / depth',
      `${esc(manifest.run.seed ?? '?')} / ${esc(manifest.run.depth)}, ${esc(manifest.run.runs ?? '?')} runs per property (reproduce with CONFORMANCE_SEED and CONFORMANCE_RUNS)`,
    ],
    ['certified by', esc(manifest.certifiedBy ?? 'not stated')],
  ];
}

/** The table of facts about the run. */
export function runFacts(input: ReportHtmlInput): string {
  const rows = input.manifest ? certificationRows(input, input.manifest) : runRows(input.summary, scopeOf(input));
  return `<h2>Run</h2><table id="run">${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${v}</td></tr>`).join('')}</table>`;
}

export function pageFooter({ manifest }: ReportHtmlInput): string {
  return manifest
    ? `<h2>Checking this pack</h2><p>This report is one file of a certification pack. <code>npx partner-conformance certify verify &lt;pack folder&gt; --public-key certifier.pub.pem</code> (or <code>--thumbprint</code> with the thumbprint the certifier published) checks the signature of manifest.json and the SHA-256 of every file, and names any file that was altered.</p>`
    : `<h2>The files of this report</h2><p>This page is rendered from <code>conformance.json</code> of the same folder (every test, every message whole); <code>conformance.md</code> says the same for people and <code>junit.xml</code> for CI dashboards; <code>evidence/&lt;area&gt;.har</code> holds every exchange of the run (HAR 1.2, for a browser's developer tools), each body whole up to its cap where this page shows its start.</p>`;
}
