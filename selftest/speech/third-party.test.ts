/**
 * No failure beyond the spec: a speech service built on a well-kept JWT library (third-party-verifier.ts)
 * must fail no `source: spec` test of the speech suite. What it does differently from our readings
 * (a future iat, no exp, another typ, loosely typed claims, the hash inside an array, upper-case hex)
 * shows up as policy warnings, which fail neither the run nor a certification.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { runSuite, SELFTEST_RUN, tempDir } from '../helpers.ts';
import { startThirdPartyVerifier } from './third-party-verifier.ts';

describe('the speech suite against a verifier built on jose', () => {
  it('fails no spec requirement; our readings end as policy warnings', async () => {
    const apiKey = `third-party-key-${randomBytes(4).toString('hex')}`;
    const secretKey = randomBytes(24).toString('hex');
    const audience = 'speech.third-party.example';
    const verifier = await startThirdPartyVerifier({ keys: { [apiKey]: new TextEncoder().encode(secretKey) }, audience });
    try {
      const file = join(tempDir(), 'target.yaml');
      writeFileSync(
        file,
        stringify({
          name: 'third-party-jose',
          kind: 'staging',
          vendorConventions: false,
          areas: ['speech'],
          services: { speech: { url: verifier.url, apiKey, secretKey, keyEncoding: 'raw', audience } },
        }),
      );
      const run = await runSuite({ env: { ...SELFTEST_RUN, CONFORMANCE_TARGET: file }, files: ['suites/speech/'] });
      const tests = run.summary!.tests;
      const specFailures = tests
        .filter((t) => t.source === 'spec' && ['failed', 'error'].includes(t.verdict))
        .map((t) => `${t.title}\n${t.message}`);
      expect(specFailures, specFailures.join('\n\n')).toEqual([]);
      expect(run.code, run.stdout.slice(-2000)).toBe(0);
      expect(tests.filter((t) => t.source === 'spec' && t.verdict === 'passed').length).toBeGreaterThanOrEqual(40);
      const warned = new Set(tests.filter((t) => t.verdict === 'warning').map((t) => t.requirement));
      expect([...warned].sort()).toEqual(['SPE-CTY-002', 'SPE-CTY-003', 'SPE-HSH-005', 'SPE-TIM-003', 'SPE-TIM-004', 'SPE-TYP-001']);
      const streaming = tests.filter((t) => t.requirement?.startsWith('SPE-STR-'));
      expect(streaming.length).toBeGreaterThan(0);
      expect(streaming.every((t) => t.verdict === 'inconclusive' && t.code === 'NOT_SUPPORTED')).toBe(true);
    } finally {
      await verifier.close();
    }
  });
});
