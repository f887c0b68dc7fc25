/**
 * The harness sends through an Agent of its own undici, never the process's global dispatcher: after
 * Node's built-in fetch ran first in a worker, the global one is Node's older undici, which fails every
 * request paced at the wire ("invalid onError method"; seen when a browser test ran first in a shared
 * selftest worker).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Dispatcher, getGlobalDispatcher, request, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departingBy } from '../../harness/transport/departure.ts';

/** A global dispatcher that refuses every request, as an undici that does not know the handler API would. */
class RefusingDispatcher extends Dispatcher {
  dispatch(): boolean {
    throw new Error('the global dispatcher was used');
  }
}

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((_req, res) => res.end('ok')).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('the harness dispatcher', () => {
  it('a request paced at the wire leaves through the harness Agent whatever the global dispatcher is', async () => {
    const global = getGlobalDispatcher();
    setGlobalDispatcher(new RefusingDispatcher());
    try {
      await expect(request(url)).rejects.toThrow('the global dispatcher was used');
      let departed = 0;
      const res = await request(url, { dispatcher: departingBy(Date.now() + 10_000, (at) => (departed = at)) });
      expect([res.statusCode, await res.body.text()]).toEqual([200, 'ok']);
      expect(departed).toBeGreaterThan(0);
    } finally {
      setGlobalDispatcher(global);
    }
  });
});
