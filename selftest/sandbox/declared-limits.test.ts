/**
 * The sandbox declares in its target file the limits it enforces, and enforces what it declares: a
 * declared limit it did not keep would let its own runs go faster than a real limit allows and would
 * make the rate-limit tests judge a limit that is not there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendBurst } from '../../harness/request/burst.ts';
import { jsonAnswer } from '../../sandbox/exchange.ts';
import { limitService } from '../../sandbox/service-limit.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { loadTarget, type Target } from '../../harness/config/target.ts';
import { sampleRequest } from '../../harness/insurance/requests.ts';

describe('a service-wide limit (sandbox/service-limit.ts)', () => {
  it("refuses every request beyond it within its window, whatever the route, with the service's 429 and Retry-After", async () => {
    const app = Fastify();
    await app.register(
      async (scope) => {
        limitService(scope, { requests: 5, perSeconds: 1 }, (seconds) => jsonAnswer(429, { refused: seconds }));
        scope.get('/a', async () => 'a');
        scope.post('/b', async () => 'b');
      },
      { prefix: '/svc' },
    );
    await app.register(async (scope) => {
      scope.get('/other', async () => 'other');
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await app.inject({ method: i % 2 ? 'POST' : 'GET', url: i % 2 ? '/svc/b' : '/svc/a' });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) {
          expect(res.headers['retry-after']).toBe('1');
          expect(res.json()).toEqual({ refused: '1' });
        }
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
      // Another service is not counted.
      expect((await app.inject({ method: 'GET', url: '/other' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('the sandbox target file', () => {
  let sandbox: RunningSandbox;
  let target: Target;
  let dir: string;

  beforeAll(async () => {
    sandbox = await startSandbox();
    dir = mkdtempSync(join(tmpdir(), 'pc-declared-'));
    target = loadTarget(sandbox.writeTarget(join(dir, 'target.yaml')));
  });

  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("declares a limit for every service; insurance the spec's 20 per second, counted per token, with a pool", () => {
    for (const area of ['speech', 'identity', 'invest', 'insurance', 'business'] as const)
      expect(target.services[area]?.rateLimit, area).toBeDefined();
    expect(target.services.insurance!.rateLimit).toEqual({ requests: 20, perSeconds: 1, per: 'token' });
    expect(target.services.insurance!.tokenPool!.length).toBeGreaterThanOrEqual(4);
    expect(target.services.invest!.rateLimit).toEqual({ requests: 20, perSeconds: 1, per: 'token' });
  });

  it('insurance: counts each token apart; every token of the pool is served as token is', async () => {
    const insurance = target.services.insurance!;
    const send = (token: string) =>
      request(`${insurance.url}/invest/axiom/providers-api/v1/contracts/surrender/create/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(sampleRequest()),
      }).then(async (res) => (await res.body.dump(), res.statusCode));
    const [first, second] = insurance.tokenPool!;
    // Sent again a second later where a busy machine spread it below the limit (harness/request/burst.ts).
    const { responses: burst } = await sendBurst({ size: 40, limit: 20, windowMs: 1000, send: () => send(first), shows: (s) => s === 429 });
    expect(burst.filter((s) => s === 201).length).toBeGreaterThanOrEqual(20);
    expect(burst.filter((s) => s === 429).length).toBeGreaterThan(0);
    // The first token's window is spent; the others' are not.
    const others = await Promise.all([second, ...insurance.tokenPool!.slice(2), insurance.token!].map(send));
    expect(others).toEqual(others.map(() => 201));
  });
});

describe('the sandbox target file with the documented limits (npm run sandbox -- --documented-limits)', () => {
  it("leaves out every limit the sandbox declares of its own, so that a run is paced by the documented ones, as against a partner's staging", async () => {
    const running = await startSandbox({ declareLimits: false });
    try {
      const services = running.targetDocument().services as Record<string, Record<string, unknown>>;
      expect(Object.keys(services).sort()).toEqual(['business', 'identity', 'insurance', 'invest', 'speech']);
      for (const [area, section] of Object.entries(services)) {
        expect(section.rateLimit, area).toBeUndefined();
        expect(section.rateGroups, area).toBeUndefined();
        expect(section.url, area).toBeDefined();
      }
    } finally {
      await running.close();
    }
  });
});
