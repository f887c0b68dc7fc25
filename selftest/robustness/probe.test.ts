/**
 * The reachability probe before the run proves that each service can be connected to, and nothing
 * more: a closed port, a name that does not resolve and an untrusted certificate give the service's
 * tests their code at once; a service that is slow, silent, or ignores a GET of its base URL is
 * reachable, and nothing is sent to it (its tests find out the rest with their own deadline).
 */
import { createServer } from 'node:https';
import { readFileSync } from 'node:fs';
import { createServer as createNetServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { probeServices } from '../../harness/request/probe.ts';
import { makeCertificates } from '../../sandbox/certificates.ts';
import { tempDir } from '../helpers.ts';
import { clientFor } from './_client.ts';
import { closedPort, dripServer, faultServer, garbledServer, redirectServer, silentServer, trackedServers } from './_servers.ts';

const { track, closeAll } = trackedServers();
afterEach(closeAll);

const probe = (base: string, deadlineMs?: number) => probeServices(clientFor(base).target, deadlineMs);

describe('the reachability probe', () => {
  it('finds a service that answers at all reachable: a drip (headers came) and a redirect alike', async () => {
    const drip = await track(dripServer(1000));
    const redirect = await track(redirectServer('http://127.0.0.1:1/'));
    expect(await probe(drip.base)).toEqual({});
    expect(await probe(redirect.base)).toEqual({});
  });

  it('a service whose GET of the base URL hangs, or that answers nothing at all, is reachable at once and gets no request', async () => {
    // Before: one GET of the base URL with a fixed 5 s deadline decided, and such a service's tests all ended TARGET_TIMEOUT unsent.
    const postOnly = await track(faultServer(() => (req, res) => void (req.method === 'POST' && res.writeHead(201).end('{}'))));
    const silent = await track(silentServer());
    // A probe that waited for an answer would have ended in its deadline's TARGET_TIMEOUT.
    expect(await probe(postOnly.base)).toEqual({});
    expect(await probe(silent.base)).toEqual({});
    expect([...postOnly.arrivals, ...silent.arrivals]).toEqual([]);
  });

  it("gives a connection the target file's settings.timeoutMs (here a TLS handshake that never comes), not a deadline of its own", async () => {
    const sockets = new Set<Socket>();
    const stalled = createNetServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    const base = `https://127.0.0.1:${(stalled.address() as { port: number }).port}`;
    try {
      const started = performance.now();
      const found = await probeServices(clientFor(base, { timeoutMs: 2000 }).target);
      const ms = performance.now() - started;
      expect(found.insurance).toEqual({
        code: 'TARGET_TIMEOUT',
        message: `${base} did not complete a connection within 2000 ms (settings.timeoutMs)`,
      });
      // undici's connect timer ticks every half second, so the connection is given up within half a second
      // of the deadline either way (once, with other undici timers running in the process, after 506 ms of 700).
      expect(ms).toBeGreaterThan(1400);
      expect(ms).toBeLessThan(3500);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => stalled.close(() => resolve()));
    }
  });

  it('a closed port: TARGET_UNREACHABLE with the cause, for every service there', async () => {
    const base = `http://127.0.0.1:${await closedPort()}`;
    const found = await probe(base);
    expect(Object.keys(found).sort()).toEqual(['business', 'insurance']);
    expect(found.insurance).toEqual({
      code: 'TARGET_UNREACHABLE',
      message: expect.stringMatching(new RegExp(`^${base} could not be reached \\(ECONNREFUSED`)),
    });
  });

  it('a name that does not resolve: TARGET_UNREACHABLE', async () => {
    expect((await probe('http://no-such-host.invalid')).insurance).toEqual({
      code: 'TARGET_UNREACHABLE',
      message: expect.stringContaining('could not be reached (ENOTFOUND'),
    });
  });

  it('a certificate the client does not trust: TARGET_UNREACHABLE with the TLS cause, found by the handshake', async () => {
    const certificates = await makeCertificates(tempDir('pc-probe-tls-'), '127.0.0.1');
    const server = createServer({ cert: readFileSync(certificates.serverCert), key: readFileSync(certificates.serverKey) }, (_req, res) =>
      res.end('{}'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const found = await probe(`https://127.0.0.1:${(server.address() as { port: number }).port}`);
      expect(found.insurance?.code).toBe('TARGET_UNREACHABLE');
      expect(found.insurance?.message).toMatch(
        /could not be reached \((UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)/,
      );
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('garbled HTTP is found by the requests, not the probe: the connection itself was accepted', async () => {
    const garbled = await track(garbledServer('HTTZ/1.1 200 OK\r\n\r\n'));
    expect(await probe(garbled.base)).toEqual({});
    expect(garbled.arrivals).toEqual([]);
  });
});
