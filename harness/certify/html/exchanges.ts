/**
 * A test's exchanges in report.html: the HAR entries its record points at, embedded once each as data
 * (a JSON block the page never executes) and shown when the test's "exchanges" block is opened, written
 * as HTTP messages by the page's script with text nodes only (a target's bytes never become markup, and
 * their control characters are shown as escapes).
 * Each body is shown to `HTML_BODY_BYTES`; the whole recorded body (up to the run's cap) is in the
 * pack's HAR file, which the block names.
 */
import { printable } from '../../text/printable.ts';
import type { TestRecord } from '../../report/records.ts';
import { esc } from './html.ts';

/** Bodies shown in the page: enough to read an answer, small enough that a nightly pack's page stays light. */
export const HTML_BODY_BYTES = 4096;

type NameValue = { name: string; value: string };
interface HarEntryShape {
  startedDateTime?: string;
  time?: number;
  _error?: string;
  request?: { method?: string; url?: string; headers?: NameValue[]; postData?: { text?: string; comment?: string } };
  response?: { status?: number; headers?: NameValue[]; content?: { text?: string; comment?: string; size?: number } };
}

/** What the page's script renders of one exchange. */
interface ShownExchange {
  at: string;
  ms: number;
  request: string;
  response: string;
}

function shownBody(text: string | undefined, comment: string | undefined): string {
  if (!text) return '';
  const bytes = Buffer.from(text, 'utf8');
  const head =
    bytes.length > HTML_BODY_BYTES
      ? `${bytes.subarray(0, HTML_BODY_BYTES).toString('utf8')}…\n[the first ${HTML_BODY_BYTES} bytes are shown here; the HAR file holds the rest]`
      : text;
  return `\n\n${head}${comment ? `\n[${comment}]` : ''}`;
}

const headerLines = (headers: NameValue[] | undefined) => (headers ?? []).map((h) => `\n${h.name}: ${h.value}`).join('');

function shown(entry: HarEntryShape): ShownExchange {
  const q = entry.request ?? {};
  const r = entry.response ?? {};
  const request = `${q.method ?? '?'} ${q.url ?? '?'}${headerLines(q.headers)}${shownBody(q.postData?.text, q.postData?.comment)}`;
  const response =
    entry._error && !r.status
      ? `no answer: ${entry._error}`
      : `HTTP ${r.status}${headerLines(r.headers)}${shownBody(r.content?.text, r.content?.comment)}${entry._error ? `\n\n[${entry._error}]` : ''}`;
  // Shown with text nodes (never markup), yet a control character or a bidi override would still be obeyed.
  return { at: entry.startedDateTime ?? '', ms: Math.round(entry.time ?? 0), request: printable(request), response: printable(response) };
}

/** The data block: every exchange the listed tests point at, once, by reference. */
export function exchangesData(tests: readonly TestRecord[], entries: ReadonlyMap<string, unknown>): string {
  const data: Record<string, ShownExchange> = {};
  for (const t of tests) {
    for (const ref of t.evidence ?? []) {
      const entry = entries.get(ref);
      if (entry && !data[ref]) data[ref] = shown(entry as HarEntryShape);
    }
  }
  // `<` escaped, so that no text of an answer can close the block.
  return `<script type="application/json" id="evidence-data">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`;
}

/** The block under a test that shows its exchanges when opened (filled by the page's script). */
export function exchangesBlock(t: TestRecord): string {
  const refs = t.evidence ?? [];
  if (!refs.length) return '';
  const files = [...new Set(refs.map((ref) => ref.split('#')[0]))].join(', ');
  return `<details class="exchanges" data-evidence="${esc(refs.join(' '))}" data-controls="${esc((t.controls ?? []).join(' '))}"><summary>exchanges (${refs.length}${t.controls?.length ? `, ${t.controls.length} control` : ''}): what this test sent and got, in ${esc(files)}</summary><div class="exchange-list"></div></details>`;
}

export const EXCHANGES_STYLE = `
.exchanges { margin: 4px 0; }
.exchanges > summary { cursor: pointer; color: var(--muted); }
.exchange { border-left: 3px solid var(--line); padding-left: 8px; margin: 6px 0; }
.exchange.control { border-left-color: var(--ok); }
.exchange .head { font-weight: 600; }
`;

/** Renders a test's exchanges the first time its block opens; text nodes only. */
export const EXCHANGES_SCRIPT = `
(function () {
  var block = document.getElementById('evidence-data');
  var data = block ? JSON.parse(block.textContent) : {};
  function line(cls, text) { var el = document.createElement('div'); el.className = cls; el.textContent = text; return el; }
  function pre(text) { var el = document.createElement('pre'); el.textContent = text; return el; }
  document.addEventListener('toggle', function (event) {
    var details = event.target;
    if (!details.classList || !details.classList.contains('exchanges') || !details.open || details.dataset.shown) return;
    details.dataset.shown = '1';
    var list = details.querySelector('.exchange-list');
    var controls = (details.dataset.controls || '').split(' ');
    (details.dataset.evidence || '').split(' ').forEach(function (ref) {
      var x = data[ref];
      var item = document.createElement('div');
      var control = controls.indexOf(ref) >= 0;
      item.className = 'exchange' + (control ? ' control' : '');
      if (!x) { item.appendChild(line('head', ref + ': not in this report')); list.appendChild(item); return; }
      item.appendChild(line('head', (control ? 'control · ' : '') + ref + ' · ' + x.at + ' · ' + x.ms + ' ms'));
      item.appendChild(pre(x.request));
      item.appendChild(pre(x.response));
      list.appendChild(item);
    });
  }, true);
})();
`;
