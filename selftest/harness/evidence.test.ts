/**
 * The evidence of a run: what the HTTP client records of each exchange (redacted, bodies cut and marked),
 * which test it belongs to (the one that made it, and every one that judged it: a control made by another
 * test), how the records reach the reports as HAR 1.2 with each test's references, and how shard reports
 * merge. Against a real loopback server.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, type RequestSpec } from '../../harness/request/http.ts';
import { LocalPacer } from '../../harness/request/pacer.ts';
import { Redactor } from '../../harness/secrets/redact.ts';
import { cite, RecordedExchange, shipEvidence, type ShippedEvidence } from '../../harness/report/evidence-log.ts';
import { EVIDENCE_DIR, mergeEvidence, RunEvidence, writeEvidence } from '../../harness/report/evidence.ts';
import { BODY_CAP_BYTES } from '../../harness/report/exchange-record.ts';
import { summaryOf } from '../../harness/report/records.ts';
import { DEFAULT_SETTINGS, type Target } from '../../harness/config/target.ts';
import { TestEvidence, withTestScope } from '../../harness/runner/test-scope.ts';
import { tempDir } from '../helpers.ts';
import { record } from '../certify/_records.ts';

const SECRET = 'Evid3nce~secret!';
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/big')
        return res.writeHead(200, { 'content-type': 'text/plain' }).end(`${'a'.repeat(BODY_CAP_BYTES - 8)}${SECRET}${'b'.repeat(100)}`);
      if (req.url === '/slow') return setTimeout(() => res.end('late'), 2000);
      res
        .writeHead(201, { 'content-type': 'application/json', 'set-cookie': 'session=abc123', 'x-echo': body.length ? 'body' : 'none' })
        .end(JSON.stringify({ echo: body, token: 'sample-token-value' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function client(timeoutMs = 5000): HttpClient {
  const redactor = new Redactor();
  redactor.register(SECRET);
  const target: Target = {
    file: 't.yaml',
    name: 't',
    kind: 'sandbox',
    vendorConventions: false,
    strictPolicy: false,
    areas: ['insurance', 'invest'],
    safety: { allowDestructive: false, allowMoney: false, allowBursts: false },
    settings: { ...DEFAULT_SETTINGS, timeoutMs },
    services: { insurance: { url: base }, invest: { url: base } },
    redactor,
  };
  return new HttpClient(target, {
    pacer: new LocalPacer(),
    limits: { insurance: { requests: 1000, perSeconds: 1 }, invest: { requests: 1000, perSeconds: 1 } },
  });
}

const post = (path: string, extra: Partial<RequestSpec> = {}): RequestSpec => ({
  area: 'insurance',
  operation: `POST ${path}`,
  sideEffect: 'write',
  method: 'POST',
  url: `${base}${path}`,
  headers: { authorization: `Bearer ${SECRET}`, 'x-api-key': 'unregistered-key-1' },
  json: { secret: SECRET, n: 1 },
  ...extra,
});

/** Runs `body` as a test would (in a test scope with its own evidence) and returns what the test hands over. */
async function asTest(body: () => Promise<unknown>): Promise<ShippedEvidence> {
  const evidence = new TestEvidence();
  await withTestScope({ signal: new AbortController().signal, requirement: 'INS-LIM-002', evidence }, body).catch(() => undefined);
  return shipEvidence(evidence)!;
}

describe('recording an exchange', () => {
  it('keeps method, URL, headers and bodies of both sides and timings, every credential masked', async () => {
    const shipped = await asTest(() => client().send(post('/create')));
    expect(shipped.cited).toHaveLength(1);
    const [rec] = shipped.records.filter((r) => r.id === shipped.cited[0][0]);
    expect(rec.request.method).toBe('POST');
    expect(rec.request.url).toBe(`${base}/create`);
    expect(rec.request.headers).toEqual(
      expect.arrayContaining([
        ['authorization', 'Bearer ***'],
        ['x-api-key', '***'],
        ['content-type', 'application/json'],
      ]),
    );
    expect(rec.request.body?.text).toBe('{"secret":"***","n":1}');
    expect(rec.response?.status).toBe(201);
    expect(rec.response?.headers).toEqual(
      expect.arrayContaining([
        ['set-cookie', '***'],
        ['x-echo', 'body'],
      ]),
    );
    expect(rec.response?.body?.text).not.toContain('Evid3nce');
    expect(rec.waitMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(shipped)).not.toMatch(/Evid3nce|unregistered-key-1|abc123/);
  });

  it('keeps every header when a mask of one runs past its line (a scheme without a token)', async () => {
    const shipped = await asTest(() =>
      client().send(post('/create', { headers: { authorization: 'Bearer ', 'content-type': 'application/json', 'x-request-id': 'r-1' } })),
    );
    const rec = shipped.records.find((r) => r.id === shipped.cited[0][0])!;
    expect(rec.request.headers).toEqual([
      ['authorization', 'Bearer '],
      ['content-type', 'application/json'],
      ['x-request-id', 'r-1'],
    ]);
  });

  it('cuts a body at the cap, says where, and masks a secret the cut went through', async () => {
    const shipped = await asTest(() => client().send({ ...post('/big'), json: undefined }));
    const body = shipped.records.find((r) => r.id === shipped.cited[0][0])!.response!.body!;
    // The cut keeps 8 characters of the secret: the redactor masks a part of at least 6 next to the mark.
    expect(body.bytes).toBe(BODY_CAP_BYTES + SECRET.length - 8 + 100);
    expect(body.cutAt).toBe(BODY_CAP_BYTES);
    const end = body.text.slice(-100);
    expect(end).toMatch(/a\*\*\*…\[cut here by partner-conformance: the first 65536 of \d+ bytes are kept\]$/);
    expect(end).not.toContain('Evid3');
  });

  it('cites no attempt that was withdrawn (a paced request stopped at the wire, nothing sent), only the one sent', async () => {
    const sent = { area: 'insurance', operation: 'POST /late', method: 'POST', url: `${base}/late`, headers: {}, pacedMs: 0 };
    const shipped = await asTest(async () => {
      new RecordedExchange(sent, new Redactor()).withdraw();
      new RecordedExchange(sent, new Redactor()).failed('TARGET_TIMEOUT: no answer');
    });
    expect(shipped.cited).toHaveLength(1);
    expect(shipped.records.map((r) => r.id)).toEqual([shipped.cited[0][0]]);
  });

  it('keeps an exchange that got no answer, with why', async () => {
    const shipped = await asTest(() => client(200).send({ ...post('/slow'), json: undefined }));
    const rec = shipped.records.find((r) => r.id === shipped.cited[0][0])!;
    expect(rec.response).toBeUndefined();
    expect(rec.error).toMatch(/^TARGET_TIMEOUT/);
  });

  it('makes an answer another test made, or a hook, evidence of each test that reads it, a control with its role', async () => {
    const http = client();
    const shared = await http.send(post('/control'));
    const first = await asTest(async () => shared.status);
    const second = await asTest(async () => cite(shared, 'control'));
    expect(first.cited).toEqual([[shared.exchangeId, undefined]]);
    expect(second.cited).toEqual([[shared.exchangeId, 'control']]);
    // The record travels once, with the first test that ends after it was made.
    expect(first.records.map((r) => r.id)).toContain(shared.exchangeId);
    expect(second.records.map((r) => r.id)).not.toContain(shared.exchangeId);
  });
});

describe('evidence in the reports', () => {
  it("writes one HAR 1.2 file per area, entries in the order they started, and each test's references", async () => {
    const http = client();
    const a = await asTest(() => http.send(post('/a')));
    const b = await asTest(async () => {
      await http.send({ ...post('/b'), area: 'invest' });
      await http.send(post('/c'));
    });
    const run = new RunEvidence();
    run.collect(a);
    run.collect(b);
    const out = run.render();
    expect(out.index.files.map((f) => [f.file, f.entries])).toEqual([
      ['evidence/insurance.har', 2],
      ['evidence/invest.har', 1],
    ]);
    expect(run.referencesOf(a)).toEqual({ evidence: ['evidence/insurance.har#e1'] });
    expect(run.referencesOf(b)).toEqual({ evidence: ['evidence/invest.har#e1', 'evidence/insurance.har#e2'] });

    const har = JSON.parse(out.files.find((f) => f.file === 'evidence/insurance.har')!.text);
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('partner-conformance');
    const entry = har.log.entries[1];
    expect(entry._id).toBe('e2');
    expect(entry.request).toMatchObject({
      method: 'POST',
      url: `${base}/c`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      queryString: [],
      headersSize: -1,
      postData: { mimeType: 'application/json' },
    });
    expect(entry.response).toMatchObject({
      status: 201,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      redirectURL: '',
      content: { mimeType: 'application/json' },
    });
    for (const key of ['send', 'wait', 'receive', 'blocked']) expect(typeof entry.timings[key]).toBe('number');
    expect(Date.parse(entry.startedDateTime)).toBeGreaterThan(0);
    expect(entry.time).toBeGreaterThanOrEqual(entry.timings.wait);
  });

  it('merges the evidence of shard reports into one set, numbered anew, with every reference rewritten', async () => {
    const http = client();
    const shards = [];
    for (const path of ['/one', '/two']) {
      const shipped = await asTest(() => http.send(post(path)));
      const run = new RunEvidence();
      run.collect(shipped);
      const out = run.render();
      const dir = tempDir('pc-evidence-shard-');
      writeEvidence(dir, out);
      const summary = { ...summaryOf([record('INS-LIM-002', { row: path, ...run.referencesOf(shipped) })], {}), evidence: out.index };
      writeFileSync(join(dir, 'conformance.json'), JSON.stringify(summary));
      shards.push({ path: dir, summary });
    }
    const merged = mergeEvidence(shards);
    expect(merged.parts.map((p) => p.summary.tests[0].evidence)).toEqual([['evidence/insurance.har#e1'], ['evidence/insurance.har#e2']]);
    const entries = JSON.parse(merged.evidence!.files[0].text).log.entries;
    expect(entries.map((e: { _id: string; request: { url: string } }) => [e._id, new URL(e.request.url).pathname])).toEqual([
      ['e1', '/one'],
      ['e2', '/two'],
    ]);
  });

  it('replaces the evidence of an earlier run in a report folder', () => {
    const dir = tempDir('pc-evidence-');
    mkdirSync(join(dir, EVIDENCE_DIR));
    writeFileSync(join(dir, EVIDENCE_DIR, 'old.har'), '{}');
    writeEvidence(dir, {
      index: { format: 'HAR 1.2', bodyCapBytes: BODY_CAP_BYTES, files: [] },
      files: [{ file: 'evidence/insurance.har', text: '{"log":{}}' }],
    });
    expect(() => readFileSync(join(dir, EVIDENCE_DIR, 'old.har'))).toThrow();
    expect(readFileSync(join(dir, 'evidence/insurance.har'), 'utf8')).toBe('{"log":{}}');
  });
});
