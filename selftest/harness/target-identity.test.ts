/**
 * Which target a run checked (harness/report/target-identity.ts): a record made of the name, kind, file
 * and a hash of the services' URLs (never a credential), or of the embedded sandbox's faults; and the
 * comparison that refuses a rerun of another target and marks a diff across targets.
 */
import { describe, expect, it } from 'vitest';
import { describeTarget, servicesHash, targetDifference, targetRecord } from '../../harness/report/target-identity.ts';

const ROOT = '/suite';
const facts = (url = 'https://partners.staging.example', token = 'secret-token-PCMARK') => ({
  name: 'partner-staging',
  kind: 'staging',
  vendorConventions: false,
  strictPolicy: false,
  services: { insurance: { url, token }, identity: { url: 'https://id.staging.example' } },
});
const fileTarget = (url?: string, file = '/suite/examples/target.yaml') => targetRecord(facts(url), { file, root: ROOT });
const sandbox = (faults: string[]) =>
  targetRecord({ ...facts(), name: 'embedded-sandbox', kind: 'sandbox' }, { root: ROOT, embeddedSandbox: { faults } });

describe('the record of a target', () => {
  it('names the file relative to the suite and hashes the URLs only: no credential, in any form', () => {
    const record = fileTarget();
    expect(record).toMatchObject({ name: 'partner-staging', kind: 'staging', file: 'examples/target.yaml' });
    expect(record.services).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(record)).not.toContain('PCMARK');
    expect(targetRecord(facts(undefined, 'another-token'), { file: '/x.yaml', root: ROOT }).services).toBe(record.services);
    // The same services in another order: the same hash.
    const [a, b] = Object.entries(facts().services);
    expect(servicesHash(Object.fromEntries([b, a]))).toBe(record.services);
  });

  it('records the embedded sandbox by its faults, sorted, with neither file nor services (its ports change)', () => {
    expect(sandbox(['b-fault', 'a-fault'])).toEqual({
      name: 'embedded-sandbox',
      kind: 'sandbox',
      vendorConventions: false,
      strictPolicy: false,
      embeddedSandbox: { faults: ['a-fault', 'b-fault'] },
    });
    expect(describeTarget(sandbox([]))).toBe('the embedded sandbox (no faults)');
    expect(describeTarget(fileTarget())).toMatch(/^"partner-staging" \(kind staging, services [0-9a-f]{16}, file examples\/target.yaml\)$/);
  });
});

describe('two records, the same target or not', () => {
  it('the same target file in another checkout is the same target', () => {
    expect(targetDifference(fileTarget(), fileTarget(undefined, '/elsewhere/target.yaml'))).toBeUndefined();
    expect(targetDifference(sandbox(['x', 'y']), sandbox(['y', 'x']))).toBeUndefined();
  });

  it('another URL, name, kind, set of faults, or the sandbox against a file, is another target, and says why', () => {
    expect(targetDifference(fileTarget(), fileTarget('https://other.example'))).toEqual({ why: "their services' URLs differ" });
    expect(targetDifference(fileTarget(), { ...fileTarget(), name: 'other' })).toEqual({ why: 'their targets have other names' });
    expect(targetDifference(fileTarget(), { ...fileTarget(), kind: 'production' })).toEqual({ why: 'their targets are of other kinds' });
    expect(targetDifference(sandbox(['x']), sandbox([]))).toEqual({ why: 'the embedded sandbox was started with other faults' });
    expect(targetDifference(sandbox([]), { ...fileTarget(), name: 'embedded-sandbox', kind: 'sandbox' })).toEqual({
      why: 'one checked the embedded sandbox, the other a target file',
    });
  });

  it('a summary of an earlier version (no hash, no faults) is compared by name and kind, and the comparison says it is unsure', () => {
    const earlier = { name: 'partner-staging', kind: 'staging', vendorConventions: false };
    expect(targetDifference(earlier, fileTarget())).toHaveProperty('unsure');
    expect(targetDifference({ ...earlier, name: 'x' }, fileTarget())).toEqual({ why: 'their targets have other names' });
    expect(targetDifference(undefined, fileTarget())).toHaveProperty('unsure');
  });
});
