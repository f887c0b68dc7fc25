/**
 * A conforming invest target the sandbox does not model: a loopback proxy in front of it that rewrites
 * every positionUid and instrumentUid of a portfolio into an id that is no UUID (spec 2.4 and the
 * vendor's document both say plain string). Everything else passes through untouched.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RewritingProxy {
  /** http://127.0.0.1:<port>, serving the upstream's paths. */
  origin: string;
  /** How many ids were rewritten so far. */
  rewritten(): number;
  close(): Promise<void>;
}

const ID_FIELDS = ['positionUid', 'instrumentUid'] as const;

/** The id a UUID becomes: the vendor's own style of other identifiers, e.g. "pos_3f2a91c0" or "instr-TCS00A105NT5". */
function notAUuid(field: string, value: string, n: number): string {
  const tail = value.replace(/-/g, '').slice(0, 8);
  return field === 'positionUid' ? `pos_${tail}_${n}` : `instr-${tail.toUpperCase()}`;
}

export async function startPositionIdProxy(upstream: string): Promise<RewritingProxy> {
  let count = 0;
  const rewrite = (body: unknown): unknown => {
    if (typeof body !== 'object' || body === null) return body;
    for (const list of ['positions', 'virtualPositions']) {
      const items = (body as Record<string, unknown>)[list];
      if (!Array.isArray(items)) continue;
      for (const item of items) {
        for (const field of ID_FIELDS) {
          if (typeof item?.[field] === 'string') item[field] = notAUuid(field, item[field], ++count);
        }
      }
    }
    return body;
  };
  const server: Server = createServer((req, res) => {
    const target = new URL(req.url ?? '/', upstream);
    const forward = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (up: IncomingMessage) => {
      const chunks: Buffer[] = [];
      up.on('data', (c: Buffer) => chunks.push(c));
      up.on('end', () => {
        let body = Buffer.concat(chunks);
        if (up.statusCode === 200 && /json/.test(String(up.headers['content-type'])))
          body = Buffer.from(JSON.stringify(rewrite(JSON.parse(body.toString('utf8')))));
        const headers = Object.fromEntries(
          Object.entries(up.headers).filter(([name, value]) => value !== undefined && name !== 'transfer-encoding'),
        );
        res.writeHead(up.statusCode ?? 502, { ...headers, 'content-length': String(body.length) });
        res.end(body);
      });
    });
    forward.on('error', (error) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${error.message}`);
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    rewritten: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
