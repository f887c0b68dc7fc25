/**
 * The mTLS listener of the sandbox and harness/business/mtls.ts, against a real sandbox on loopback: the target
 * file names absolute PEM files; the client certificate opens the secured operations, no certificate,
 * a certificate of another CA, or the plain listener do not; a resumed TLS session without a
 * certificate is still refused (node reports such a session as authorized).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../../../harness/errors.ts';
import { isTlsRefusal, mtlsDispatcher, mtlsFiles } from '../../../harness/business/mtls.ts';
import { loadTarget, type Target } from '../../../harness/config/target.ts';
import { makeCertificates } from '../../../sandbox/certificates.ts';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server.ts';

const SECURED = '/api/v1/nominal-accounts/deals';
let sandbox: RunningSandbox;
let target: Target;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  dir = mkdtempSync(join(tmpdir(), 'pc-mtls-'));
  target = loadTarget(sandbox.writeTarget(join(dir, 'target.yaml')));
});

afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const business = () => target.services.business as unknown as Record<string, string> & { mtls: Record<string, string> };

async function get(url: string, dispatcher?: Agent): Promise<number> {
  const res = await request(url, { headers: { authorization: `Bearer ${business().token}` }, dispatcher });
  await res.body.dump();
  return res.statusCode;
}

describe('the mTLS listener', () => {
  it('is in the target file with absolute paths to files that exist', () => {
    const { mtls, mtlsUrl, mtlsOperations } = business() as unknown as {
      mtls: Record<string, string>;
      mtlsUrl: string;
      mtlsOperations: string[];
    };
    expect(mtlsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/business$/);
    for (const key of ['cert', 'key', 'ca']) {
      expect(isAbsolute(mtls[key])).toBe(true);
      expect(existsSync(mtls[key])).toBe(true);
    }
    expect(mtlsOperations).toContain(`GET ${SECURED}`);
  });

  it('serves a secured operation with the client certificate, refuses it without one', async () => {
    expect(await get(`${business().mtlsUrl}${SECURED}`, mtlsDispatcher(target, 'with-certificate'))).toBe(200);
    expect(await get(`${business().mtlsUrl}${SECURED}`, mtlsDispatcher(target, 'without-certificate'))).toBe(403);
    expect(await get(`${business().url}${SECURED}`)).toBe(403);
  });

  it('still refuses a client without a certificate whose TLS session was resumed', async () => {
    // A first connection gets a session ticket; the next new connections resume with it.
    const agent = new Agent({ connect: { ca: readFileSync(business().mtls.ca) }, keepAliveTimeout: 1 });
    const url = `${business().mtlsUrl}${SECURED}`;
    try {
      const statuses = [await get(url, agent)];
      for (let round = 0; round < 3; round++) {
        await new Promise((r) => setTimeout(r, 100));
        statuses.push(...(await Promise.all([get(url, agent), get(url, agent), get(url, agent)])));
      }
      expect(statuses).toEqual(Array(10).fill(403));
    } finally {
      await agent.close();
    }
  });

  it('refuses a client certificate of another CA', async () => {
    const otherDir = mkdtempSync(join(tmpdir(), 'pc-other-ca-'));
    const other = await makeCertificates(otherDir, '127.0.0.1');
    const agent = new Agent({
      connect: { ca: readFileSync(business().mtls.ca), cert: readFileSync(other.clientCert), key: readFileSync(other.clientKey) },
    });
    try {
      expect(await get(`${business().mtlsUrl}${SECURED}`, agent)).toBe(403);
    } finally {
      await agent.close();
      rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it('needs no certificate for the cards list', async () => {
    expect(await get(`${business().url}/api/v1/card?limit=1`)).toBe(200);
  });
});

describe('harness/business/mtls.ts', () => {
  it('says which key is missing', () => {
    const bare = { ...target, name: 'bare', services: { business: { url: 'http://x' } } } as Target;
    expect(() => mtlsFiles(bare)).toThrow(ToolError);
    expect(() => mtlsFiles(bare)).toThrow(/services\.business\.mtls\.cert/);
  });

  it('tells a TLS refusal from other transport errors', () => {
    expect(isTlsRefusal(new Error('write EPROTO ... SSL alert number 116 (certificate required)'))).toBe(true);
    expect(isTlsRefusal(new Error('connect ECONNREFUSED 127.0.0.1:1'))).toBe(false);
  });
});
