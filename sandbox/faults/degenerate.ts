/**
 * Target-wide faults: degenerate targets that do nothing useful, for every service at once. The fault
 * run uses them to prove that the suite does not pass a target on the strength of what it failed to do:
 * against each of them at most 5% of the tests that ran may pass, and no test that expects an
 * acceptance may pass. They wrap every answer of the sandbox (both listeners), so no handler knows them.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface TargetWideFault {
  id: string;
  description: string;
  /**
   * The served business document (YAML, not JSON) comes through as it is. The tests that judge only
   * that document then pass on its merits, so the fault run leaves them out of this target's share
   * (the document faults judge them); every test of the target's answers still counts.
   */
  documentIntact?: boolean;
}

export const TARGET_WIDE_FAULTS: readonly TargetWideFault[] = [
  { id: 'target-all-401', description: 'every answer is 401 with a JSON error body' },
  { id: 'target-all-404', description: 'every answer is 404 with a JSON error body' },
  { id: 'target-all-200-empty', description: 'every answer is 200 with no body and no Content-Type' },
  { id: 'target-all-200-object', description: 'every answer is 200 application/json {}' },
  { id: 'target-all-html', description: "every answer is 200 text/html with an HTML page (a login page, a single-page app's fallback)" },
  {
    id: 'target-json-as-html',
    description: 'every JSON answer keeps its status and body but says Content-Type: text/html',
    documentIntact: true,
  },
  {
    id: 'target-first-500',
    description: 'the first time a request is seen it is answered 500; the same request again is served normally',
    documentIntact: true,
  },
];

const errorBody = (status: number, text: string) =>
  JSON.stringify({ errorId: 'degenerate', errorMessage: text, errorCode: String(status), code: status, message: text });

const HTML_PAGE =
  '<!doctype html><html><head><title>Sign in</title></head><body><form method="post" action="/login"><input name="user"><input name="password" type="password"></form></body></html>';

/** Installs the target-wide faults that are on; must run before the services register their routes. */
export function installTargetWideFaults(app: FastifyInstance, on: readonly string[]): void {
  const active = new Set(on);
  const answer =
    (status: number, body: string | undefined, contentType?: string) => async (_request: FastifyRequest, reply: FastifyReply) => {
      if (contentType) reply.header('content-type', contentType);
      return reply.code(status).send(body);
    };
  if (active.has('target-all-401')) app.addHook('onRequest', answer(401, errorBody(401, 'unauthorized'), 'application/json'));
  if (active.has('target-all-404')) app.addHook('onRequest', answer(404, errorBody(404, 'not found'), 'application/json'));
  if (active.has('target-all-200-empty')) {
    app.addHook('onRequest', async (_request, reply) => {
      reply.removeHeader('content-type');
      reply.hijack();
      reply.raw.writeHead(200, { 'content-length': '0' });
      reply.raw.end();
    });
  }
  if (active.has('target-all-200-object')) app.addHook('onRequest', answer(200, '{}', 'application/json'));
  if (active.has('target-all-html')) app.addHook('onRequest', answer(200, HTML_PAGE, 'text/html; charset=utf-8'));
  if (active.has('target-json-as-html')) {
    app.addHook('onSend', async (_request, reply, payload) => {
      if (/json/i.test(String(reply.getHeader('content-type') ?? ''))) reply.header('content-type', 'text/html; charset=utf-8');
      return payload;
    });
  }
  if (active.has('target-first-500')) {
    const seen = new Set<string>();
    app.addHook('preHandler', async (request, reply) => {
      const body = Buffer.isBuffer(request.body)
        ? request.body
        : Buffer.from(request.body === undefined ? '' : JSON.stringify(request.body));
      const key = createHash('sha256')
        .update(`${request.method} ${request.url}\n${request.headers.authorization ?? ''}\n`)
        .update(body)
        .digest('hex');
      if (seen.has(key)) return;
      seen.add(key);
      reply.header('content-type', 'application/json');
      return reply.code(500).send(errorBody(500, 'internal error (first attempt)'));
    });
  }
}
