/**
 * Answers the suite must not take for a verdict: one larger than the size cap (cut off, memory
 * bounded), headers larger than the client reads (too large, not unreachable), a redirect (never followed, Location shown and redacted), a 429 that asks too much or
 * never ends (bounded wait, then TARGET_RATE_LIMITED; a burst sees the 429 as it came), and a service
 * that asks for more silence than the cap (nothing more is sent to it in the run, by any worker).
 */
import { maxHeaderSize } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileRecord } from '../../harness/runner/run-record.ts';
import { ServiceStops, type StopEvent } from '../../harness/transport/service-stops.ts';
import { tempDir } from '../helpers.ts';
import { clientFor, failureOf, get, SECRET } from './_client.ts';
import { faultServer, garbledServer, hugeServer, recordingServer, redirectServer, tooManyServer, trackedServers } from './_servers.ts';

const { track, closeAll } = trackedServers();
afterEach(closeAll);

const MiB = 1024 * 1024;
/** One read past the cap: undici hands the body over in chunks of at most 64 KiB. */
const CHUNK = 64 * 1024;

describe('an answer larger than the cap', () => {
  it('a 10 MB body streamed without a length is cut off just past 2 MiB with TARGET_RESPONSE_TOO_LARGE', async () => {
    const server = await track(hugeServer(10 * 1000 * 1000));
    const { error } = await failureOf(clientFor(server.base).send(get(server.base, '/huge')));
    expect(error.code).toBe('TARGET_RESPONSE_TOO_LARGE');
    expect(error.message).toContain(
      `GET /huge at ${server.base}: the answer (status 200) is larger than the cap of ${2 * MiB} bytes (settings.maxResponseBytes)`,
    );
    const read = Number(/cut off after (\d+) bytes/.exec(error.message)?.[1]);
    expect(read).toBeGreaterThan(2 * MiB);
    expect(read).toBeLessThanOrEqual(2 * MiB + CHUNK);
  });

  it('a 10 MB body announced by its Content-Length is refused before a byte of it is read', async () => {
    const server = await track(hugeServer(10 * 1000 * 1000, true));
    const { error } = await failureOf(clientFor(server.base).send(get(server.base)));
    expect(error.code).toBe('TARGET_RESPONSE_TOO_LARGE');
    expect(error.message).toContain('it announced Content-Length 10000000');
  });

  it('keeps memory bounded over many such answers', async () => {
    const server = await track(hugeServer(10 * 1000 * 1000));
    const client = clientFor(server.base, { maxResponseBytes: 256 * 1024 });
    const before = process.memoryUsage();
    let peak = 0;
    for (let i = 0; i < 20; i++) {
      expect((await failureOf(client.send(get(server.base)))).error.code).toBe('TARGET_RESPONSE_TOO_LARGE');
      const now = process.memoryUsage();
      peak = Math.max(peak, now.rss - before.rss);
    }
    // 20 answers of 10 MB are 200 MB on the wire; what stays in the process is a small multiple of the cap.
    expect(peak).toBeLessThan(50 * MiB);
  });

  it('the cap is a setting: a body just under it is read whole', async () => {
    const server = await track(hugeServer(100 * 1024));
    const res = await clientFor(server.base, { maxResponseBytes: 100 * 1024 }).send(get(server.base));
    expect(res.rawBody.length).toBe(100 * 1024);
  });
});

describe('headers larger than the client reads', () => {
  const many = `HTTP/1.1 200 OK\r\ncontent-length: 2\r\n${Array.from({ length: 100_000 }, (_, i) => `x-h${i}: v\r\n`).join('')}\r\n{}`;
  const long = `HTTP/1.1 200 OK\r\ncontent-length: 2\r\nx-big: ${'a'.repeat(1024 * 1024)}\r\n\r\n{}`;
  it.each([
    ['100,000 header lines', many],
    ['one header line of 1 MiB', long],
  ])('%s: TARGET_RESPONSE_TOO_LARGE naming the limit (the target was reached: not TARGET_UNREACHABLE)', async (_what, raw) => {
    const server = await track(garbledServer(raw));
    const { error } = await failureOf(clientFor(server.base).send(get(server.base, '/headers')));
    expect(error.code).toBe('TARGET_RESPONSE_TOO_LARGE');
    expect(error.message).toContain(
      `GET /headers at ${server.base}: the answer's headers are larger than the ${maxHeaderSize} bytes the client reads`,
    );
  });
});

describe('a redirect', () => {
  it('307 to another port is TARGET_REDIRECT with the Location shown, and the other port gets nothing', async () => {
    const elsewhere = await track(recordingServer());
    const server = await track(redirectServer(`${elsewhere.base}/moved`));
    const { error } = await failureOf(clientFor(server.base).send(get(server.base, '/here')));
    expect(error.code).toBe('TARGET_REDIRECT');
    expect(error.message).toBe(
      `TARGET_REDIRECT: GET /here at ${server.base} answered 307, Location: ${elsewhere.base}/moved (the suite never follows redirects)`,
    );
    expect(elsewhere.arrivals).toEqual([]);
  });

  it('the Location is redacted: a secret in it never shows', async () => {
    const server = await track(redirectServer(`https://login.example/?token=${SECRET}`, 302));
    const { error } = await failureOf(clientFor(server.base).send(get(server.base)));
    expect(error.code).toBe('TARGET_REDIRECT');
    expect(error.message).toContain('answered 302, Location: https://login.example/?token=***');
    expect(error.message).not.toContain(SECRET);
  });

  it("is the answer when the request opts in with redirects: 'capture'", async () => {
    const server = await track(redirectServer('http://127.0.0.1:1/x', 308));
    const res = await clientFor(server.base).send(get(server.base, '/x', { redirects: 'capture' }));
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe('http://127.0.0.1:1/x');
  });

  it('a 304 without a Location is an answer like any other', async () => {
    const server = await track(faultServer(() => (_req, res) => res.writeHead(304).end()));
    expect((await clientFor(server.base).send(get(server.base))).status).toBe(304);
  });
});

describe('429', () => {
  it('forever with Retry-After: 3600 is TARGET_RATE_LIMITED at once: no hour of waiting, no retries', async () => {
    const server = await track(tooManyServer({ 'retry-after': '3600' }));
    const { error, ms } = await failureOf(clientFor(server.base).send(get(server.base, '/limited')));
    expect(error.code).toBe('TARGET_RATE_LIMITED');
    expect(error.message).toContain('GET /limited at');
    expect(error.message).toContain('asking to wait 3600 s (Retry-After: 3600), more than the cap of 10000 ms (settings.maxRetryAfterMs)');
    expect(ms).toBeLessThan(1000);
    expect(server.arrivals.length).toBe(1);
  });

  it('an HTTP-date Retry-After an hour ahead is read as an hour', async () => {
    const server = await track(tooManyServer({ 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() }));
    const { error, ms } = await failureOf(clientFor(server.base).send(get(server.base)));
    expect(error.code).toBe('TARGET_RATE_LIMITED');
    expect(ms).toBeLessThan(1000);
  });

  it('an x-ratelimit-reset beyond the cap ends it the same way', async () => {
    const server = await track(tooManyServer({ 'x-ratelimit-reset': '60' }));
    const { error } = await failureOf(clientFor(server.base).send(get(server.base)));
    expect(error.message).toContain('(x-ratelimit-reset: 60)');
  });

  it('forever with a short Retry-After is waited out settings.retry429 times, then TARGET_RATE_LIMITED with the last Retry-After', async () => {
    const server = await track(tooManyServer({ 'retry-after': '0.1' }));
    const { error, ms } = await failureOf(clientFor(server.base, { retry429: 2 }).send(get(server.base)));
    expect(error.code).toBe('TARGET_RATE_LIMITED');
    expect(error.message).toContain('still answered 429 after 2 retries (settings.retry429 2) (last Retry-After: 0.1)');
    expect(server.arrivals.length).toBe(3);
    expect(ms).toBeGreaterThanOrEqual(200);
  });

  it('the cap is a setting: Retry-After 1 with maxRetryAfterMs 500 is not waited for', async () => {
    const server = await track(tooManyServer({ 'retry-after': '1' }));
    const { error } = await failureOf(clientFor(server.base, { maxRetryAfterMs: 500 }).send(get(server.base)));
    expect(error.message).toContain('more than the cap of 500 ms');
  });

  it('a burst request gets the 429 as it came, for the rate-limit tests to count', async () => {
    const server = await track(tooManyServer({ 'retry-after': '3600' }));
    const res = await clientFor(server.base).send(get(server.base, '/x', { pacing: 'burst' }));
    expect(res.status).toBe(429);
    expect(server.arrivals.length).toBe(1);
  });
});

describe('a service that asks for more silence than the cap', () => {
  /** Two clients reading one run record from two places: two workers (or two test files) of one run. */
  function twoWorkers(base: string) {
    const file = join(tempDir('pc-stops-'), 'service-stops.jsonl');
    return [0, 1].map(() => clientFor(base, {}, { stops: new ServiceStops(fileRecord<StopEvent>(file)) }));
  }

  it('is sent nothing more in the run, by any worker, rate-limit bursts included; other services still are', async () => {
    // Before: every test of every worker sent its requests anyway (162 in 20 s after the first 429), and
    // the rate-limit burst, all 429, ended as a contract failure.
    const server = await track(tooManyServer({ 'retry-after': '3600' }));
    const [first, second] = twoWorkers(server.base);
    expect((await failureOf(first.send(get(server.base, '/first')))).error.code).toBe('TARGET_RATE_LIMITED');
    expect(server.arrivals.length).toBe(1);
    for (const [client, spec] of [
      [second, get(server.base, '/paced')],
      [second, get(server.base, '/burst', { pacing: 'burst' })],
      [first, get(server.base, '/again')],
    ] as const) {
      const { error, ms } = await failureOf(client.send(spec));
      expect(error.code).toBe('TARGET_RATE_LIMITED');
      expect(error.message).toMatch(
        /: not sent; GET \/first at http:\/\/127\.0\.0\.1:\d+ answered 429 asking to wait 3600 s \(Retry-After: 3600\), more than the cap of 10000 ms \(settings\.maxRetryAfterMs\); nothing more is sent to services\.insurance for that long, as it asked$/,
      );
      expect(ms).toBeLessThan(100);
    }
    expect(server.arrivals.length).toBe(1);
    const other = await failureOf(second.send(get(server.base, '/business', { area: 'business' })));
    expect(other.error.message).not.toContain('not sent');
    expect(server.arrivals.length).toBe(2);
  });

  it('asked by a burst, stops what comes after it; the burst itself sees its 429s as they came', async () => {
    const server = await track(tooManyServer({ 'retry-after': '3600' }));
    const [first, second] = twoWorkers(server.base);
    const burst = await Promise.all([0, 1, 2].map(() => first.send(get(server.base, '/burst', { pacing: 'burst' }))));
    expect(burst.map((r) => r.status)).toEqual([429, 429, 429]);
    expect((await failureOf(second.send(get(server.base, '/pace', { pacing: 'burst' })))).error.message).toContain('/pace: not sent;');
    expect(server.arrivals.length).toBe(3);
  });

  it('is sent to again once the time it asked for has passed', () => {
    const stops = new ServiceStops();
    stops.stop('insurance', 15_000, 'asked for 15 s', 1_000);
    expect(() => stops.assertOpen('insurance', 'GET /x', 15_999)).toThrow('GET /x: not sent; asked for 15 s');
    expect(() => stops.assertOpen('insurance', 'GET /x', 16_001)).not.toThrow();
    expect(() => stops.assertOpen('business', 'GET /x', 2_000)).not.toThrow();
  });
});

describe('5xx', () => {
  it('is never retried by the client: it is the answer', async () => {
    const server = await track(faultServer(() => (_req, res) => res.writeHead(503, { 'retry-after': '0' }).end('down')));
    const res = await clientFor(server.base).send(get(server.base));
    expect(res.status).toBe(503);
    expect(server.arrivals.length).toBe(1);
  });
});
