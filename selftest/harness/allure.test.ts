/**
 * allure-results/ from a run's records (harness/report/allure.ts): every verdict mapped onto Allure's
 * statuses as documented, with the verdict kept as a label; the requirement's labels and quote; each cited
 * exchange written once as an Allure HTTP exchange named by its HAR entry, and the curl lines; history ids
 * that stay the same from run to run; a run that did not start as one broken result. That Allure 3 turns
 * two nights of them into a report with history is shown by selftest/ci/nightly.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeAllureResults } from '../../harness/report/allure.ts';
import type { EvidenceOutput } from '../../harness/report/evidence.ts';
import { harText } from '../../harness/report/har.ts';
import { erroredSummary, type TestRecord } from '../../harness/report/records.ts';
import { quotesOf, requirement } from '../../harness/spec/requirements.ts';
import { failedRecord, record, summary } from '../certify/_records.ts';
import { tempDir } from '../helpers.ts';

interface Result {
  name: string;
  status: string;
  historyId: string;
  statusDetails: { message?: string; trace?: string };
  description: string;
  labels: Array<{ name: string; value: string }>;
  attachments: Array<{ name: string; type: string; source: string }>;
}

const entry = (id: string, status: number, path: string) =>
  JSON.stringify({
    _id: id,
    startedDateTime: '2026-01-01T00:00:00.000Z',
    time: 5,
    request: {
      method: 'POST',
      url: `http://127.0.0.1:1/insurance${path}`,
      httpVersion: 'HTTP/1.1',
      headers: [
        { name: 'authorization', value: 'Bearer ***' },
        { name: 'content-type', value: 'application/json' },
      ],
      queryString: [],
      postData: { mimeType: 'application/json', text: '{"contractId":"x"}' },
      bodySize: 18,
    },
    response: { status, httpVersion: 'HTTP/1.1', headers: [], content: { size: 2, mimeType: 'application/json', text: '{}' } },
  });

const EVIDENCE: EvidenceOutput = {
  index: { format: 'HAR 1.2', bodyCapBytes: 65536, files: [{ area: 'insurance', file: 'evidence/insurance.har', entries: 2, bytes: 0 }] },
  files: [
    {
      file: 'evidence/insurance.har',
      text: harText({ name: 't', version: '0' }, 'c', [entry('e1', 201, '/control'), entry('e2', 201, '/create')]),
    },
  ],
};

function written(dir: string): Result[] {
  const folder = join(dir, 'allure-results');
  return readdirSync(folder)
    .filter((f) => f.endsWith('-result.json'))
    .map((f) => JSON.parse(readFileSync(join(folder, f), 'utf8')) as Result);
}

const label = (r: Result, name: string) => r.labels.find((l) => l.name === name)?.value;
const cited = { evidence: ['evidence/insurance.har#e1', 'evidence/insurance.har#e2'], controls: ['evidence/insurance.har#e1'] };

const TESTS: TestRecord[] = [
  record('INS-LIM-001', { row: 'passed', ...cited }),
  failedRecord('INS-LIM-002', 'failed', cited),
  record('INS-LIM-003', { row: 'error', verdict: 'error', code: 'TARGET_TIMEOUT', message: 'TARGET_TIMEOUT: no answer within 15000 ms' }),
  record('INS-LIM-004', { row: 'skipped', verdict: 'skipped', code: 'CREDENTIAL_MISSING', skipReason: 'CREDENTIAL_MISSING: no token' }),
  record('INS-LIM-001', { row: 'inconclusive', verdict: 'inconclusive', code: 'NO_CONTROL', skipReason: 'NO_CONTROL: the control failed' }),
  record('INS-LIM-001', { row: 'warning', verdict: 'warning', warning: 'a policy reading was not met' }),
  failedRecord('INS-LIM-002', 'waived', {
    verdict: 'waived',
    waiver: { requirement: 'INS-LIM-002', reason: 'fix in 4.2', owner: 'qa', expires: '2099-01-01', entry: 1 },
  }),
];

describe('allure-results from the records', () => {
  const dir = tempDir('pc-allure-');
  writeAllureResults(dir, summary(TESTS), EVIDENCE);
  const results = written(dir);
  const byRow = (row: string) => results.find((r) => r.name.endsWith(row))!;

  it('maps every verdict as documented, and keeps the verdict itself as a label', () => {
    expect(results).toHaveLength(TESTS.length);
    const statuses = Object.fromEntries(
      ['passed', 'failed', 'error', 'skipped', 'inconclusive', 'warning', 'waived'].map((v) => [v, byRow(v).status]),
    );
    expect(statuses).toEqual({
      passed: 'passed',
      failed: 'failed',
      error: 'broken',
      skipped: 'skipped',
      inconclusive: 'skipped',
      warning: 'passed',
      waived: 'skipped',
    });
    for (const verdict of Object.keys(statuses)) expect(label(byRow(verdict), 'verdict')).toBe(verdict);
    expect(byRow('failed').statusDetails.message).toBe('Expected: rejected with one of 400, 422 / Received: accepted with 201');
    expect(byRow('failed').statusDetails.trace).toContain("Reproduce: curl -sS -i -X POST 'http://127.0.0.1:1/insurance/x'");
    expect(byRow('error').statusDetails.message).toBe('TARGET_TIMEOUT: no answer within 15000 ms');
    expect(label(byRow('error'), 'code')).toBe('TARGET_TIMEOUT');
    expect(byRow('inconclusive').statusDetails.message).toBe('inconclusive: NO_CONTROL: the control failed');
    expect(byRow('skipped').statusDetails.message).toBe('CREDENTIAL_MISSING: no token');
    expect(byRow('warning').statusDetails.message).toBe('warning (policy, not strict): a policy reading was not met');
    expect(byRow('waived').statusDetails.message).toMatch(/^waived: waiver 1 \(INS-LIM-002\), owner qa, until 2099-01-01: fix in 4.2$/);
    expect(byRow('waived').statusDetails.trace).toContain('Received: accepted with 201');
  });

  it("labels each result with its requirement, area, spec section and source, and quotes the spec's words", () => {
    const failed = byRow('failed');
    expect({
      requirement: label(failed, 'requirement'),
      area: label(failed, 'area'),
      section: label(failed, 'section'),
      source: label(failed, 'source'),
    }).toEqual({
      requirement: 'INS-LIM-002',
      area: 'insurance',
      section: '8',
      source: 'spec',
    });
    const quotes = quotesOf(requirement('INS-LIM-002'));
    expect(quotes.length).toBeGreaterThan(0);
    for (const quote of quotes) expect(failed.description).toContain(`> ${quote}`);
    expect(failed.description).toContain(requirement('INS-LIM-002').text);
  });

  it('attaches each exchange the test judged, written once and named by its HAR entry, the control marked, and the curl lines', () => {
    const folder = join(dir, 'allure-results');
    const exchanges = readdirSync(folder).filter((f) => f.endsWith('.httpexchange'));
    // Two tests cite the same two exchanges: two files.
    expect(exchanges).toHaveLength(2);
    for (const row of ['passed', 'failed']) {
      const [control, created, curl] = byRow(row).attachments;
      expect(control.name).toBe('evidence/insurance.har#e1 POST http://127.0.0.1:1/insurance/control → 201 (control)');
      expect(control.type).toBe('application/vnd.allure.http+json');
      expect(created.name).toBe('evidence/insurance.har#e2 POST http://127.0.0.1:1/insurance/create → 201');
      const exchange = JSON.parse(readFileSync(join(folder, created.source), 'utf8'));
      expect(exchange).toMatchObject({
        schemaVersion: 1,
        request: { method: 'POST', body: { value: '{"contractId":"x"}' } },
        response: { status: 201 },
      });
      expect(curl.type).toBe('text/plain');
      expect(readFileSync(join(folder, curl.source), 'utf8')).toContain(
        `curl -sS -i -X POST 'http://127.0.0.1:1/insurance/create' -H 'authorization: Bearer ***' -H 'content-type: application/json' --data-raw '{"contractId":"x"}'`,
      );
    }
    expect(byRow('error').attachments).toEqual([]);
  });

  it('gives a test the same history id in every run, and two tests of one title two ids', () => {
    const again = tempDir('pc-allure-');
    writeAllureResults(again, summary([...TESTS, TESTS[0]]), EVIDENCE);
    const ids = (rs: Result[]) => rs.map((r) => `${r.name} ${r.historyId}`).sort();
    const second = written(again);
    expect(ids(second)).toEqual(expect.arrayContaining(ids(results)));
    const twice = second.filter((r) => r.name === results.find((x) => x.name.endsWith('passed'))!.name);
    expect(new Set(twice.map((r) => r.historyId)).size).toBe(2);
  });

  it('writes a run that did not start as one broken result that says why', () => {
    const refused = tempDir('pc-allure-');
    writeAllureResults(
      refused,
      erroredSummary({ code: 'TARGET_FILE_INVALID', message: 'TARGET_FILE_INVALID: target.yaml: key "kind": must be one of …' }),
    );
    const [only, ...rest] = written(refused);
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ name: 'the run could not start', status: 'broken' });
    expect(only.statusDetails.message).toContain('TARGET_FILE_INVALID');
  });
});
