/**
 * Issue 13's fidelity case: an invest target whose position ids are not UUIDs conforms (spec 2.4:
 * positionUid and instrumentUid are strings; the vendor's document gives no format), so the invest
 * suite run against it fails no `source: spec` test, and its portfolio tests still pass.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { runSuite, SELFTEST_RUN, tempDir } from '../helpers.ts';
import { startPositionIdProxy, type RewritingProxy } from './position-id-proxy.ts';

let sandbox: RunningSandbox;
let proxy: RewritingProxy;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  proxy = await startPositionIdProxy(sandbox.urls.http);
  dir = tempDir('pc-non-uuid-');
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('an invest target whose position ids are not UUIDs', () => {
  it('fails no spec requirement of the invest suite, and its portfolio tests pass', async () => {
    const file = sandbox.writeTarget(join(dir, 'sandbox.yaml'));
    const target = parse(readFileSync(file, 'utf8')) as { areas?: string[]; services: Record<string, { url: string }> };
    const upstream = new URL(target.services.invest.url);
    target.services = { invest: { ...target.services.invest, url: `${proxy.origin}${upstream.pathname}` } };
    target.areas = ['invest'];
    const proxied = join(dir, 'target.yaml');
    writeFileSync(proxied, stringify(target));

    const run = await runSuite({
      env: { ...SELFTEST_RUN, CONFORMANCE_TARGET: proxied },
      files: ['suites/invest/'],
      reportDir: join(dir, 'reports'),
    });
    const tests = run.summary?.tests ?? [];
    expect(proxy.rewritten(), 'the proxy rewrote position ids').toBeGreaterThan(0);
    const specFailures = tests.filter((t) => t.source === 'spec' && (t.verdict === 'failed' || t.verdict === 'error'));
    expect(
      specFailures.map((t) => `${t.title}\n${t.message ?? ''}`),
      run.stdout.slice(-2000),
    ).toEqual([]);
    const passed = new Set(tests.filter((t) => t.verdict === 'passed').map((t) => t.requirement));
    for (const id of ['INV-RSP-001', 'INV-GEN-001', 'INV-VIR-001']) expect(passed.has(id), `${id} passed`).toBe(true);
  });
});
