/** The certification verdict: what makes a run certifiable, and the reasons it gives when it is not. */
import { describe, expect, it } from 'vitest';
import { certificationVerdict } from '../../harness/certify/verdict.ts';
import type { TestRecord } from '../../harness/report/records.ts';
import { requirements } from '../../harness/spec/requirements.ts';
import { AREAS, type Area } from '../../harness/areas.ts';
import { failedRecord, record, summary } from './_records.ts';

const registry = requirements();
const insurance = [...registry.values()].filter((r) => r.area === 'insurance');
/** One passing test per insurance requirement (vendor ones skipped, as with vendorConventions off). */
const cleanInsurance = (): TestRecord[] =>
  insurance.map((r) => (r.source === 'vendor' ? record(r.id, { verdict: 'skipped', code: 'VENDOR_CONVENTIONS_OFF' }) : record(r.id)));
const outside = AREAS.filter((a) => a !== 'insurance').map((area) =>
  record([...registry.values()].find((r) => r.area === area)!.id, { verdict: 'skipped', code: 'AREA_NOT_SELECTED' }),
);
const verdictOf = (tests: TestRecord[], target = {}, areas: Area[] = ['insurance'], specMissing?: string) =>
  certificationVerdict({ summary: summary(tests, target), registry, areas, allAreas: AREAS, specMissing });
const replace = (tests: TestRecord[], id: string, by: TestRecord) => tests.map((t) => (t.requirement === id ? by : t));
const specId = insurance.find((r) => r.source === 'spec')!.id;
/** The registry with one insurance requirement read as policy and one as vendor (the real file may have none). */
const [policyId, vendorId] = insurance.filter((r) => r.source === 'spec' && r.id !== specId).map((r) => r.id);
const mixed = new Map(
  [...registry].map(([id, r]) => [
    id,
    id === policyId ? { ...r, source: 'policy' as const } : id === vendorId ? { ...r, source: 'vendor' as const } : r,
  ]),
);
const mixedVerdict = (tests: TestRecord[], target = {}) =>
  certificationVerdict({ summary: summary(tests, target), registry: mixed, areas: ['insurance'], allAreas: AREAS });

describe('certificationVerdict', () => {
  it('certifies a run where every blocking requirement of the mission passed, saying what it rests on', () => {
    const v = verdictOf([...cleanInsurance(), ...outside]);
    expect(v.reasons).toEqual([]);
    expect(v.certifiable).toBe(true);
    expect(v.basis[0]).toMatch(/^mission: insurance; blocking requirements: \d+ \(spec \d+/);
    expect(v.requirements.find((r) => r.area === 'speech')?.verdict).toBe('out of scope');
    expect(v.areas.find((a) => a.area === 'insurance')).toMatchObject({ inScope: true });
  });

  it('a failed spec requirement blocks, and is named', () => {
    const v = verdictOf(replace(cleanInsurance(), specId, failedRecord(specId)));
    expect(v.certifiable).toBe(false);
    expect(v.reasons).toEqual([`1 blocking requirement(s) failed: ${specId} [spec]`]);
  });

  it('counts defects first: one root cause, the requirement it failed, and the requirements that depend on it not checked', () => {
    const cause = { rootCause: 'INS-RSP-001: expected status 201, received status 200', rootCauseKey: 'INS-RSP-001\n\nstatus 201' };
    const dependent = record('INS-LIM-001', { verdict: 'inconclusive', code: 'DEPENDENCY_FAILED', dependsOn: 'INS-RSP-001', ...cause });
    const tests = replace(
      replace(cleanInsurance(), 'INS-RSP-001', failedRecord('INS-RSP-001', undefined, cause)),
      'INS-LIM-001',
      dependent,
    );
    const v = verdictOf(tests);
    expect(v.reasons).toEqual([
      '1 defect(s): INS-RSP-001: expected status 201, received status 200 (2 test(s))',
      '1 blocking requirement(s) failed: INS-RSP-001 [spec]',
      '1 blocking requirement(s) were not checked: INS-LIM-001 (DEPENDENCY_FAILED 1)',
    ]);
  });

  it('a waived failure does not block; an expired waiver blocks and is named as expired', () => {
    const w = { requirement: specId, reason: 'r', owner: 'o', expires: '2099-01-01', entry: 1 };
    expect(
      verdictOf(replace(cleanInsurance(), specId, failedRecord(specId, undefined, { verdict: 'waived', waiver: w }))).certifiable,
    ).toBe(true);
    const expired = verdictOf(replace(cleanInsurance(), specId, failedRecord(specId, undefined, { waiver: w, waiverExpired: true })));
    expect(expired.reasons).toEqual([`1 blocking requirement(s) failed: ${specId} [spec] (its waiver expired)`]);
  });

  it('any tool error blocks, with its codes', () => {
    const v = verdictOf(replace(cleanInsurance(), specId, record(specId, { verdict: 'error', code: 'TARGET_TIMEOUT' })));
    expect(v.reasons).toContain('1 tool error(s) (TARGET_TIMEOUT 1): the suite could not reach a verdict there');
  });

  it('a blocking requirement none of whose tests passed blocks; rows skipped beside a passing row are listed, not blocking', () => {
    const skipped = record(specId, { verdict: 'skipped', code: 'SAFETY_REFUSED', skipReason: 'SAFETY_REFUSED: no' });
    const none = verdictOf(replace(cleanInsurance(), specId, skipped));
    expect(none.reasons).toEqual([`1 blocking requirement(s) were not checked: ${specId} (SAFETY_REFUSED 1)`]);
    const partly = verdictOf([...cleanInsurance(), { ...skipped, title: `${skipped.title} (another row)` }]);
    expect(partly.certifiable).toBe(true);
    expect(partly.basis.join('\n')).toContain('1 test(s) of the mission could not be checked here (SAFETY_REFUSED 1)');
  });

  it('an area of the mission where nothing reached a verdict blocks', () => {
    const v = verdictOf([...cleanInsurance(), ...outside], {}, ['insurance', 'speech']);
    expect(v.certifiable).toBe(false);
    expect(v.reasons).toContain('area speech was not run: none of its 1 tests reached a verdict (AREA_NOT_SELECTED 1)');
  });

  it('policy failures are warnings that do not block, unless the target file asks for strict policy', () => {
    expect(mixedVerdict(replace(cleanInsurance(), policyId, record(policyId, { verdict: 'warning' }))).certifiable).toBe(true);
    const strict = mixedVerdict(replace(cleanInsurance(), policyId, failedRecord(policyId)), { strictPolicy: true });
    expect(strict.reasons).toEqual([`1 blocking requirement(s) failed: ${policyId} [policy]`]);
  });

  it('vendor requirements block only under strictPolicy with vendor conventions on', () => {
    const failing = replace(cleanInsurance(), vendorId, failedRecord(vendorId));
    expect(mixedVerdict(failing, { vendorConventions: true }).certifiable).toBe(true);
    expect(mixedVerdict(failing, { vendorConventions: true, strictPolicy: true }).reasons).toEqual([
      `1 blocking requirement(s) failed: ${vendorId} [vendor]`,
    ]);
    expect(mixedVerdict(failing, { vendorConventions: false, strictPolicy: true }).certifiable).toBe(true);
  });

  it('a spec that cannot be hashed blocks: the pack could not say what it certifies against', () => {
    expect(verdictOf(cleanInsurance(), {}, ['insurance'], 'not readable').reasons).toEqual([
      'the spec could not be hashed, so the pack cannot name what it certifies against: not readable',
    ]);
  });
});
