/**
 * A speech service as a partner would build it on a well-kept JWT library, for the selftest that runs
 * the speech suite against it: jose's jwtVerify with HS256 only, the key looked up by kid, the audience
 * checked (a string, or an array that names it), jose's default clock settings (no leeway; exp, nbf and
 * iat not required; typ not checked), plus the body hash of 2.1 compared with the lower-case hex
 * SHA-256 of the raw body, read leniently: a string, or an array that holds it (as a partner's
 * `[claim].flat()` does).
 * Answers 200 with a JSON recognition result, or 401 with a JSON error. It shares no code with the
 * suite or the sandbox: it is the "third-party target" a conformance suite must not fail on the spec.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { jwtVerify, type JWTHeaderParameters } from 'jose';

export interface ThirdPartyVerifierOptions {
  /** kid (the API key) to HMAC key bytes. */
  keys: Record<string, Uint8Array>;
  audience: string;
}

export interface RunningVerifier {
  /** The speech_url to put in a target file. */
  url: string;
  close(): Promise<void>;
}

const RECOGNIZE = '/v1/stt:recognize';

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function verify(authorization: string | undefined, body: Buffer, options: ThirdPartyVerifierOptions): Promise<void> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match) throw new Error('a Bearer token is required');
  const keyFor = async (header: JWTHeaderParameters) => {
    const key = header.kid === undefined ? undefined : options.keys[header.kid];
    if (!key) throw new Error('unknown kid');
    return key;
  };
  const { payload } = await jwtVerify(match[1], keyFor, { algorithms: ['HS256'], audience: options.audience });
  const claimed = [payload['x-content-sha256']].flat();
  if (claimed.length !== 1 || claimed[0] !== createHash('sha256').update(body).digest('hex'))
    throw new Error('x-content-sha256 does not match the body');
}

export function startThirdPartyVerifier(options: ThirdPartyVerifierOptions): Promise<RunningVerifier> {
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      if ((req.url ?? '').split('?')[0] !== RECOGNIZE || !['GET', 'POST'].includes(req.method ?? ''))
        return send(res, 404, { error: 'not_found' });
      try {
        await verify(req.headers.authorization, body, options);
      } catch (error) {
        res.setHeader('www-authenticate', 'Bearer error="invalid_token"');
        return send(res, 401, { error: 'invalid_token', error_description: (error as Error).message });
      }
      return send(res, 200, { results: [] });
    })().catch(() => send(res, 500, { error: 'server_error' }));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
}
