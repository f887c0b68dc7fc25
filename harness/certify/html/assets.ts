/**
 * The style and the script of report.html, inlined into the page: the report is one file that opens from
 * disk with no server and no network (its Content-Security-Policy allows nothing to be fetched).
 * The script only filters: every test carries data-area and data-verdict; a container (a requirement,
 * a root-cause group, a section) hides when none of its tests is shown.
 */

export const STYLE = `
:root { --ok: #1a7f37; --ko: #cf222e; --warn: #9a6700; --muted: #57606a; --line: #d0d7de; --bg: #f6f8fa; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1200px; padding: 0 16px 48px; color: #1f2328; }
h1 { margin: 0; font-size: 28px; letter-spacing: .02em; }
h2 { margin-top: 32px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { margin: 20px 0 8px; }
code, pre { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; white-space: pre-wrap; word-break: break-word; margin: 6px 0; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--bg); }
.verdict { border-radius: 8px; padding: 16px 20px; margin: 16px 0; color: #fff; }
.verdict.ok { background: var(--ok); }
.verdict.ko { background: var(--ko); }
.verdict.none { background: var(--muted); }
.verdict p, .verdict li { margin: 4px 0; }
.verdict ul { margin: 8px 0 0; padding-left: 20px; }
.facts { color: #fff; opacity: .95; }
.counts td { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; border: 1px solid var(--line); background: #fff; color: #1f2328; white-space: nowrap; }
.v-passed { background: #dafbe1; border-color: #aceebb; }
.v-failed, .v-error { background: #ffebe9; border-color: #ffcecb; color: var(--ko); font-weight: 600; }
.v-waived, .v-warning { background: #fff8c5; border-color: #eed888; }
.v-skipped, .v-inconclusive, .v-not-checked, .v-out-of-scope { background: var(--bg); color: var(--muted); }
.src { background: #ddf4ff; border-color: #b6e3ff; }
.blocking { font-weight: 600; }
#filters { position: sticky; top: 0; background: #fff; border-bottom: 1px solid var(--line); padding: 8px 0; z-index: 1; }
#filters fieldset { display: inline-block; border: 1px solid var(--line); border-radius: 6px; margin: 0 8px 4px 0; padding: 2px 8px; }
#filters label { margin-right: 10px; white-space: nowrap; }
#filters button { margin-left: 4px; }
.failure, .group, .req { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; margin: 8px 0; }
.group { border-color: #ffcecb; }
.group > .failure { margin-left: 12px; }
.req > summary { cursor: pointer; }
.test { border-top: 1px dashed var(--line); padding: 4px 0; }
.why { color: var(--muted); }
.waiver { background: #fff8c5; border: 1px solid #eed888; border-radius: 6px; padding: 4px 8px; margin: 4px 0; }
.muted { color: var(--muted); }
.basis { border-left: 3px solid #b6e3ff; margin: 6px 0; padding: 2px 10px; }
.basis.ours { border-left-color: #eed888; }
.basis q { display: inline-block; margin: 2px 0; }
.basis .reading { margin: 2px 0; }
[hidden] { display: none !important; }
`;

export const SCRIPT = `
(function () {
  var boxes = Array.prototype.slice.call(document.querySelectorAll('#filters input[type=checkbox]'));
  function chosen(kind) {
    var set = {};
    boxes.forEach(function (b) { if (b.dataset.kind === kind && b.checked) set[b.value] = true; });
    return set;
  }
  function apply() {
    var areas = chosen('area'), verdicts = chosen('verdict'), shown = 0, total = 0;
    document.querySelectorAll('[data-test]').forEach(function (el) {
      var visible = !!areas[el.dataset.area] && !!verdicts[el.dataset.verdict];
      el.hidden = !visible;
      if (el.dataset.count !== undefined) { total++; if (visible) shown++; }
    });
    document.querySelectorAll('[data-container]').forEach(function (c) {
      c.hidden = !c.querySelector('[data-test]:not([hidden])');
    });
    document.getElementById('shown').textContent = 'showing ' + shown + ' of ' + total + ' tests';
  }
  boxes.forEach(function (b) { b.addEventListener('change', apply); });
  document.querySelectorAll('#filters button[data-set]').forEach(function (button) {
    button.addEventListener('click', function () {
      var kind = button.dataset.kind, value = button.dataset.set;
      boxes.forEach(function (b) {
        if (b.dataset.kind !== kind) return;
        b.checked = value === 'all' || (value === 'problems' && ['failed', 'error', 'waived', 'warning', 'inconclusive', 'skipped'].indexOf(b.value) >= 0);
      });
      apply();
    });
  });
  apply();
})();
`;
