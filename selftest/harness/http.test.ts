/** The HTTP client against real loopback servers: capture, timeouts, unreachable targets, 429 retry, pacing and departures on time, the gate. */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../../harness/errors.ts';
import { HttpClient, type RequestSpec } from '../../harness/request/http.ts';
import { intervalMs, LATE_MS, LocalPacer, Schedules, spareOf, type Pacer } from '../../harness/request/pacer.ts';
import { Redactor } from '../../harness/secrets/redact.ts';
import { DEFAULT_SETTINGS, type Target } from '../../harness/config/target.ts';

let server: Server;
let base = '';
let hits429 = 0;
const arrivals: number[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/paced') arrivals.push(Date.now());
    if (req.url === '/json') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}');
    if (req.url === '/html') return res.writeHead(502, { 'content-type': 'text/html' }).end('<html>bad gateway</html>');
    if (req.url === '/slow') return setTimeout(() => res.end('late'), 2000);
    if (req.url === '/429-once') {
      hits429++;
      return hits429 === 1 ? res.writeHead(429, { 'retry-after': '0' }).end() : res.end('ok');
    }
    res.end('');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function client(kind: Target['kind'] = 'sandbox', timeoutMs = 1000): HttpClient {
  const redactor = new Redactor();
  redactor.register('top-secret-token');
  const target: Target = {
    file: 't.yaml',
    name: 't',
    kind,
    vendorConventions: false,
    strictPolicy: false,
    areas: ['insurance'],
    safety: { allowDestructive: false, allowMoney: false, allowBursts: false },
    settings: { ...DEFAULT_SETTINGS, timeoutMs },
    services: { insurance: { url: base } },
    redactor,
  };
  return new HttpClient(target, { pacer: new LocalPacer(), limits: { insurance: { requests: 1000, perSeconds: 1 } } });
}

const spec = (path: string, extra: Partial<RequestSpec> = {}): RequestSpec => ({
  area: 'insurance',
  operation: `GET ${path}`,
  sideEffect: 'read',
  method: 'GET',
  url: `${base}${path}`,
  ...extra,
});

describe('HttpClient', () => {
  it('captures status, headers, raw body and parsed JSON', async () => {
    const res = await client().send(spec('/json'));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json).toEqual({ a: 1 });
    expect(res.jsonError).toBeUndefined();
  });

  it('keeps a non-JSON body with the parse error', async () => {
    const res = await client().send(spec('/html'));
    expect(res.status).toBe(502);
    expect(res.rawBody).toContain('bad gateway');
    expect(res.jsonError).toMatch(/JSON/);
  });

  it('times out with TARGET_TIMEOUT naming the operation (the answer comes at 2 s: a deadline that did not end it would have let it through)', async () => {
    const error = await client('sandbox', 300)
      .send(spec('/slow'))
      .catch((e) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe('TARGET_TIMEOUT');
    expect((error as ToolError).message).toContain('GET /slow');
  });

  it('reports an unreachable target with TARGET_UNREACHABLE and the cause', async () => {
    const c = client();
    const error = await c.send({ ...spec('/x'), url: 'http://127.0.0.1:9/x' }).catch((e) => e);
    expect((error as ToolError).code).toBe('TARGET_UNREACHABLE');
    expect((error as ToolError).message).toContain('ECONNREFUSED');
  });

  it('retries a 429 honouring Retry-After, a bounded number of times', async () => {
    hits429 = 0;
    const res = await client().send(spec('/429-once'));
    expect(res.status).toBe(200);
    expect(res.retried429).toBe(1);
  });

  it('refuses before any socket opens when the gate says no', async () => {
    const error = await client('production')
      .send({ ...spec('/x'), sideEffect: 'write', method: 'POST', url: 'http://127.0.0.1:9/never' })
      .catch((e) => e);
    expect((error as ToolError).code).toBe('SAFETY_REFUSED');
  });

  it('writes a curl reproduction with secrets masked', async () => {
    const res = await client().send(
      spec('/json', { headers: { authorization: 'Bearer top-secret-token' }, json: { token: 'top-secret-token' }, method: 'POST' }),
    );
    expect(res.curl).toContain(`curl -sS -i -X POST '${base}/json'`);
    expect(res.curl).not.toContain('top-secret-token');
  });
});

describe('Schedules', () => {
  it('spaces reservations of one key evenly and never schedules in the past', () => {
    const s = new Schedules();
    const key = [{ key: 'a', intervalMs: 100 }];
    expect([s.reserve(key, 1000), s.reserve(key, 1000), s.reserve(key, 1000), s.reserve(key, 5000)]).toEqual([1000, 1100, 1200, 5000]);
  });

  it('reserves every key of a request at once, in the earliest gap that keeps each key its interval', () => {
    const s = new Schedules();
    const service = { key: 'business', intervalMs: 200 };
    const groupA = { key: 'business:a', intervalMs: 100 };
    const groupB = { key: 'business:b', intervalMs: 500 };
    expect(s.reserve([service, groupA], 0)).toBe(0);
    expect(s.reserve([service, groupB], 0)).toBe(200);
    expect(s.reserve([service, groupA], 0)).toBe(400);
    expect(s.reserve([service, groupB], 0)).toBe(700);
    // A request of group A alone takes the gap before A's slot at 400: the far-off B slot holds nothing back.
    expect(s.reserve([groupA], 0)).toBe(100);
  });

  it('keeps a span free of the other slots of its key, and frees what a settled slot did not use', () => {
    const s = new Schedules();
    const key = [{ key: 'k', intervalMs: 100 }];
    expect(s.reserve(key, 0)).toBe(0);
    // A worker that was late asks for 300 ms in which it may leave: the next slot comes an interval after.
    expect(s.reserve(key, 0, 300)).toBe(100);
    expect(s.reserve(key, 0)).toBe(500);
    // It left at 150: the rest of its span is free again.
    s.settle(key, 100, 300, 150);
    expect(s.reserve(key, 0)).toBe(250);
    // That one was never sent: its slot is free again.
    s.settle(key, 250, 0);
    expect(s.reserve(key, 0)).toBe(250);
  });

  it('lets a late request take a spare request of a window where its key has one, moving nothing, and keeps every window at the share', () => {
    const limit = { requests: 100, perSeconds: 1 };
    const key = { key: 'k', intervalMs: intervalMs(limit, 0.5), windowMs: 1000, spare: spareOf(limit, 0.5) };
    expect(key.spare).toBe(2);
    const s = new Schedules();
    const ranges: Array<[number, number]> = [];
    let now = 0;
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 400; i++) {
      now += random() * 30;
      const span = random() < 0.15 ? 50 + random() * 800 : 0;
      const slot = s.reserve([key], now, span);
      expect(slot).toBeGreaterThanOrEqual(now);
      // Where a request may leave: anywhere from its slot to the end of its span and LATE_MS.
      ranges.push([slot, slot + span + LATE_MS]);
    }
    // Spare spans were taken at once, in the middle of the evenly spaced slots.
    expect(
      ranges.filter(([from, to]) => to - from > LATE_MS && ranges.some(([a, b]) => b - a === LATE_MS && a > from && a < to)).length,
    ).toBeGreaterThan(0);
    // The most requests any one-second window could hold, whatever each one's departure within its range.
    const starts = ranges.flatMap(([from, to]) => [from - 1000 + 1e-6, to - 1e-6]);
    const most = Math.max(...starts.map((x) => ranges.filter(([from, to]) => from < x + 1000 && to > x).length));
    expect(most).toBeLessThanOrEqual(50);
  });

  it('gives the share its due: 10/s at 0.5 has no spare, 1000/s has 22, 200 a minute 9', () => {
    expect(spareOf({ requests: 10, perSeconds: 1 }, 0.5)).toBe(0);
    expect(spareOf({ requests: 1000, perSeconds: 1 }, 0.5)).toBe(22);
    expect(spareOf({ requests: 200, perSeconds: 60 }, 0.5)).toBe(9);
  });

  it('never puts two slots of one key closer than its interval, however requests of the keys interleave', () => {
    const s = new Schedules();
    // Real intervals are fractions (2.2, 220.00000000000003): a slot moved past a clash must not clash again.
    const keys = [
      { key: 'svc', intervalMs: intervalMs({ requests: 1000, perSeconds: 1 }, 0.5) },
      { key: 'g1', intervalMs: intervalMs({ requests: 10, perSeconds: 1 }, 0.5) },
      { key: 'g2', intervalMs: intervalMs({ requests: 3, perSeconds: 1 }, 0.5) },
      { key: 'g3', intervalMs: intervalMs({ requests: 40, perSeconds: 1 }, 0.5) },
    ];
    const taken = new Map<string, number[]>();
    // At Date.now() magnitudes, where (slot + interval) - slot rounds: a reservation must still end.
    let now = Date.parse('2026-11-24T04:00:00Z');
    for (let i = 0; i < 300; i++) {
      now += (i * 37) % 90;
      const group = keys[1 + (i % 3)];
      const request = i % 5 === 0 ? [group] : [keys[0], group];
      const slot = s.reserve(request, now);
      expect(slot).toBeGreaterThanOrEqual(now);
      for (const k of request) taken.set(k.key, [...(taken.get(k.key) ?? []), slot]);
    }
    for (const k of keys) {
      const sorted = [...(taken.get(k.key) ?? [])].sort((a, b) => a - b);
      for (let i = 1; i < sorted.length; i++) expect(sorted[i] - sorted[i - 1], k.key).toBeGreaterThanOrEqual(k.intervalMs - 1e-3);
    }
  });
});

describe('intervalMs', () => {
  it('allows whole requests per window at the fraction, with a guard for jitter on the wire', () => {
    expect(intervalMs({ requests: 10, perSeconds: 1 }, 0.5)).toBeCloseTo(220);
    expect(intervalMs({ requests: 3, perSeconds: 1 }, 0.5)).toBeCloseTo(1100);
    expect(intervalMs({ requests: 1, perSeconds: 1 }, 0.5)).toBeCloseTo(2200);
    expect(intervalMs({ requests: 200, perSeconds: 60 }, 0.5)).toBeCloseTo(660);
  });
});

describe('a paced request and its slot', () => {
  it('is not sent when its worker was busy past the slot: it gives the slot up and leaves on a new one', async () => {
    const paced = client();
    const limit = { requests: 10, perSeconds: 1 };
    const local = new LocalPacer();
    const asked: number[] = [];
    const pacer: Pacer = {
      wait: (keys, signal, spanMs = 0) => (asked.push(spanMs), local.wait(keys, signal, spanMs)),
      settle: (...args) => local.settle(...args),
    };
    const keyed = new HttpClient(paced.target, { pacer, limits: { insurance: limit } });
    const interval = intervalMs(limit, DEFAULT_SETTINGS.paceFraction);
    const before = arrivals.length;
    await keyed.send(spec('/paced'));
    const first = Date.now();
    const second = keyed.send(spec('/paced'));
    while (Date.now() - first < interval + LATE_MS + 100) {
      // The worker is busy past its slot: its timer fires late, and the request must not leave then.
    }
    await second;
    const [a, b] = arrivals.slice(before);
    // The late slot was given up (nothing sent then); the request went on a new one, with a span as wide
    // as the lateness it showed, still an interval after the first.
    expect(asked).toEqual([0, 0, expect.any(Number)]);
    expect(asked[2]).toBeGreaterThanOrEqual(2 * (LATE_MS + 100));
    expect(b - a).toBeGreaterThanOrEqual(interval - 10);
  });

  it('gets through a worker that is always late, on a slot with a span as wide as it showed it needs', async () => {
    const local = new LocalPacer();
    const spans: number[] = [];
    // Every wake-up comes 100 ms after the slot, as on a machine too busy for its workers.
    const late: Pacer = {
      async wait(keys, signal, spanMs = 0) {
        spans.push(spanMs);
        const slot = await local.wait(keys, signal, spanMs);
        await new Promise((r) => setTimeout(r, slot + 100 - Date.now()));
        return slot;
      },
      settle: (...args) => local.settle(...args),
    };
    const keyed = new HttpClient(client().target, { pacer: late, limits: { insurance: { requests: 1000, perSeconds: 1 } } });
    const before = arrivals.length;
    await keyed.send(spec('/paced'));
    expect(arrivals.length).toBe(before + 1);
    // Late once with no span (nothing sent), then sent within the span it asked for.
    expect(spans[0]).toBe(0);
    expect(spans.length).toBe(2);
    expect(spans[1]).toBeGreaterThanOrEqual(200);
  });

  it('never leaves late: a worker that cannot keep time even so ends the request as a SUITE_ERROR, nothing sent', async () => {
    const local = new LocalPacer();
    // Every wake-up comes ten seconds after the slot and its span.
    const late: Pacer = {
      async wait(keys, signal, spanMs = 0) {
        return (await local.wait(keys, signal, spanMs)) - spanMs - 10_000;
      },
      settle: (keys, slot, spanMs, departedAt) => local.settle(keys, slot + spanMs + 10_000, spanMs, departedAt),
    };
    const keyed = new HttpClient(client().target, { pacer: late, limits: { insurance: { requests: 1000, perSeconds: 1 } } });
    const before = arrivals.length;
    const error = await keyed.send(spec('/paced')).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe('SUITE_ERROR');
    expect((error as ToolError).message).toMatch(/could not send it within 50 ms of its pacing slot/);
    expect(arrivals.length).toBe(before);
  });
});
