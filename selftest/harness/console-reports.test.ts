/**
 * What a person reads of a run, item by item: a curl line that reads as the request means (the identity
 * suite's fresh client_id bytes decoded, and it says so), a root cause named in words, a document kept
 * unless a credential of the target file is in it, coverage of the areas the run checked only, one
 * verdict per test that cannot be misread (summary@3; a summary@2 still reads), per-file counts in the
 * closing line's terms, and a progress line that says it is still collecting until the total is known.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { curlOf, decodeUnreserved } from '../../harness/curl.ts';
import { Redactor } from '../../harness/redact.ts';
import { fileCounts } from '../../harness/report/console-reporter.ts';
import { statementsOfAreas } from '../../harness/report/coverage.ts';
import { fetchedDocuments, recordFetchedDocument } from '../../harness/report/fetched-documents.ts';
import { readSummary } from '../../harness/report/merge.ts';
import ProgressReporter from '../../harness/report/progress-reporter.ts';
import { SUMMARY_FORMAT } from '../../harness/report/records.ts';
import { rootCauseOf } from '../../harness/report/root-cause.ts';
import { coverageMarkdown } from '../../harness/report/text.ts';
import { requirements } from '../../harness/requirements.ts';
import { freshlyEncoded } from '../../harness/identity/requests.ts';
import { cannedResponse, tempDir } from '../helpers.ts';
import { record, summary } from '../certify/_records.ts';

describe('curl lines', () => {
  it("show the identity suite's fresh client_id bytes decoded, and say so", () => {
    const body = `client_id=${freshlyEncoded('partner-client.01_~x')}&client_secret=s%21`;
    expect(body).not.toContain('client_id=partner-client.01_~x&');
    const line = curlOf({
      method: 'POST',
      url: 'https://x.test/userinfo',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      bodyText: body,
    });
    expect(line).toContain("--data-raw 'client_id=partner-client.01_~x&client_secret=s%21'");
    expect(line).toMatch(
      / {2}# letters, digits and -\._~ the request percent-encoded are shown decoded \(the same request; its exact bytes are in the evidence\)$/,
    );
  });

  it('leave what is not equivalent decoded as it was: a JSON body, a reserved character, a dot in a URL', () => {
    const json = curlOf({
      method: 'POST',
      url: 'https://x.test/a%2E%2E/b',
      headers: { 'content-type': 'application/json' },
      bodyText: '{"a":"%41"}',
    });
    expect(json).toBe(`curl -sS -i -X POST 'https://x.test/a%2E%2E/b' -H 'content-type: application/json' --data-raw '{"a":"%41"}'`);
    expect(decodeUnreserved('%41%7a%30%2D%2e%5F%7E%20%2F%40%25')).toBe('Az0-._~%20%2F%40%25');
  });
});

describe('a root cause', () => {
  it('is named by the request, the status and the start of the body; the key groups the same answer', () => {
    const res = cannedResponse(200, { createdAt: '2026-01-01T00:00:00Z', token: 'x' });
    res.request = { method: 'POST', url: 'https://x.test/create?tenant=a', headers: {} };
    const cause = rootCauseOf(res, (t) => new Redactor().redact(t))!;
    expect(cause.about).toBe('POST https://x.test/create answered 200 with {"createdAt":"2026-01-01T00:00:00Z","token":"***"}');
    expect(cause.key).toMatch(/^[0-9a-f]{16}$/);
    expect(rootCauseOf({ ...res, rawBody: '{}' }, (t) => t)!.key).not.toBe(cause.key);
    expect(rootCauseOf({ ...res, rawBody: '' }, (t) => t)!.about).toMatch(/answered 200 with an empty body$/);
  });
});

describe('a fetched document', () => {
  const doc =
    'openapi: 3.0.3\nexamples:\n  callback: https://partner.example/cb?token=sample-token-123\n  jwt: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln\n';

  it('is kept as served when it holds no credential of the target file, and the report says why its sample tokens stay', () => {
    const dir = tempDir('pc-fetched-');
    const redactor = new Redactor();
    redactor.register('the-real-partner-token');
    recordFetchedDocument('https://x.test/openapi.yaml', doc, 'application/yaml', redactor, dir);
    const [entry] = fetchedDocuments(dir);
    expect(entry.file).not.toBe('');
    expect(readFileSync(join(dir, entry.file), 'utf8')).toBe(doc);
    expect(entry.withheld).toBeUndefined();
    expect(entry.note).toMatch(
      /^kept as served: values shaped like credentials in it .* are samples of the document, none of them a credential of the target file$/,
    );
  });

  it('is withheld, with its hash, when a credential of the target file is in it in any encoding', () => {
    const dir = tempDir('pc-fetched-');
    const redactor = new Redactor();
    redactor.register('the-real-partner-token');
    recordFetchedDocument(
      'https://x.test/openapi.yaml',
      `${doc}  leaked: ${Buffer.from('Bearer the-real-partner-token').toString('base64')}\n`,
      'application/yaml',
      redactor,
      dir,
    );
    const [entry] = fetchedDocuments(dir);
    expect(entry.file).toBe('');
    expect(entry.withheld).toBe(
      'the bytes contain a credential of the target file (a value the target file gives as a secret); only their hash is kept',
    );
    expect(entry.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('coverage of a run of one area', () => {
  it('lists the sections and statements of that area only, judged by its requirements', () => {
    const registry = requirements();
    const statements = statementsOfAreas(['insurance']);
    expect(statements.length).toBeGreaterThan(10);
    for (const s of statements) for (const id of s.requirements) expect(registry.get(id)?.area).toBe('insurance');
    const sections = new Set(statements.map((s) => s.section));
    expect(sections.has('4.4')).toBe(true);
    expect(sections.has('2.1')).toBe(false);
    const md = coverageMarkdown(summary([record('INS-LIM-001')])).join('\n');
    expect(md).toContain('Only the sections and statements of the areas this run checked (insurance).');
    expect(md).not.toContain('| 2.1 |');
    expect(md).toContain('| 4.4 |');
  });
});

describe('a test record', () => {
  it('has one verdict and no state (summary@3); a summary@2 reads as one, its state dropped', () => {
    const now = summary([record('INS-LIM-001', { verdict: 'warning', warning: 'w' })]);
    expect(now.format).toBe(SUMMARY_FORMAT);
    expect(now.tests[0]).not.toHaveProperty('state');
    const dir = tempDir('pc-summary2-');
    mkdirSync(dir, { recursive: true });
    const old = {
      ...now,
      format: 'partner-conformance/summary@2',
      tests: [{ ...now.tests[0], state: 'passed', rootCause: 'POST /x → 200 #c22066e6921ef95e' }],
      rootCauses: [{ key: 'k', tests: ['a', 'b'] }],
    };
    writeFileSync(join(dir, 'conformance.json'), JSON.stringify(old));
    const read = readSummary(dir);
    expect(read.format).toBe(SUMMARY_FORMAT);
    expect(read.tests[0]).not.toHaveProperty('state');
    expect(read.tests[0]).toMatchObject({ verdict: 'warning', rootCauseKey: 'POST /x → 200 #c22066e6921ef95e' });
    expect(read.rootCauses[0].about).toBe('k');
  });
});

describe('the console during a run', () => {
  it('counts a file as the closing line does: warnings apart, tool errors failed, inconclusive skipped', () => {
    const verdicts = ['passed', 'passed', 'warning', 'failed', 'error', 'inconclusive', 'skipped'].map((verdict) => ({ verdict }));
    expect(fileCounts(verdicts)).toBe('7 tests: 2 passed, 2 failed, 2 skipped, 1 warning');
  });

  it('says it is collecting until every file is collected, then gives the total', () => {
    const progress = new ProgressReporter();
    progress.onTestRunStart([{}, {}] as never);
    expect(progress.line()).toBe('0 tests done; collecting: 0 of 2 files, 0 tests so far');
    const module = (n: number) => ({ children: { allTests: () => Array.from({ length: n }, () => ({})) } }) as never;
    progress.onTestModuleCollected(module(3));
    expect(progress.line()).toBe('0 tests done; collecting: 1 of 2 files, 3 tests so far');
    progress.onTestModuleCollected(module(5));
    expect(progress.line()).toBe('0/8 tests (0%)');
  });
});
