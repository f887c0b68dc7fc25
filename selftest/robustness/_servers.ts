/**
 * Small fault servers on loopback, each misbehaving in one way a real target can: a body that drips,
 * silence, an answer too large, a redirect, an endless 429, garbled HTTP, death mid-run. Each listens
 * on a free port and records what reached it, so that a test can prove what was (not) sent. Used by
 * the unit-level tests against HttpClient and, as a whole target, by the end-to-end runs.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';

export interface Arrival {
  /** performance.timeOrigin + performance.now(), taken when the request's headers arrived. */
  at: number;
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

export interface FaultServer {
  base: string;
  port: number;
  arrivals: Arrival[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(server: Server | NetServer, sockets: Set<Socket>): Promise<number> {
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

function closer(server: Server | NetServer, sockets: Set<Socket>, timers: Set<NodeJS.Timeout>): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
}

/** An HTTP server answering every request with `handler`; `timers` lets handlers register intervals to stop on close. */
export async function faultServer(handler: (timers: Set<NodeJS.Timeout>) => Handler): Promise<FaultServer> {
  const arrivals: Arrival[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  const handle = handler(timers);
  const server = createServer((req, res) => {
    arrivals.push({ at: performance.timeOrigin + performance.now(), method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    handle(req, res);
  });
  const port = await listen(server, sockets);
  return { base: `http://127.0.0.1:${port}`, port, arrivals, close: closer(server, sockets, timers) };
}

/** Headers at once, then one byte of a JSON body per `everyMs` (1 s by default), forever. */
export const dripServer = (everyMs = 1000) =>
  faultServer((timers) => (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{');
    const timer = setInterval(() => res.write(' '), everyMs);
    timers.add(timer);
    res.on('close', () => {
      clearInterval(timer);
      timers.delete(timer);
    });
  });

/** Accepts the connection and the request, and never answers. */
export const silentServer = () => faultServer(() => () => undefined);

/** Every answer `bytes` long (10 MB by default), streamed in 64 KiB chunks; with or without a Content-Length. */
export const hugeServer = (bytes = 10 * 1000 * 1000, announce = false) =>
  faultServer(() => (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...(announce ? { 'content-length': String(bytes) } : {}) });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        const piece = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
        sent += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('error', () => undefined);
    pump();
  });

/** Every answer a redirect with the given status to `location`. */
export const redirectServer = (location: string, status = 307) =>
  faultServer(() => (_req, res) => res.writeHead(status, { location }).end());

/** Every answer a 429 with these headers (Retry-After: 3600 by default). */
export const tooManyServer = (headers: Record<string, string> = { 'retry-after': '3600' }) =>
  faultServer(
    () => (_req, res) => res.writeHead(429, { 'content-type': 'application/json', ...headers }).end('{"error":"too many requests"}'),
  );

/** Answers 200 `{}` at once; `arrivals` is the wire record the pacing test reads. */
export const recordingServer = () => faultServer(() => (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));

/** Passes every request on to `origin` and its answer back, recording when each arrived: what a run sent to a real target, and when. */
export async function recordingProxy(origin: string): Promise<FaultServer> {
  const to = new URL(origin);
  return faultServer(() => (req, res) => {
    const onward = httpRequest({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    onward.on('error', () => res.destroy());
    req.pipe(onward);
  });
}

/** A TCP server that answers every request with `raw` bytes (not valid HTTP), then closes. */
export async function garbledServer(raw: string): Promise<FaultServer> {
  const sockets = new Set<Socket>();
  const arrivals: Arrival[] = [];
  const server = createNetServer((socket) => {
    socket.once('data', () => {
      arrivals.push({ at: performance.timeOrigin + performance.now(), method: '', url: '', headers: {} });
      socket.end(raw);
    });
    socket.on('error', () => undefined);
  });
  const port = await listen(server, sockets);
  return { base: `http://127.0.0.1:${port}`, port, arrivals, close: closer(server, sockets, new Set()) };
}

/** A port on loopback that nothing listens on (bound once, then released). */
export async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The servers a test starts, for `afterEach` to close: `track(dripServer())` starts one and keeps it. */
export function trackedServers(): { track(server: Promise<FaultServer>): Promise<FaultServer>; closeAll(): Promise<void> } {
  const open: FaultServer[] = [];
  return {
    async track(server) {
      const started = await server;
      open.push(started);
      return started;
    },
    async closeAll() {
      await Promise.all(open.splice(0).map((s) => s.close()));
    },
  };
}
