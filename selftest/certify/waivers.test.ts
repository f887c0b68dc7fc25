/** Waivers: the file's validation, where it is found, and what a waiver does to failures and to the reports. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../harness/report/junit.ts';
import { mergeSummaries } from '../../harness/report/merge.ts';
import { exitCodeOf, summaryOf } from '../../harness/report/records.ts';
import { closingLines, renderMarkdown, renderText } from '../../harness/report/text.ts';
import { loadWaiverFile, waiverFileOf } from '../../harness/report/waiver-file.ts';
import { applyWaivers, rowOf, rowPattern } from '../../harness/report/waivers.ts';
import { ROOT, tempDir } from '../helpers.ts';
import { failedRecord, record, summary } from './_records.ts';

function waiverFile(content: string, dir = tempDir(), name = 'waivers.yaml'): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const ENTRY = '  - { requirement: INS-LIM-003, reason: "fix in release 4.2 (TICKET-1)", owner: "partner QA", expires: 2099-12-31 }\n';
const waiver = (patch: Record<string, unknown> = {}) => ({
  requirement: 'INS-LIM-003',
  reason: 'known',
  owner: 'qa',
  expires: '2099-12-31',
  entry: 1,
  ...patch,
});

describe('the waiver file', () => {
  it('loads valid entries, numbered from 1, with the hash of the file', () => {
    const file = loadWaiverFile(
      waiverFile(
        `waivers:\n${ENTRY}  - { requirement: INS-LIM-001, row: "contractId of 1*", reason: r, owner: o, expires: "2020-01-01" }\n`,
      ),
    );
    expect(file.waivers).toEqual([
      { requirement: 'INS-LIM-003', reason: 'fix in release 4.2 (TICKET-1)', owner: 'partner QA', expires: '2099-12-31', entry: 1 },
      { requirement: 'INS-LIM-001', row: 'contractId of 1*', reason: 'r', owner: 'o', expires: '2020-01-01', entry: 2 },
    ]);
    expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['waivers: [', 'not valid YAML'],
    ['[]', '(top level): must be object'],
    ['waivers:\n  - { requirement: INS-LIM-003, reason: r, expires: 2099-12-31 }\n', "entry 1: must have required property 'owner'"],
    [
      'waivers:\n  - { requirement: INS-LIM-003, reason: r, owner: o, expires: 31.12.2099 }\n',
      'entry 1.expires: must be a date, yyyy-mm-dd',
    ],
    ['waivers:\n  - { requirement: INS-LIM-003, reason: r, owner: o, expires: 2099-12-31, until: x }\n', 'entry 1: unknown key "until"'],
    [
      `waivers:\n${ENTRY}  - { requirement: INS-XXX-999, reason: r, owner: o, expires: 2099-12-31 }\n`,
      'entry 2: requirement INS-XXX-999 is not in specs/requirements.yaml',
    ],
    ['waivers:\n  - { requirement: ins-lim-003, reason: r, owner: o, expires: 2099-12-31 }\n', 'entry 1.requirement: must match pattern'],
  ])('refuses %j with a short message naming the file and the entry', (content, message) => {
    const path = waiverFile(content);
    const oneLine = expect.stringMatching(
      new RegExp(
        `^TARGET_FILE_INVALID: waiver file ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: [^\n]*${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\n]*$`,
      ),
    );
    expect(() => loadWaiverFile(path)).toThrow(expect.objectContaining({ code: 'TARGET_FILE_INVALID', message: oneLine }));
  });

  it('reads at most 1 MiB of a waiver file: a huge one ends in one short line', () => {
    const path = waiverFile(`waivers: []\n# ${'x'.repeat(2 * 1024 * 1024)}\n`);
    expect(() => loadWaiverFile(path)).toThrow(
      expect.objectContaining({
        code: 'TARGET_FILE_INVALID',
        message: expect.stringMatching(/^TARGET_FILE_INVALID: waiver file .*: is larger than 1 MiB; a waiver file is a few kilobytes$/),
      }),
    );
  });

  it('examples/waivers.example.yaml is a valid waiver file', () => {
    expect(loadWaiverFile(join(ROOT, 'examples', 'waivers.example.yaml')).waivers.map((w) => w.requirement)).toEqual([
      'INS-LIM-003',
      'BUS-RUN-004',
    ]);
  });

  it("is found from CONFORMANCE_WAIVERS, else the target file's waivers key, else waivers.yaml beside the target file", () => {
    const dir = tempDir();
    const target = join(dir, 'target.yaml');
    writeFileSync(target, 'name: t\nkind: staging\nservices: {}\n');
    expect(waiverFileOf(target, {})).toBeUndefined();
    const beside = waiverFile(`waivers:\n${ENTRY}`, dir);
    expect(waiverFileOf(target, {})).toBe(beside);
    writeFileSync(target, 'name: t\nkind: staging\nwaivers: accepted/partner.yaml\nservices: {}\n');
    expect(waiverFileOf(target, {})).toBe(join(dir, 'accepted', 'partner.yaml'));
    expect(waiverFileOf(target, { CONFORMANCE_WAIVERS: '/elsewhere/w.yaml' })).toBe('/elsewhere/w.yaml');
    expect(waiverFileOf(undefined, {})).toBeUndefined();
  });
});

describe('applying waivers', () => {
  const failing = failedRecord('INS-LIM-003', 'surrender array of 1000 item(s) is accepted');
  const TODAY = '2026-06-30';

  it('a waiver in force turns the matching contract failure into waived (not passed), and counts it apart', () => {
    const { tests, uses } = applyWaivers([failing, record('INS-LIM-001')], [waiver()], TODAY);
    expect(tests[0]).toMatchObject({ verdict: 'waived', waiver: waiver() });
    expect(tests[1].verdict).toBe('passed');
    expect(uses).toEqual([{ ...waiver(), status: 'applied', tests: [failing.title] }]);
    const s = summaryOf(tests, {});
    expect(s.counts).toMatchObject({ passed: 1, failed: 0, contractFailures: 0, waived: 1, total: 2 });
    expect(exitCodeOf(s)).toBe(0);
  });

  it('holds through its expiry day (UTC) and no longer waives the day after, saying so', () => {
    expect(applyWaivers([failing], [waiver({ expires: TODAY })], TODAY).tests[0].verdict).toBe('waived');
    const { tests, uses } = applyWaivers([failing], [waiver({ expires: '2026-06-29' })], TODAY);
    expect(tests[0]).toMatchObject({ verdict: 'failed', waiverExpired: true });
    expect(uses[0]).toMatchObject({ status: 'expired', tests: [failing.title] });
    expect(exitCodeOf(summaryOf(tests, {}))).toBe(1);
  });

  it('a waiver that matched no failure is unused, also when its requirement passed', () => {
    const { uses } = applyWaivers([record('INS-LIM-003')], [waiver()], TODAY);
    expect(uses[0]).toMatchObject({ status: 'unused', tests: [] });
  });

  it('waives only contract failures: never a tool error, a skip or a policy warning', () => {
    const others = [
      record('INS-LIM-003', { row: 'a', verdict: 'error', code: 'TARGET_TIMEOUT' }),
      record('INS-LIM-003', { row: 'b', verdict: 'skipped', code: 'SAFETY_REFUSED' }),
      record('INS-LIM-003', { row: 'c', verdict: 'warning' }),
    ];
    const { tests, uses } = applyWaivers(others, [waiver()], TODAY);
    expect(tests.map((t) => t.verdict)).toEqual(['error', 'skipped', 'warning']);
    expect(uses[0].status).toBe('unused');
  });

  it('a row pattern narrows the waiver to the rows it matches; * is any run, everything else literal', () => {
    const other = failedRecord('INS-LIM-003', 'surrender array of 0 item(s) is rejected');
    const { tests } = applyWaivers([failing, other], [waiver({ row: 'surrender array of 1000*' })], TODAY);
    expect(tests.map((t) => t.verdict)).toEqual(['waived', 'failed']);
    expect(rowOf(failing)).toBe('surrender array of 1000 item(s) is accepted');
    expect(rowPattern('a (b)*').test('a (b) c')).toBe(true);
    expect(rowPattern('a (b)*').test('a b c')).toBe(false);
    expect(rowPattern('1000').test('surrender array of 1000')).toBe(false);
  });

  it('the reports show a waived failure as waived with its waiver, and list expired and unused waivers', () => {
    const expired = failedRecord('INS-LIM-001', 'contractId of 128 characters is accepted');
    const { tests, uses } = applyWaivers(
      [failing, expired],
      [waiver(), waiver({ requirement: 'INS-LIM-001', expires: '2020-01-01', entry: 2 }), waiver({ requirement: 'INS-LIM-002', entry: 3 })],
      TODAY,
    );
    const s = { ...summary(tests), waivers: { file: 'waivers.yaml', uses } };
    const text = renderText(s);
    expect(closingLines(s)).toEqual(['conformance: 0 passed, 1 failed, 0 skipped', 'waived: 1 (waivers.yaml; not passes)']);
    expect(text).toContain(`  ~ ${failing.title}\n      waiver 1 (INS-LIM-003), owner qa, until 2099-12-31: known`);
    expect(text).toContain('(its waiver 2 (INS-LIM-001), owner qa, until 2020-01-01: known has expired)');
    expect(text).toContain('  ! expired, no longer waives (1 failure(s) it matched fail again): waiver 2');
    expect(text).toContain('  ? unused, matched no failure: waiver 3 (INS-LIM-002)');
    const md = renderMarkdown(s);
    expect(md).toContain('## Waived failures (1)');
    expect(md).toContain('Expected: rejected with one of 400, 422');
    expect(md).toContain('| 3 | unused | INS-LIM-002 | all | qa | 2099-12-31 | known | 0 |');
    const junit = renderJunit(s);
    expect(junit).toContain('<skipped message="waived: waiver 1 (INS-LIM-003), owner qa, until 2099-12-31: known"/>');
    expect(junit).toMatch(/failures="1" errors="0" skipped="1"/);
    expect(junit).toContain('Expired: waiver 2 (INS-LIM-001)');
  });

  it('merging shards joins what each waiver matched in any shard: applied in one shard is applied', () => {
    const shard = (tests: ReturnType<typeof record>[]) => {
      const applied = applyWaivers(tests, [waiver(), waiver({ requirement: 'INS-LIM-001', entry: 2 })], TODAY);
      return { ...summary(applied.tests), waivers: { file: 'waivers.yaml', uses: applied.uses } };
    };
    const merged = mergeSummaries([
      { path: 'a', summary: shard([failing]) },
      { path: 'b', summary: shard([record('INS-LIM-001')]) },
    ]);
    expect(merged.waivers?.uses.map((u) => [u.entry, u.status, u.tests.length])).toEqual([
      [1, 'applied', 1],
      [2, 'unused', 0],
    ]);
    expect(merged.counts.waived).toBe(1);
  });
});
