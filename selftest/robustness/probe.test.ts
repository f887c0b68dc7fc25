/**
 * The reachability probe before the run: any HTTP answer is reachable (a drip too: its headers came);
 * a closed port, silence past the probe's deadline and garbled HTTP each give the service's tests
 * their code at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { probeServices } from '../../harness/probe.ts';
import { clientFor } from './_client.ts';
import { closedPort, dripServer, garbledServer, redirectServer, silentServer, trackedServers } from './_servers.ts';

const { track, closeAll } = trackedServers();
afterEach(closeAll);

const probe = (base: string, deadlineMs = 1000) => probeServices(clientFor(base).target, deadlineMs);

describe('the reachability probe', () => {
  it('finds a service that answers at all reachable: a drip (headers came) and a redirect alike', async () => {
    const drip = await track(dripServer(1000));
    const redirect = await track(redirectServer('http://127.0.0.1:1/'));
    expect(await probe(drip.base)).toEqual({});
    expect(await probe(redirect.base)).toEqual({});
  });

  it('a closed port: TARGET_UNREACHABLE with the cause, for every service there', async () => {
    const base = `http://127.0.0.1:${await closedPort()}`;
    const found = await probe(base);
    expect(Object.keys(found).sort()).toEqual(['business', 'insurance']);
    expect(found.insurance).toEqual({ code: 'TARGET_UNREACHABLE', message: expect.stringMatching(new RegExp(`^${base} could not be reached \\(ECONNREFUSED`)) });
  });

  it('silence: TARGET_TIMEOUT at the probe deadline', async () => {
    const silent = await track(silentServer());
    const started = performance.now();
    const found = await probe(silent.base, 500);
    expect(found.insurance).toEqual({ code: 'TARGET_TIMEOUT', message: `${silent.base} did not answer the reachability probe within 500 ms` });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('garbled HTTP: TARGET_PROTOCOL_ERROR', async () => {
    const garbled = await track(garbledServer('HTTZ/1.1 200 OK\r\n\r\n'));
    expect((await probe(garbled.base)).insurance?.code).toBe('TARGET_PROTOCOL_ERROR');
  });
});
