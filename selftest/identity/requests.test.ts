/**
 * The userinfo request as the suite sends it, against a real loopback server that decodes it the way a
 * form parser does: every generated variation must carry the same client_id, client_secret and token
 * (or the property of IDN-GEN-001 would test something else than it claims), and no secret, plain,
 * percent-encoded or a near miss, may reach a curl line. Also: the sandbox's target section loads and
 * registers every identity secret, the nested tokens included.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../harness/request/http.ts';
import { LocalPacer } from '../../harness/request/pacer.ts';
import type { RequirementContext } from '../../harness/test/suite.ts';
import { loadTarget, type Target } from '../../harness/config/target.ts';
import { describeVariation, requestVariation } from '../../generators/identity/userinfo.ts';
import { freshlyEncoded } from '../../harness/identity/requests.ts';
import { startSandbox } from '../../sandbox/server.ts';
import { sendUserinfo, nearMissOf, peopleOf } from '../../harness/identity/client.ts';
import { tempDir } from '../helpers.ts';

const SECRET = 'sëcret/with+odd&chars=%';
const TOKEN = 'tok-abc.DEF_123~';
let server: Server;
let base = '';

interface Seen {
  authorization?: string;
  contentType?: string;
  fields: Array<[string, string]>;
}

async function read(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const seen: Seen = {
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      fields: [...new URLSearchParams(await read(req))],
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(seen));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function context(identity: Record<string, unknown>): RequirementContext {
  const path = join(tempDir(), 'target.yaml');
  writeFileSync(path, stringify({ name: 't', kind: 'staging', services: { identity: { url: `${base}/id`, ...identity } } }));
  const target: Target = loadTarget(path, {});
  const client = new HttpClient(target, { pacer: new LocalPacer(), limits: { identity: { requests: 10_000, perSeconds: 1 } } });
  return {
    target,
    client,
    seed: 1,
    runs: 1,
    shrink: false,
    id: 'IDN-X',
    title: 'x',
    signal: new AbortController().signal,
    budget: { allowanceMs: 60_000, usedMs: () => 0 },
    expectNone: () => undefined,
    property: async () => undefined,
    control: async () => {
      throw new Error('no control in this unit test');
    },
  };
}

describe('sendUserinfo', () => {
  const t = () => context({ accessToken: TOKEN, clientId: 'partner client', clientSecret: SECRET });

  it('sends the same token and fields under every generated variation', async () => {
    const ctx = t();
    await fc.assert(
      fc.asyncProperty(requestVariation(), async (v) => {
        const res = await sendUserinfo(ctx, { variation: v });
        const seen = res.json as Seen;
        const fields = Object.fromEntries(seen.fields);
        expect(fields.client_id, describeVariation(v)).toBe('partner client');
        expect(fields.client_secret, describeVariation(v)).toBe(SECRET);
        expect(seen.fields).toHaveLength(v.extraField ? 3 : 2);
        expect(seen.authorization).toBe(`${v.scheme} ${TOKEN}`);
        expect(seen.authorization!.split(' ')[0].toLowerCase()).toBe('bearer');
        expect(seen.contentType!.split(';')[0]).toBe('application/x-www-form-urlencoded');
        expect(seen.fields[0][0]).toBe(v.secretFirst ? 'client_secret' : 'client_id');
      }),
      { numRuns: 60 },
    );
  });

  it('sends client_id in fresh bytes on every request, decoded to the same text', async () => {
    const ctx = context({ accessToken: TOKEN, clientId: 'partner-client-0001', clientSecret: SECRET });
    const bodies = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const res = await sendUserinfo(ctx);
      bodies.add(res.request.bodyText!);
      expect(Object.fromEntries((res.json as Seen).fields)).toEqual({ client_id: 'partner-client-0001', client_secret: SECRET });
    }
    expect(bodies.size).toBe(20);
    for (const encoded of ['dev-idn-partner-client', '%64%65%76', 'a%2Bb+c']) {
      for (let i = 0; i < 20; i++) expect(decodeURIComponent(freshlyEncoded(encoded))).toBe(decodeURIComponent(encoded));
    }
  });

  it('leaves a field out when asked, and sends JSON when asked', async () => {
    const ctx = t();
    const without = (await sendUserinfo(ctx, { clientId: null })).json as Seen;
    expect(without.fields.map(([k]) => k)).toEqual(['client_secret']);
    const none = (await sendUserinfo(ctx, { token: null, clientId: null, clientSecret: null })).json as Seen;
    expect(none).toMatchObject({ fields: [] });
    expect(none.authorization).toBeUndefined();
    const json = (await sendUserinfo(ctx, { asJson: true })).json as Seen;
    expect(json.contentType).toBe('application/json');
  });

  it('masks the secret in the curl line, plain, percent-encoded or a near miss', async () => {
    const ctx = t();
    const encoded = await sendUserinfo(ctx, { variation: { scheme: 'bEARER', secretFirst: false, charset: true, percentEncodeAll: true } });
    expect(encoded.request.bodyText).toContain('%73'); // the 's' of the secret, encoded
    const miss = nearMissOf(ctx, SECRET);
    const near = await sendUserinfo(ctx, { clientSecret: miss });
    for (const res of [encoded, near]) {
      expect(res.curl).not.toContain(TOKEN);
      expect(res.curl).not.toContain(encodeURIComponent(SECRET));
      expect(res.curl).not.toContain(miss);
      expect(res.curl).not.toContain(encodeURIComponent(miss));
      expect(res.curl).not.toMatch(/%73%C3%AB%63/);
    }
  });
});

describe('the sandbox target section', () => {
  it('loads, lists the pool after the main user, and registers every identity secret', async () => {
    const sandbox = await startSandbox();
    try {
      const path = sandbox.writeTarget(join(tempDir(), 'target.yaml'));
      const target = loadTarget(path);
      const identity = target.services.identity as unknown as Record<string, unknown> & { tokens: Record<string, unknown> };
      const secrets = [
        identity.accessToken,
        identity.clientSecret,
        identity.nonPartnerClientSecret,
        ...(identity.tokens.people as string[]),
        ...['withoutProfile', 'withoutPhone', 'withoutEmail', 'withoutConsent', 'nonPartner'].map((k) => identity.tokens[k]),
      ] as string[];
      expect(secrets.every((s) => typeof s === 'string' && s.length > 0)).toBe(true);
      for (const s of secrets) expect(target.redactor.redact(`x ${s} y`)).toBe('x *** y');
      const people = peopleOf({ target } as RequirementContext);
      expect(people.length).toBe(1 + (identity.tokens.people as string[]).length);
      expect(people[0].token).toBe(identity.accessToken);
    } finally {
      await sandbox.close();
    }
  });
});
