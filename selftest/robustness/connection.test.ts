/**
 * Connections that fail: a closed port, a target that dies mid-run (given up on after three
 * consecutive failures, counted for the whole run across workers and files, so the rest of the run
 * does not pay a deadline per request), garbled HTTP and
 * a connection closed mid-body. Each ends as a tool error with the cause, never as an answer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { fileRecord } from '../../harness/runner/run-record.ts';
import { GIVE_UP_AFTER, OriginHealth, type HealthEvent } from '../../harness/transport/origin-health.ts';
import { tempDir } from '../helpers.ts';
import { clientFor, failureOf, get } from './_client.ts';
import { closedPort, faultServer, garbledServer, trackedServers, type FaultServer } from './_servers.ts';

const { track, closeAll } = trackedServers();
afterEach(closeAll);

type Health = 'ok' | 'silent' | 'drip';

/** Answers 200 `{}` while `health.mode` is ok; then falls silent (a host gone behind a firewall) or drips its body. */
async function dyingServer(): Promise<{ server: FaultServer; health: { mode: Health } }> {
  const health = { mode: 'ok' as Health };
  const server = await track(
    faultServer(() => (_req, res) => {
      if (health.mode === 'ok') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      if (health.mode === 'drip') res.writeHead(200).write('{');
    }),
  );
  return { server, health };
}

describe('an origin nobody listens on', () => {
  it('fails with TARGET_UNREACHABLE and the cause in well under a second', async () => {
    const base = `http://127.0.0.1:${await closedPort()}`;
    const { error, ms } = await failureOf(clientFor(base).send(get(base, '/closed')));
    expect(error.code).toBe('TARGET_UNREACHABLE');
    expect(error.message).toContain(`GET /closed: could not reach ${base} (ECONNREFUSED`);
    expect(ms).toBeLessThan(1000);
  });
});

describe('a target that dies mid-run', () => {
  it('is given up on after three consecutive timeouts: the next request fails at once, sending nothing', async () => {
    const { server, health } = await dyingServer();
    const client = clientFor(server.base, { timeoutMs: 300 });
    expect((await client.send(get(server.base, '/alive'))).status).toBe(200);
    health.mode = 'silent';
    for (let i = 0; i < GIVE_UP_AFTER; i++)
      expect((await failureOf(client.send(get(server.base, `/t${i}`)))).error.code).toBe('TARGET_TIMEOUT');
    const sent = server.arrivals.length;
    const { error, ms } = await failureOf(client.send(get(server.base, '/after')));
    expect(error.code).toBe('TARGET_TIMEOUT');
    expect(error.message).toContain(
      `GET /after: not sent; gave up on ${server.base} after 3 consecutive failures (last: GET /t2 at ${server.base} did not answer in full`,
    );
    expect(ms).toBeLessThan(100);
    expect(server.arrivals.length).toBe(sent);
  });

  it('counts a body that drips past the deadline as a failure, though its headers came', async () => {
    const { server, health } = await dyingServer();
    const client = clientFor(server.base, { timeoutMs: 300 });
    health.mode = 'drip';
    for (let i = 0; i < GIVE_UP_AFTER; i++) await failureOf(client.send(get(server.base)));
    const { error, ms } = await failureOf(client.send(get(server.base)));
    expect(error.message).toContain('gave up on');
    expect(ms).toBeLessThan(100);
  });

  it('is given up on after three refused connections, with TARGET_UNREACHABLE', async () => {
    const { server } = await dyingServer();
    const client = clientFor(server.base);
    expect((await client.send(get(server.base))).status).toBe(200);
    await server.close();
    for (let i = 0; i < GIVE_UP_AFTER; i++) expect((await failureOf(client.send(get(server.base)))).error.code).toBe('TARGET_UNREACHABLE');
    const { error } = await failureOf(client.send(get(server.base)));
    expect(error.message).toMatch(
      /^TARGET_UNREACHABLE: GET \/x: not sent; gave up on .* after 3 consecutive failures \(last: GET \/x: could not reach .* \(ECONNREFUSED/,
    );
  });

  it('is given up on for the whole run: after three failures in one worker (or file), another sends nothing to it', async () => {
    // Before: each test file and each worker counted on its own, so a dripping target cost three deadlines per file.
    const { server, health } = await dyingServer();
    const record = join(tempDir('pc-health-'), 'origin-health.jsonl');
    const [one, other] = [0, 1].map(() =>
      clientFor(server.base, { timeoutMs: 200 }, { health: new OriginHealth(fileRecord<HealthEvent>(record)) }),
    );
    health.mode = 'drip';
    for (let i = 0; i < GIVE_UP_AFTER; i++)
      expect((await failureOf(one.send(get(server.base, `/t${i}`)))).error.code).toBe('TARGET_TIMEOUT');
    const sent = server.arrivals.length;
    for (const spec of [get(server.base, '/paced'), get(server.base, '/burst', { pacing: 'burst' })]) {
      const { error, ms } = await failureOf(other.send(spec));
      expect(error.message).toMatch(/: not sent; gave up on .* after 3 consecutive failures \(last: GET \/t2 at /);
      expect(ms).toBeLessThan(100);
    }
    expect(server.arrivals.length).toBe(sent);
  });

  it('counts failures across workers as one sequence: a whole answer in one resets the count in all', async () => {
    const { server, health } = await dyingServer();
    const record = join(tempDir('pc-health-'), 'origin-health.jsonl');
    const [one, other] = [0, 1].map(() =>
      clientFor(server.base, { timeoutMs: 200 }, { health: new OriginHealth(fileRecord<HealthEvent>(record)) }),
    );
    health.mode = 'silent';
    await failureOf(one.send(get(server.base)));
    await failureOf(other.send(get(server.base)));
    health.mode = 'ok';
    expect((await one.send(get(server.base))).status).toBe(200);
    health.mode = 'silent';
    await failureOf(other.send(get(server.base)));
    await failureOf(one.send(get(server.base)));
    health.mode = 'ok';
    expect((await other.send(get(server.base))).status).toBe(200);
  });

  it('is not given up on while whole answers still come between failures', async () => {
    const { server, health } = await dyingServer();
    const client = clientFor(server.base, { timeoutMs: 200 });
    for (let round = 0; round < 2; round++) {
      health.mode = 'silent';
      for (let i = 0; i < GIVE_UP_AFTER - 1; i++) await failureOf(client.send(get(server.base)));
      health.mode = 'ok';
      expect((await client.send(get(server.base))).status).toBe(200);
    }
  });
});

describe('garbled HTTP', () => {
  it('a status line that is not HTTP is a TARGET_PROTOCOL_ERROR with the parser cause', async () => {
    const server = await track(garbledServer('HTTZ/1.1 200 OK\r\n\r\nhello'));
    const { error } = await failureOf(clientFor(server.base).send(get(server.base, '/garbled')));
    expect(error.code).toBe('TARGET_PROTOCOL_ERROR');
    expect(error.message).toContain(`GET /garbled: ${server.base} answered with something that is not valid HTTP (HTTPParserError`);
  });

  it('a Content-Length that is not a number is a TARGET_PROTOCOL_ERROR', async () => {
    const server = await track(garbledServer('HTTP/1.1 200 OK\r\nContent-Length: zz\r\n\r\nhello'));
    expect((await failureOf(clientFor(server.base).send(get(server.base)))).error.code).toBe('TARGET_PROTOCOL_ERROR');
  });

  it('a connection closed mid-body is a TARGET_PROTOCOL_ERROR saying how far the body came', async () => {
    const server = await track(garbledServer('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"partial":'));
    const { error } = await failureOf(clientFor(server.base).send(get(server.base)));
    expect(error.code).toBe('TARGET_PROTOCOL_ERROR');
    expect(error.message).toMatch(/status 200 came, then 11 byte\(s\) of the body/);
  });

  it('a connection closed before any answer is TARGET_UNREACHABLE with the cause', async () => {
    const server = await track(garbledServer(''));
    const { error } = await failureOf(clientFor(server.base).send(get(server.base)));
    expect(error.code).toBe('TARGET_UNREACHABLE');
    expect(error.message).toMatch(/broke before an answer \(UND_ERR_SOCKET: other side closed/);
  });
});
