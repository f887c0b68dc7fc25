/** Test records and run summaries made by hand, for the unit tests of waivers, the verdict and the pack. */
import type { TestRecord } from '../../harness/report/records.ts';
import { summaryOf, type RunSummary } from '../../harness/report/records.ts';
import { requirement, titleOf } from '../../harness/spec/requirements.ts';

/** A record of a test of `id`, with the registry's area, section and source, passed unless told otherwise. */
export function record(id: string, patch: Partial<TestRecord> & { row?: string } = {}): TestRecord {
  const req = requirement(id);
  const { row, ...rest } = patch;
  return {
    requirement: id,
    title: titleOf(id, row),
    file: `suites/${req.area}/x.test.ts`,
    suitePath: [],
    area: req.area,
    section: req.section,
    source: req.source,
    verdict: 'passed',
    durationMs: 1,
    ...rest,
  };
}

export function failedRecord(id: string, row?: string, patch: Partial<TestRecord> = {}): TestRecord {
  return record(id, {
    row,
    verdict: 'failed',
    message: `${titleOf(id, row)}\n  ✗ ${id}\n    Expected: rejected with one of 400, 422\n    Received: accepted with 201\n  Response: HTTP 201, content-type application/json, body: {"id":1}\n  Reproduce: curl -sS -i -X POST 'http://127.0.0.1:1/insurance/x' -H 'authorization: Bearer ***' --data-raw '{"contractId":"x"}'`,
    ...patch,
  });
}

export function summary(tests: TestRecord[], target: Partial<NonNullable<RunSummary['target']>> = {}): RunSummary {
  return summaryOf(tests, {
    target: { name: 'unit', kind: 'sandbox', vendorConventions: false, strictPolicy: false, ...target },
    seed: 1,
    runs: 5,
    startedAt: '2026-01-01T00:00:00.000Z',
  });
}
