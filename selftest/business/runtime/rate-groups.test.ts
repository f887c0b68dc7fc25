/**
 * The business rate groups: specs/rate-limits.yaml names the documented limits and the suite paces each
 * group at half of its own, or of the one a target file declares for it; the sandbox enforces the
 * ones it declares in its own target file (a burst of twice the limit draws 429 with Retry-After).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendBurst } from '../../../harness/request/burst.ts';
import { businessRateGroup, groupLimit } from '../../../harness/request/rate-groups.ts';
import { loadTarget, type Target } from '../../../harness/config/target.ts';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server.ts';

describe('the groups of specs/rate-limits.yaml', () => {
  it('give each documented group its limit and its own budget', () => {
    expect(businessRateGroup('/api/v1/ndfl-3/requests/{taxRequestId}/tax-form/upload')).toEqual({
      key: 'business:ndfl3-upload',
      limit: { requests: 1, perSeconds: 1 },
    });
    expect(businessRateGroup('/api/private/ndfl3/requests/{taxRequestId}/chat')).toEqual({
      key: 'business:ndfl3',
      limit: { requests: 10, perSeconds: 1 },
    });
    expect(businessRateGroup('/api/v1/nominal-accounts/deals')).toEqual({
      key: 'business:nominal-accounts',
      limit: { requests: 10, perSeconds: 1 },
    });
    expect(businessRateGroup('/api/v2/checkout/order/{shopId}/by/{orderId}')).toEqual({
      key: 'business:checkout-order',
      limit: { requests: 20, perSeconds: 1 },
    });
    expect(businessRateGroup('/api/v1/bank-statement')).toEqual({ key: 'business:bank-statement', limit: { requests: 10, perSeconds: 1 } });
    expect(businessRateGroup('/api/v1/account-operations')).toEqual({
      key: 'business:account-operations',
      limit: { requests: 3, perSeconds: 1 },
    });
  });

  it('pace everything else at the undocumented default', () => {
    expect(businessRateGroup('/api/v1/card')).toEqual({ key: 'business:undocumented', limit: { requests: 40, perSeconds: 1 } });
    expect(businessRateGroup('/api/v1/statement')).toMatchObject({ key: 'business:undocumented' });
  });
});

describe('a group limit declared by the target file', () => {
  const target = (rateGroups?: Record<string, { requests: number; perSeconds: number }>) =>
    ({ services: { business: { url: 'http://b.test', ...(rateGroups ? { rateGroups } : {}) } } }) as unknown as Target;

  it('replaces the documented one of its group only, by the key of specs/rate-limits.yaml', () => {
    const declared = target({ ndfl3: { requests: 200, perSeconds: 1 }, undocumented: { requests: 500, perSeconds: 1 } });
    expect(groupLimit(declared, businessRateGroup('/api/private/ndfl3/requests/{taxRequestId}/chat'))).toEqual({
      requests: 200,
      perSeconds: 1,
    });
    expect(groupLimit(declared, businessRateGroup('/api/v1/card'))).toEqual({ requests: 500, perSeconds: 1 });
    expect(groupLimit(declared, businessRateGroup('/api/v1/nominal-accounts/deals'))).toEqual({ requests: 10, perSeconds: 1 });
  });

  it('leaves every documented limit as it is in a file without rateGroups', () => {
    for (const path of ['/api/v1/ndfl-3/requests/{taxRequestId}/tax-form/upload', '/api/v1/account-operations', '/api/v1/card']) {
      expect(groupLimit(target(), businessRateGroup(path))).toEqual(businessRateGroup(path).limit);
    }
  });
});

describe('the sandbox enforces the group limits it declares', () => {
  let sandbox: RunningSandbox;
  let target: Target;
  let dir: string;
  let declared: Record<string, { requests: number; perSeconds: number }>;

  beforeAll(async () => {
    sandbox = await startSandbox();
    dir = mkdtempSync(join(tmpdir(), 'pc-rates-'));
    target = loadTarget(sandbox.writeTarget(join(dir, 'target.yaml')));
    declared = target.services.business!.rateGroups!;
  });

  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Twice the group's limit at once, sent again a second later when a busy machine spread it below the
   * limit (harness/request/burst.ts): its statuses.
   */
  async function burst(url: string, limit: number, method: 'GET' | 'POST' = 'GET'): Promise<number[]> {
    const business = target.services.business as unknown as { token: string };
    const sent = await sendBurst({
      size: 2 * limit,
      limit,
      windowMs: 1000,
      shows: (status) => status === 429,
      send: async () => {
        const res = await request(url, {
          method,
          headers: { authorization: `Bearer ${business.token}`, 'content-type': 'application/json' },
          body: method === 'POST' ? '{}' : undefined,
        });
        await res.body.dump();
        if (res.statusCode === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        return res.statusCode;
      },
    });
    return sent.responses;
  }

  it('declares every group of specs/rate-limits.yaml and the undocumented ones, each at or under the service limit', () => {
    expect(Object.keys(declared).sort()).toEqual([
      'account-operations',
      'bank-statement',
      'checkout-order',
      'ndfl3',
      'ndfl3-upload',
      'nominal-accounts',
      'undocumented',
    ]);
    for (const limit of Object.values(declared))
      expect(limit.requests / limit.perSeconds).toBeLessThanOrEqual(target.services.business!.rateLimit!.requests);
  });

  it('refuses a burst of twice the declared account-operations limit with 429, the rest served', async () => {
    const limit = declared['account-operations'].requests;
    const statuses = await burst(
      `${target.services.business!.url}/api/v1/account-operations?accountNumber=40702810110011000001&from=2024-01-01T00:00:00Z`,
      limit,
    );
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(limit);
  });

  it('refuses a burst of twice the declared tax-form upload limit with 429', async () => {
    const limit = declared['ndfl3-upload'].requests;
    const requestId = (target.services.business!.ndfl3!.requestPool as string[])[0];
    const statuses = await burst(`${target.services.business!.url}/api/v1/ndfl-3/requests/${requestId}/tax-form/upload`, limit, 'POST');
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
  });
});
