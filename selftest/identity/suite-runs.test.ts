/**
 * The identity suite run as a partner runs it against a target file that has only what the spec names
 * (url, accessToken, clientId, clientSecret) and vendorConventions off: it must pass what it can, and
 * skip the rest with a reason that names the missing key or the vendor switch, never fail.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/server.ts';
import { QUICK_RUN, runSuite, tempDir } from '../helpers.ts';

describe('the identity suite with a minimal target file', () => {
  it('passes what the spec keys allow and skips the rest with reasons', async () => {
    const sandbox = await startSandbox();
    try {
      const full = sandbox.targetDocument() as { services: { identity: Record<string, unknown> } };
      const { url, accessToken, clientId, clientSecret } = full.services.identity;
      const file = join(tempDir(), 'target.yaml');
      writeFileSync(
        file,
        stringify({
          name: 'minimal',
          kind: 'staging',
          vendorConventions: false,
          areas: ['identity'],
          services: { identity: { url, accessToken, clientId, clientSecret } },
        }),
      );
      const run = await runSuite({
        env: { ...QUICK_RUN, CONFORMANCE_TARGET: file, CONFORMANCE_SEED: '20261121' },
        files: ['suites/identity/'],
      });
      const s = run.summary!;
      expect(run.code, run.stdout.slice(-3000)).toBe(0);
      expect(s.counts.failed).toBe(0);
      const passed = new Set(s.tests.filter((x) => x.verdict === 'passed').map((x) => x.requirement));
      for (const id of [
        'IDN-RSP-001',
        'IDN-SCP-002',
        'IDN-FMT-001',
        'IDN-FMT-002',
        'IDN-GEN-001',
        'IDN-GEN-002',
        'IDN-GEN-003',
        'IDN-AUT-001',
        'IDN-AUT-002',
        'IDN-CLI-001',
        'IDN-CLI-002',
        'IDN-CLI-003',
      ]) {
        expect(passed.has(id), id).toBe(true);
      }
      const reasons = s.tests
        .filter((x) => x.verdict === 'skipped' || x.verdict === 'inconclusive')
        .map((x) => `${x.requirement}: ${x.skipReason}`);
      expect(
        reasons.filter((r) => r.startsWith('IDN-SCP-001')).every((r) => /services\.identity\.tokens\.without(Profile|Phone|Email)/.test(r)),
      ).toBe(true);
      expect(reasons.find((r) => r.startsWith('IDN-PRT-001'))).toMatch(/services\.identity\.tokens\.nonPartner|nonPartnerClient/);
      expect(reasons.find((r) => r.startsWith('IDN-CNS-001'))).toMatch(/services\.identity\.tokens\.withoutConsent/);
      expect(reasons.filter((r) => /^IDN-(ERR-001|MED|OID)-/.test(r)).every((r) => r.includes('vendorConventions'))).toBe(true);
      expect(reasons.filter((r) => r.startsWith('IDN-ERR-002'))).toEqual([
        expect.stringMatching(/services\.identity\.tokens\.withoutPhone/),
      ]);
      // SCP-001 rows, PRT-001, CNS-001, the IDN-ERR-002 row of a token without phone; vendor skips:
      // IDN-ERR-001 rows, IDN-OID-001, IDN-OID-003 rows (IDN-MED-001, IDN-OID-002, IDN-GEN-003,
      // IDN-FMT-003 and the other IDN-ERR-002 rows are policy: they run).
      expect(reasons.length).toBe(3 + 1 + 1 + 1 + 5 + 1 + 3);
    } finally {
      await sandbox.close();
    }
  });
});
