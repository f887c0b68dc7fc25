/**
 * A run out of time is a tool error everywhere (TARGET_TIMEOUT), never a contract failure, an
 * inconclusive or a pass: vitest's own timeout of a test or of a hook, and a test over every business
 * operation whose operations' exchanges all ran out of time. (The 3-NDFL model run's time limit:
 * selftest/business/ndfl3/model.test.ts; a test's budget: budget.test.ts.)
 */
import { request } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { verdictOf } from '../../harness/report/records.ts';
import { hookMessage } from '../../harness/report/test-outcome.ts';
import { startSandbox } from '../../sandbox/server.ts';
import { QUICK_RUN, runSuite, tempDir } from '../helpers.ts';
import { faultServer, trackedServers } from './_servers.ts';

const { track, closeAll } = trackedServers();
afterEach(closeAll);

describe("vitest's own timeouts", () => {
  it('of a test: a TARGET_TIMEOUT tool error', () => {
    expect(verdictOf('failed', {}, 'Test timed out in 70000ms.\nIf this is a long-running test, …')).toEqual({
      verdict: 'error',
      code: 'TARGET_TIMEOUT',
    });
  });

  it('of a hook that kept a test from running: a TARGET_TIMEOUT tool error, not a SUITE_ERROR', () => {
    const message = hookMessage({ where: 'business runtime', message: 'Hook timed out in 60000ms.\nIf this is a long-running hook, …' });
    expect(message).toMatch(/^TARGET_TIMEOUT: a hook of "business runtime" failed/);
    expect(verdictOf('failed', {}, message)).toEqual({ verdict: 'error', code: 'TARGET_TIMEOUT' });
    expect(hookMessage({ where: 'x', message: 'TypeError: y is undefined' })).toMatch(/^SUITE_ERROR: /);
  });
});

describe('the business conventions over every operation', () => {
  it('end as the tool error of the exchanges when every operation ran out of time, never inconclusive', async () => {
    const sandbox = await startSandbox({ areas: ['business'] });
    try {
      const upstream = new URL(sandbox.urls.http);
      // The served document comes through; every operation's request is never answered, on either host.
      const proxy = await track(
        faultServer(() => (req, res) => {
          if (!req.url?.endsWith('/openapi/docs/openapi.yaml')) return;
          request({ host: upstream.hostname, port: upstream.port, method: 'GET', path: req.url }, (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          }).end();
        }),
      );
      const sockets = new Set<Socket>();
      const stalled = createNetServer((socket) => void sockets.add(socket));
      await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
      const business = (sandbox.targetDocument().services as { business: Record<string, unknown> }).business;
      const file = join(tempDir('pc-out-of-time-'), 'target.yaml');
      writeFileSync(
        file,
        stringify({
          name: 'out-of-time',
          kind: 'sandbox',
          vendorConventions: true,
          areas: ['business'],
          settings: { timeoutMs: 500 },
          services: {
            business: {
              ...business,
              url: String(business.url).replace(upstream.origin, proxy.base),
              mtlsUrl: `https://127.0.0.1:${(stalled.address() as { port: number }).port}/business`,
            },
          },
        }),
      );
      const run = await runSuite({
        env: { ...QUICK_RUN, CONFORMANCE_TARGET: file },
        files: ['suites/business/runtime/operations.test.ts', '--grep', 'BUS-AUT-004|BUS-ERR-001'],
      });
      const tests = run.summary?.tests ?? [];
      expect(tests.map((t) => t.requirement).sort(), run.stdout.slice(-3000)).toEqual(['BUS-AUT-004', 'BUS-ERR-001']);
      for (const t of tests) expect([t.verdict, t.code], `${t.title}: ${t.message ?? t.skipReason}`).toEqual(['error', 'TARGET_TIMEOUT']);
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => stalled.close(resolve));
    } finally {
      await sandbox.close();
    }
  });
});
