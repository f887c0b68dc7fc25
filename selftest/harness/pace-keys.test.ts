/**
 * What a request is paced under, read from the target file. A file without the keys the sandbox's file
 * uses to pace its own runs (`rateLimit.per`, `tokenPool`, `rateGroups`), as every partner's file is
 * until it says otherwise, paces exactly as before: one budget per service at its documented limit,
 * whatever the token, and each business group at the limit of specs/rate-limits.yaml. Only a file that says
 * `per: token` gets a budget per token, named by where the token stands in the file.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../harness/request/http.ts';
import { ordinaryToken } from '../../harness/insurance/tokens.ts';
import { documentedRateLimits } from '../../harness/request/rate-limits.ts';
import { intervalMs, LocalPacer, spareOf } from '../../harness/request/pacer.ts';
import { businessRateGroup } from '../../harness/request/rate-groups.ts';
import { loadTarget, type LoadedTarget } from '../../harness/config/target.ts';
import { tempDir } from '../helpers.ts';

function targetWith(services: Record<string, unknown>): LoadedTarget {
  const file = join(tempDir(), 'target.yaml');
  writeFileSync(file, stringify({ name: 'partner', kind: 'staging', services }));
  return loadTarget(file, {});
}

/** As the suite makes its client (harness/test/suite.ts): the documented limits of specs/rate-limits.yaml. */
function clientOf(target: LoadedTarget): HttpClient {
  const limits = documentedRateLimits();
  return new HttpClient(target, { pacer: new LocalPacer(), limits: limits.services, undocumentedLimit: limits.undocumentedDefault });
}

const bearer = (token?: string): Record<string, string> => (token === undefined ? {} : { authorization: `Bearer ${token}` });
/** A budget at `requests` per `perSeconds`, paced at the default fraction. */
const at = (requests: number, perSeconds = 1) => ({
  intervalMs: intervalMs({ requests, perSeconds }, 0.5),
  windowMs: perSeconds * 1000,
  spare: spareOf({ requests, perSeconds }, 0.5),
});

const PARTNER = {
  speech: { url: 'https://speech.partner.test', apiKey: 'speech-key-value', secretKey: 'speech-secret-value' },
  identity: { url: 'https://id.partner.test', accessToken: 'identity-token-value' },
  invest: { url: 'https://invest.partner.test', token: 'invest-token-value', burstToken: 'invest-burst-value' },
  insurance: { url: 'https://insurance.partner.test', token: 'insurance-token-one', tokenWithoutScope: 'insurance-token-no-scope' },
  business: { url: 'https://business.partner.test', token: 'business-token-value' },
};

describe('a target file without the new keys', () => {
  const target = targetWith(PARTNER);
  const client = clientOf(target);

  it('paces each service under one budget at its documented limit, whatever the token', () => {
    for (const token of ['insurance-token-one', 'insurance-token-no-scope', 'made-up', undefined]) {
      expect(client.paceKeys({ area: 'insurance', headers: bearer(token) })).toEqual([{ key: 'insurance', ...at(20) }]);
    }
    expect(client.paceKeys({ area: 'invest', headers: bearer('invest-burst-value') })).toEqual([{ key: 'invest', ...at(200, 60) }]);
    expect(client.paceKeys({ area: 'identity', headers: bearer('identity-token-value') })).toEqual([{ key: 'identity', ...at(40) }]);
    expect(client.paceKeys({ area: 'speech' })).toEqual([{ key: 'speech', ...at(40) }]);
  });

  it('paces each business group at the limit of specs/rate-limits.yaml, besides the service', () => {
    const keys = (path: string) =>
      client.paceKeys({ area: 'business', headers: bearer('business-token-value'), rateGroup: businessRateGroup(path) });
    expect(keys('/api/private/ndfl3/requests/{taxRequestId}/chat')).toEqual([
      { key: 'business', ...at(10) },
      { key: 'business:ndfl3', ...at(10) },
    ]);
    expect(keys('/api/v1/ndfl-3/requests/{taxRequestId}/tax-form/upload')).toEqual([
      { key: 'business', ...at(10) },
      { key: 'business:ndfl3-upload', ...at(1) },
    ]);
    expect(keys('/api/v1/account-operations')).toEqual([
      { key: 'business', ...at(10) },
      { key: 'business:account-operations', ...at(3) },
    ]);
    expect(keys('/api/v1/card')).toEqual([
      { key: 'business', ...at(10) },
      { key: 'business:undocumented', ...at(40) },
    ]);
  });

  it('sends every ordinary insurance request with services.insurance.token, a tokenPool given or not (and says it is not used)', () => {
    const pooled = targetWith({ ...PARTNER, insurance: { ...PARTNER.insurance, tokenPool: ['insurance-token-two'] } });
    expect(new Set(Array.from({ length: 6 }, () => ordinaryToken(pooled)))).toEqual(new Set(['insurance-token-one']));
    expect(pooled.notices).toEqual([expect.stringMatching(/^services\.insurance\.tokenPool is not used/)]);
    expect(target.notices).toEqual([]);
  });
});

describe('a target file that says its limit counts per token', () => {
  const target = targetWith({
    ...PARTNER,
    insurance: {
      ...PARTNER.insurance,
      rateLimit: { requests: 20, perSeconds: 1, per: 'token' },
      tokenPool: ['insurance-token-two', 'insurance-token-three'],
    },
    business: { ...PARTNER.business, rateGroups: { ndfl3: { requests: 200, perSeconds: 1 } } },
  });
  const client = clientOf(target);

  it('paces each token of the file under its own budget, named by its place in the file; any other token under one, and no token under one', () => {
    const key = (token?: string) => client.paceKeys({ area: 'insurance', headers: bearer(token) })[0].key;
    expect(key('insurance-token-one')).toBe('insurance#services.insurance.token');
    expect(key('insurance-token-three')).toBe('insurance#services.insurance.tokenPool[1]');
    expect(key('insurance-token-no-scope')).toBe('insurance#services.insurance.tokenWithoutScope');
    expect(key('made-up')).toBe('insurance#other-tokens');
    expect(key(undefined)).toBe('insurance#no-token');
    expect(client.paceKeys({ area: 'insurance', headers: bearer('insurance-token-two') })[0]).toMatchObject(at(20));
  });

  it('spreads ordinary insurance requests over token and the pool in turn', () => {
    expect(new Set(Array.from({ length: 6 }, () => ordinaryToken(target)))).toEqual(
      new Set(['insurance-token-one', 'insurance-token-two', 'insurance-token-three']),
    );
  });

  it("paces a business group at the file's own limit for it, the others as documented", () => {
    const groupOf = (path: string) => client.paceKeys({ area: 'business', rateGroup: businessRateGroup(path) })[1];
    expect(groupOf('/api/private/ndfl3/requests/{taxRequestId}')).toEqual({ key: 'business:ndfl3', ...at(200) });
    expect(groupOf('/api/v1/nominal-accounts/deals')).toEqual({ key: 'business:nominal-accounts', ...at(10) });
  });
});
