/**
 * The speech suite run as a user runs it: with the vendor's POST (the default run uses the spec's GET),
 * and with marker secrets against faults whose answers echo tokens: the console, junit and summaries
 * must hold no secret in any encoding and no whole token (spec 5.1 key handling).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { embeddedBase64urlForms, secretVariants } from '../../harness/speech/token.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { QUICK_RUN, runSuite, SELFTEST_RUN, tempDir } from '../helpers.ts';
import { reportTexts } from '../variants/common.ts';

const SPEECH = ['suites/speech/'];
const WHOLE_JWT = /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/;
const sandboxes: RunningSandbox[] = [];
afterEach(async () => {
  for (const s of sandboxes.splice(0)) await s.close();
});

async function targetFile(sandbox: RunningSandbox, speech: Record<string, unknown> = {}): Promise<string> {
  sandboxes.push(sandbox);
  const doc = parse(stringify(sandbox.targetDocument())) as { services: Record<string, Record<string, unknown>>; sandboxFaults?: unknown };
  delete doc.sandboxFaults;
  doc.services.speech = { ...doc.services.speech, ...speech };
  const file = join(tempDir(), 'target.yaml');
  writeFileSync(file, stringify({ ...doc, areas: ['speech'] }));
  return file;
}

describe('the speech suite', () => {
  it('passes 100% with method POST and a JSON body, as the vendor calls it', async () => {
    const file = await targetFile(await startSandbox(), { method: 'POST' });
    const run = await runSuite({ env: { ...SELFTEST_RUN, CONFORMANCE_TARGET: file }, files: SPEECH });
    expect(run.code, run.stdout.slice(-3000)).toBe(0);
    expect(run.summary!.counts.failed).toBe(0);
    expect(run.summary!.counts.passed).toBeGreaterThanOrEqual(48);
  });

  it('never prints the secret key, the API key (even inside a token segment) or a whole token, even when answers echo them', async () => {
    const apiKey = `PCMARKAPI${randomBytes(8).toString('hex')}`;
    const secretKey = `PCMARKSEC${randomBytes(12).toString('hex')}`.slice(0, 32);
    const sandbox = await startSandbox({
      faults: ['spe-echo-token', 'spe-sig-not-verified', 'spe-refuse-403'],
      credentials: { speech: { apiKey, secretKey } },
    });
    const file = await targetFile(sandbox);
    const run = await runSuite({ env: { ...QUICK_RUN, CONFORMANCE_TARGET: file }, files: SPEECH });
    expect(run.code, 'the faults must make the run fail, or nothing with a token was printed').not.toBe(0);
    const failed = run.summary!.tests.filter((t) => t.verdict === 'failed').map((t) => t.requirement);
    // The sandbox's target file asks for strictPolicy, so the 401 policy (SPE-STA-001) fails too.
    expect(failed).toEqual(expect.arrayContaining(['SPE-KEY-001', 'SPE-SIG-001', 'SPE-STA-001']));
    // Every report, the evidence folder's HAR files included.
    const texts = reportTexts(run.stdout + run.stderr, run.reportDir);
    const markers = [apiKey, ...secretVariants(secretKey, 'base64')];
    for (const [where, text] of texts) {
      for (const marker of markers) expect(text.includes(marker), `${where} contains a secret (${marker.slice(0, 9)}…)`).toBe(false);
      expect(WHOLE_JWT.exec(text)?.[0], `${where} contains a whole token`).toBeUndefined();
    }
    // What the suite itself writes (every line of a failure but the target's answer and the curl line)
    // holds no part of a token: no base64url JSON segment, no API key as it reads inside a token header.
    const apiKeyInSegments = embeddedBase64urlForms(apiKey);
    for (const t of run.summary!.tests) {
      const own = (t.message ?? '')
        .split('\n')
        .filter((line) => !/^\s*(Response|Reproduce):/.test(line))
        .join('\n');
      expect(own.includes('eyJ'), `${t.title}: a token segment in the suite's own words`).toBe(false);
      for (const form of apiKeyInSegments) expect(own.includes(form), `${t.title}: the API key base64url-encoded`).toBe(false);
    }
    // The echoed tokens did reach the report, masked: the check above looked at real token output.
    expect(readFileSync(join(run.reportDir, 'conformance.md'), 'utf8')).toContain('"receivedToken":"eyJ***"');
  });
});
