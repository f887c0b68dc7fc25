/**
 * No secret leaks, in any encoding: the whole suite runs against a sandbox whose every credential is made
 * of all the ASCII punctuation characters (around a unique marker), with faults on that make every area
 * fail (so failure messages, responses and curl lines are printed), and every byte of the console and the
 * reports is scanned for each secret in every form it can take: raw, encodeURIComponent, form-encoded
 * (URLSearchParams), JSON-escaped, shell-quoted, base64, base64url and hex — also inside a longer base64 or
 * base64url run at any alignment (a JWT header that carries the API key as its `kid`). The reports
 * include the evidence of every exchange (evidence/*.har), the Allure results (allure-results/: every
 * test, its exchanges and curl lines) and the Allure report built from them, and the certification pack of
 * the same run.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { maskedTargetFile } from '../../harness/certify/masked-target.ts';
import { preparePackFolder, writePack } from '../../harness/certify/pack.ts';
import { specDigest, suiteIdentity } from '../../harness/certify/suite-identity.ts';
import { certificationVerdict } from '../../harness/certify/verdict.ts';
import { SECRET_KEY_PATTERN } from '../../harness/secrets/redact.ts';
import type { RunSummary } from '../../harness/report/records.ts';
import { requirements } from '../../harness/spec/requirements.ts';
import { loadTarget } from '../../harness/config/target.ts';
import { AREAS } from '../../harness/areas.ts';
import { loadServices } from '../../sandbox/services/index.ts';
import { startSandbox } from '../../sandbox/server.ts';
import { allureReport, filesUnder, QUICK_RUN, runSuite, tempDir } from '../helpers.ts';
import { encodedForms, hiddenInBase64, SecretScan } from '../secret-scan.ts';

const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
const FAULTS = [
  'spe-echo-token',
  'spe-no-auth-served',
  'idn-client-secret-unchecked',
  'idn-token-not-verified',
  'inv-no-auth',
  'ins-no-auth',
  'bus-run-html-400',
  'bus-run-500-on-valid',
];

/** The certification pack of a run's reports, written as `certify` writes it, into <reportDir>/certification. */
async function packOf(summary: RunSummary, reportDir: string, targetFile: string): Promise<void> {
  const target = loadTarget(targetFile);
  const verdict = certificationVerdict({ summary, registry: requirements(), areas: AREAS, allAreas: AREAS });
  const run = {
    depth: 'standard',
    runs: summary.runs,
    seed: summary.seed,
    startedAt: summary.startedAt ?? summary.generatedAt,
    endedAt: summary.generatedAt,
  };
  const file = maskedTargetFile(targetFile, target.redactor);
  const manifest = {
    suite: suiteIdentity(),
    spec: specDigest(),
    target: {
      name: target.name,
      kind: target.kind,
      areas: [...AREAS],
      vendorConventions: target.vendorConventions,
      strictPolicy: target.strictPolicy,
      source: 'target.yaml',
      file,
    },
    run,
    waivers: null,
    documents: summary.documents ?? [],
    counts: summary.counts,
    verdict,
    signing: { signed: false as const, why: 'selftest' },
  };
  const dir = join(reportDir, 'certification');
  preparePackFolder(dir);
  await writePack({ dir, summary, runReportDir: reportDir, manifest });
}

describe('secrets made of every ASCII punctuation character', () => {
  it('the scan itself finds a secret in each of its forms (it can fail)', () => {
    const secret = `PCMARKtest${PUNCTUATION}`;
    for (const form of encodedForms(secret)) expect(encodedForms(secret).some((f) => `x ${form} y`.includes(f))).toBe(true);
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: secret })).toString('base64url');
    // The whole header segment of a cut-off JWT, and the same segment starting mid-way (another alignment).
    expect(hiddenInBase64(`Bearer ${header}.eyJzdWIi…`, secret)).toBe(true);
    expect(hiddenInBase64(`…${header.slice(5)}`, secret)).toBe(true);
    expect(hiddenInBase64('nothing to see here at all, really', secret)).toBe(false);
  });

  it('the one-pass scan of many secrets finds what the scan of each secret finds, form by form and in base64 runs', () => {
    const secrets = [0, 1, 2].map((i) => `PCMARK${randomBytes(6).toString('hex')}${PUNCTUATION}${i}`);
    const scan = new SecretScan(secrets);
    const noise = () => randomBytes(40).toString('base64');
    for (const secret of secrets) {
      for (const form of encodedForms(secret)) {
        const text = `${noise()} "${form}" ${noise()}`;
        const found = scan
          .formsIn(text)
          .filter((f) => f.secret === secret)
          .map((f) => f.form);
        expect(found).toEqual(encodedForms(secret).filter((f) => text.includes(f)));
        expect(found).toContain(form);
      }
      const header = Buffer.from(JSON.stringify({ alg: 'HS256', kid: secret })).toString('base64url');
      for (const cut of [0, 1, 2, 3, 5]) {
        const text = `${noise()} Bearer ${header.slice(cut)}.eyJzdWIi ${noise()}`;
        expect(scan.hiddenIn(text).has(secret)).toBe(hiddenInBase64(text, secret));
      }
      expect(scan.hiddenIn(`Bearer ${header}.x`)).toEqual(new Set([secret]));
    }
    const clean = `${noise()} ${secrets[0].slice(0, 10)} ${Buffer.from(secrets[1].slice(0, 9)).toString('base64')} ${noise()}`;
    expect(scan.formsIn(clean)).toEqual([]);
    expect(scan.hiddenIn(clean)).toEqual(new Set());
  });

  it('a credential written inline that YAML reads as an alias or a tag never appears in the refusal, on the console or in a report', async () => {
    // Before: "Unresolved alias …: PCMK…" in stderr and in the reports of the refused run, and a YAMLWarning quoting the whole line.
    for (const sigil of ['*', '!']) {
      const secret = `PCMARK${randomBytes(6).toString('hex')}~!()'&=+/%`;
      const dir = tempDir('pc-yaml-secret-');
      const target = join(dir, 'target.yaml');
      writeFileSync(
        target,
        `name: yaml-secret\nkind: staging\nservices:\n  insurance:\n    url: http://127.0.0.1:9\n    token: ${sigil}${secret}\n`,
      );
      const run = await runSuite({ env: { CONFORMANCE_TARGET: target }, reportDir: join(dir, 'reports') });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`${target}: not valid YAML at line 6, key "services.insurance.token": `);
      const texts: Array<[string, string]> = [
        ['console', run.stdout + run.stderr],
        ...[...filesUnder(run.reportDir)].map((f): [string, string] => [relative(run.reportDir, f), readFileSync(f, 'latin1')]),
      ];
      // Refused before it started: the console says why, and no report is written (a last run's would be left as they were).
      expect(texts.map(([where]) => where)).toEqual(['console']);
      const leaks = texts.flatMap(([where, text]) =>
        encodedForms(secret)
          .filter((form) => text.includes(form))
          .map((form) => `${where}: ${sigil} as ${form.slice(0, 12)}`),
      );
      expect(leaks.concat(texts.filter(([, text]) => text.includes(secret.slice(0, 18))).map(([where]) => `${where}: the marker`))).toEqual(
        [],
      );
    }
  });

  it('never appear in the console or any report of a failing whole-suite run', async () => {
    const overrides: Record<string, Record<string, string>> = {};
    const secrets: string[] = [];
    for (const { service, credentials } of await loadServices()) {
      for (const [key, value] of Object.entries(credentials)) {
        if (!SECRET_KEY_PATTERN.test(key) || typeof value !== 'string') continue;
        const secret = `PCMARK${randomBytes(6).toString('hex')}${PUNCTUATION}${randomBytes(4).toString('hex')}`;
        (overrides[service.area] ??= {})[key] = secret;
        secrets.push(secret);
      }
    }
    const sandbox = await startSandbox({ credentials: overrides, faults: FAULTS });
    const dir = tempDir('pc-secrets-');
    try {
      const targetFile = sandbox.writeTarget(join(dir, 'target.yaml'));
      const run = await runSuite({
        env: { ...QUICK_RUN, CONFORMANCE_TARGET: targetFile, CONFORMANCE_SHRINK: '0' },
        reportDir: join(dir, 'reports'),
      });
      expect(run.summary, run.stdout.slice(-2000)).toBeDefined();
      expect(run.summary!.counts.contractFailures).toBeGreaterThan(10);
      // The certification pack of the same run (its evidence, report.html and manifest with the masked target file) is scanned too,
      // and the Allure report the nightly builds from its allure-results (every test, its exchanges and curl lines).
      await packOf(run.summary!, run.reportDir, targetFile);
      const allure = await allureReport(run.reportDir);
      expect(allure.code, allure.output).toBe(0);
      const texts: Array<[string, string]> = [['console', run.stdout + run.stderr]];
      const files = [...filesUnder(run.reportDir)].map((file) => relative(run.reportDir, file));
      expect(files).toEqual(
        expect.arrayContaining([
          'evidence/identity.har',
          'evidence/invest.har',
          'evidence/insurance.har',
          'evidence/business.har',
          'certification/report.html',
          'certification/evidence/identity.har',
          'certification/manifest.json',
          'allure-results/environment.properties',
          'allure-report/index.html',
        ]),
      );
      for (const kind of ['-result.json', '-attachment.httpexchange', '-attachment.txt'])
        expect(
          files.some((f) => f.startsWith('allure-results/') && f.endsWith(kind)),
          kind,
        ).toBe(true);
      for (const file of files) texts.push([file, readFileSync(join(run.reportDir, file), 'latin1')]);
      const scan = new SecretScan(secrets);
      const leaks: string[] = [];
      for (const [where, text] of texts) {
        for (const { secret, form } of scan.formsIn(text))
          leaks.push(`${where}: ${secret.slice(0, 12)}… as ${JSON.stringify(form.slice(0, 24))}…`);
        for (const secret of scan.hiddenIn(text)) leaks.push(`${where}: ${secret.slice(0, 12)}… inside a base64 run`);
      }
      expect(leaks).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });
});
