/**
 * The business rate groups: specs/limits.yaml names the documented limits and the suite paces each
 * group at half of its own; the sandbox enforces the documented ones (a burst of twice the limit
 * draws 429 with Retry-After) and no limit where none is documented.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mtlsDispatcher } from '../../../harness/mtls.ts';
import { businessRateGroup } from '../../../harness/rate-groups.ts';
import { loadTarget, type Target } from '../../../harness/target.ts';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server.ts';

describe('the groups of specs/limits.yaml', () => {
  it('give each documented group its limit and its own budget', () => {
    expect(businessRateGroup('/api/v1/ndfl-3/requests/{taxRequestId}/tax-form/upload')).toEqual({ key: 'business:ndfl3-upload', limit: { requests: 1, perSeconds: 1 } });
    expect(businessRateGroup('/api/private/ndfl3/requests/{taxRequestId}/chat')).toEqual({ key: 'business:ndfl3', limit: { requests: 10, perSeconds: 1 } });
    expect(businessRateGroup('/api/v1/nominal-accounts/deals')).toEqual({ key: 'business:nominal-accounts', limit: { requests: 10, perSeconds: 1 } });
    expect(businessRateGroup('/api/v2/checkout/order/{shopId}/by/{orderId}')).toEqual({ key: 'business:checkout-order', limit: { requests: 20, perSeconds: 1 } });
    expect(businessRateGroup('/api/v1/bank-statement')).toEqual({ key: 'business:bank-statement', limit: { requests: 10, perSeconds: 1 } });
    expect(businessRateGroup('/api/v1/account-operations')).toEqual({ key: 'business:account-operations', limit: { requests: 3, perSeconds: 1 } });
  });

  it('pace everything else at the undocumented default', () => {
    expect(businessRateGroup('/api/v1/card')).toEqual({ key: 'business:undocumented', limit: { requests: 40, perSeconds: 1 } });
    expect(businessRateGroup('/api/v1/statement')).toMatchObject({ key: 'business:undocumented' });
  });
});

describe('the sandbox enforces the documented limits', () => {
  let sandbox: RunningSandbox;
  let target: Target;
  let dir: string;

  beforeAll(async () => {
    sandbox = await startSandbox();
    dir = mkdtempSync(join(tmpdir(), 'pc-rates-'));
    target = loadTarget(sandbox.writeTarget(join(dir, 'target.yaml')));
  });

  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function burst(url: string, count: number, secured = false): Promise<number[]> {
    const business = target.services.business as unknown as { token: string };
    return Promise.all(
      Array.from({ length: count }, async () => {
        const res = await request(url, { headers: { authorization: `Bearer ${business.token}` }, dispatcher: secured ? mtlsDispatcher(target) : undefined });
        await res.body.dump();
        if (res.statusCode === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        return res.statusCode;
      }),
    );
  }

  it('refuses a burst of twice the account-operations limit (3/s) with 429', async () => {
    const statuses = await burst(`${target.services.business!.url}/api/v1/account-operations?accountNumber=40702810110011000001&from=2024-01-01T00:00:00Z`, 6);
    expect(statuses.filter((s) => s === 429).length).toBe(3);
    expect(statuses.filter((s) => s === 200).length).toBe(3);
  });

  it('refuses a burst of twice the nominal-accounts limit (10/s) on the secured host', async () => {
    const statuses = await burst(`${(target.services.business as unknown as { mtlsUrl: string }).mtlsUrl}/api/v1/nominal-accounts/deals`, 20, true);
    expect(statuses.filter((s) => s === 429).length).toBe(10);
  });

  it('enforces nothing where no limit is documented', async () => {
    const statuses = await burst(`${target.services.business!.url}/api/v1/company`, 30);
    expect(new Set(statuses)).toEqual(new Set([200]));
  });
});
