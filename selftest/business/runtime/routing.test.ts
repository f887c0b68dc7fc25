/**
 * The runtime part's catch-all must not swallow the routes a specific part registers before it (the
 * 3-NDFL part: /api/private/ndfl3/... and /api/v1/ndfl-3/...), and must still answer what that part
 * leaves out, including paths that start like one of its routes and go further.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVariations } from '../../../sandbox/faults/index.ts';
import { FaultSet } from '../../../sandbox/faults/types.ts';
import { register } from '../../../sandbox/services/business/runtime/index.ts';
import type { ServiceContext } from '../../../sandbox/types.ts';

const TOKEN = 'selftest-business-token';
const TAX_REQUEST = '7281a882-3498-400c-8715-70b7a2d8dff0';
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  const ctx: ServiceContext = {
    faults: new FaultSet(new Map((await loadVariations()).map((f) => [f.id, f])), []),
    credentials: { business: { token: TOKEN, tokenWithoutScope: 'selftest-token-without-scope' } },
    workDir: '/nonexistent',
  };
  app = Fastify();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  await app.register(
    async (scope) => {
      // Stand-ins for the specific part: a parametric route of each 3-NDFL prefix, registered first.
      scope.get('/api/private/ndfl3/requests/:taxRequestId', async () => ({ from: 'specific part', route: 'request' }));
      scope.post('/api/v1/ndfl-3/requests/:taxRequestId/tax-form/upload', async () => ({ from: 'specific part', route: 'upload' }));
      register(scope, ctx);
    },
    { prefix: '/business' },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/business`;
});

afterAll(() => app.close());

async function call(method: 'GET' | 'POST', path: string) {
  const res = await request(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: method === 'POST' ? '{}' : undefined,
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

describe('the catch-all and the routes of a specific part', () => {
  it('leaves the specific routes to their part', async () => {
    expect(await call('GET', `/api/private/ndfl3/requests/${TAX_REQUEST}`)).toEqual({
      status: 200,
      body: { from: 'specific part', route: 'request' },
    });
    expect(await call('POST', `/api/v1/ndfl-3/requests/${TAX_REQUEST}/tax-form/upload`)).toEqual({
      status: 200,
      body: { from: 'specific part', route: 'upload' },
    });
  });

  it('answers a longer path that begins like a specific route (the router backtracks to the wildcard)', async () => {
    const res = await call('GET', `/api/private/ndfl3/requests/${TAX_REQUEST}/declaration/structure`);
    expect(res.body.from).toBeUndefined();
    expect(res.status).toBe(200);
    expect(res.body.taxRequestId).toBe(TAX_REQUEST);
  });

  it('answers the operations no specific part registered, and 404 with the business error body for unknown paths', async () => {
    expect((await call('GET', '/api/v1/company')).status).toBe(200);
    const unknown = await call('GET', '/api/v1/no-such-operation');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ errorCode: 'NOT_FOUND', errorId: expect.any(String), errorMessage: expect.any(String) });
  });

  it('answers 405 with Allow for a documented path and an undocumented method', async () => {
    const res = await request(`${base}/api/v1/card`, { method: 'DELETE', headers: { authorization: `Bearer ${TOKEN}` } });
    await res.body.dump();
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
  });
});
