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
import { curlOf, decodeUnreserved } from '../../harness/secrets/curl.ts';
import { Redactor } from '../../harness/secrets/redact.ts';
import { fileCounts } from '../../harness/report/console-reporter.ts';
import { statementsOfAreas } from '../../harness/report/coverage.ts';
import { fetchedDocuments, recordFetchedDocument } from '../../harness/report/fetched-documents.ts';
import { readSummary } from '../../harness/report/merge.ts';
import ProgressReporter from '../../harness/report/progress-reporter.ts';
import { exitCodeOf, nothingCheckedReason, SUMMARY_FORMAT, type RunSummary } from '../../harness/report/records.ts';
import { renderJunit } from '../../harness/report/junit.ts';
import { rootCauseOf } from '../../harness/report/root-cause.ts';
import { closingLines, coverageMarkdown, defectsLine, renderMarkdown } from '../../harness/report/text.ts';
import { dependencyProblems, requirements } from '../../harness/spec/requirements.ts';
import { failure } from '../../harness/checks/failure.ts';
import { settleDependencies } from '../../harness/report/dependencies.ts';
import { freshlyEncoded } from '../../harness/identity/requests.ts';
import { tempDir } from '../helpers.ts';
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
  const status = (requirement: string, received: number) => failure(requirement, 'status 201', `status ${received}`);

  it('is the defect in words: the requirement, what was expected and what came, never a body or a hash', () => {
    const cause = rootCauseOf([status('INS-STA-001', 200)], { requirement: 'INS-LIM-001', words: '' }, (t) => t);
    expect(cause).toEqual({
      key: 'INS-STA-001\n\nstatus 201',
      about: 'INS-STA-001: expected status 201, received status 200',
      requirement: 'INS-STA-001',
    });
  });

  it('groups the same expectation broken at the same field of any item, whatever the values received', () => {
    const at = (n: number, value: string) =>
      rootCauseOf(
        [failure('INS-RSP-001', 'must be number', value, `/surrender/${n}/surrenderPercent`)],
        { requirement: 'INS-RSP-001', words: '' },
        (t) => t,
      );
    expect(at(0, '"5.5"').key).toBe(at(7, '"1"').key);
    expect(at(0, '"5.5"').about).toBe('INS-RSP-001 at /surrender/*/surrenderPercent: expected must be number, received "5.5"');
    expect(at(0, '"5.5"').key).not.toBe(
      rootCauseOf(
        [failure('INS-RSP-001', 'must be integer', '"1"', '/surrender/0/id')],
        { requirement: 'INS-RSP-001', words: '' },
        (t) => t,
      ).key,
    );
  });

  it('of a failure without failures as data (a property, a thrown error) is its first line under the requirement', () => {
    const cause = rootCauseOf([], { requirement: 'SPE-GEN-001', words: '\n  a signed call was refused with 401\n  Case: …' }, (t) => t);
    expect(cause.about).toBe('SPE-GEN-001: a signed call was refused with 401');
  });
});

describe('dependencies between requirements', () => {
  const dependent = (requirement: string, on: string) =>
    record(requirement, {
      verdict: 'inconclusive',
      code: 'DEPENDENCY_FAILED',
      dependsOn: on,
      skipReason: `DEPENDENCY_FAILED: depends on ${on} (…), which failed here: ${on}: expected status 201, received status 200`,
      rootCause: `${on}: expected status 201, received status 200`,
      rootCauseKey: `${on}\n\nstatus 201`,
    });
  const own = record('INS-STA-001', {
    verdict: 'failed',
    message: 'm',
    rootCause: 'INS-STA-001: expected status 201, received status 200',
    rootCauseKey: 'INS-STA-001\n\nstatus 201',
  });

  it('are declared in specs/requirements.yaml on known requirements, without circles', () => {
    const registry = requirements();
    expect(dependencyProblems(registry)).toEqual([]);
    const loop = new Map(registry);
    loop.set('INS-STA-001', { ...registry.get('INS-STA-001')!, dependsOn: ['INS-LIM-001'] });
    loop.set('INS-LIM-001', { ...registry.get('INS-LIM-001')!, dependsOn: ['INS-STA-001'] });
    expect(dependencyProblems(loop).join('\n')).toMatch(/INS-STA-001 depends on itself through INS-LIM-001/);
    loop.set('INS-LIM-001', { ...registry.get('INS-LIM-001')!, dependsOn: ['INS-NOT-999'] });
    expect(dependencyProblems(loop)).toEqual(['INS-LIM-001 depends on unknown requirement INS-NOT-999']);
  });

  it('count one defect: the failed requirement, with its dependents inconclusive under it', () => {
    const s = summary(settleDependencies([own, dependent('INS-LIM-001', 'INS-STA-001'), dependent('INS-ENM-001', 'INS-STA-001')]));
    expect(s.counts).toMatchObject({ contractFailures: 1, inconclusive: 2, defects: 1, failedRequirements: 1 });
    expect(s.rootCauses).toEqual([
      expect.objectContaining({
        about: 'INS-STA-001: expected status 201, received status 200',
        requirement: 'INS-STA-001',
        failed: 1,
        dependent: 2,
      }),
    ]);
    expect(defectsLine(s)).toBe('defects: 1 (1 requirement(s) failed; 1 test(s) failed, 2 inconclusive that depend on them)');
  });

  it('count the dependent failed, saying why, when the requirement it depends on failed nowhere in the run', () => {
    const [alone] = settleDependencies([dependent('INS-LIM-001', 'INS-STA-001')]);
    expect(alone.verdict).toBe('failed');
    expect(alone.code).toBeUndefined();
    expect(alone.message).toMatch(
      /INS-STA-001, which this test takes as given, failed here and nowhere else in this run, so the failure is counted here/,
    );
    // A merge of shards settles again: where another shard shows the failure, the test is inconclusive again.
    const [again] = settleDependencies([alone, own]);
    expect(again).toMatchObject({ verdict: 'inconclusive', code: 'DEPENDENCY_FAILED' });
    expect(again.message).toBeUndefined();
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

describe('a run that checked nothing', () => {
  it('says why from the areas it selected, whatever the tests of the others say', () => {
    const skipped = (id: string, code: 'SAFETY_REFUSED' | 'AREA_NOT_SELECTED') => record(id, { verdict: 'skipped', code });
    const run = {
      ...summary([
        ...Array.from({ length: 40 }, () => skipped('INS-RSP-001', 'SAFETY_REFUSED')),
        ...Array.from({ length: 900 }, () => skipped('IDN-RSP-001', 'AREA_NOT_SELECTED')),
      ]),
      areas: ['insurance'],
    };
    expect(nothingCheckedReason(run)).toBe(
      'nothing was checked: the safety gate refused everything for this target kind in the selected areas (insurance) (AREA_NOT_SELECTED 900, SAFETY_REFUSED 40)',
    );
    expect(nothingCheckedReason(summary([skipped('IDN-RSP-001', 'AREA_NOT_SELECTED')]))).toMatch(
      /^nothing was checked: no area is selected/,
    );
  });
});

describe('an interrupted run', () => {
  it('says so in its closing line, in conformance.md and as an error of its own in junit.xml, and exits 2 whatever passed', () => {
    const run: RunSummary = {
      ...summary([record('INS-RSP-001'), record('INS-RSP-002', { verdict: 'skipped', code: 'RUN_INTERRUPTED' })]),
      status: 'interrupted',
      interruption: { by: 'SIGTERM', at: '2026-01-01T00:00:12.000Z', filesNotStarted: 3 },
    };
    const closing =
      'interrupted (SIGTERM) after 12 s: these results are partial, what the run had not reached was not run (3 test file(s) had not started)';
    expect(closingLines(run).at(-1)).toBe(closing);
    expect(renderMarkdown(run)).toContain(`**I${closing.slice(1)}.**`);
    expect(renderJunit(run)).toContain('<error type="RUN_INTERRUPTED" message="interrupted (SIGTERM) after 12 s');
    expect(exitCodeOf(run)).toBe(2);
    expect(exitCodeOf({ ...run, status: 'ran' })).toBe(0);
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
