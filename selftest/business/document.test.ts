/**
 * Reading a served document: YAML problems with their line, OpenAPI findings condensed, dangling and
 * external $refs, circular schemas, and the loader against a real loopback server (one fetch per
 * process, the token only when the document is refused without it, every failure with its cause).
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { documentServed, openApiValid } from '../../harness/business/checks/document.ts';
import { dereferenceDocument, unfollowedRef } from '../../harness/business/openapi/dereference.ts';
import { documentServerError, loadServedDocument } from '../../harness/business/openapi/load.ts';
import { describeProblem, parseOpenApiText } from '../../harness/business/openapi/parse.ts';
import { condense, validateOpenApi } from '../../harness/business/openapi/validate.ts';
import { HttpClient } from '../../harness/request/http.ts';
import { LocalPacer } from '../../harness/request/pacer.ts';
import { Redactor } from '../../harness/secrets/redact.ts';
import { DEFAULT_SETTINGS, type Target } from '../../harness/config/target.ts';

const MINIMAL = {
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: { '/a': { get: { responses: { '200': { description: 'ok' } } } } },
};

describe('parsing the document text', () => {
  it('names the line and column of a YAML syntax error', () => {
    const result = parseOpenApiText('openapi: 3.0.3\npaths:\n  /a:\n    get: {}\n   post: {}\n');
    expect(result.ok).toBe(false);
    expect(describeProblem((result as { problem: { line?: number; message: string; code: string } }).problem)).toMatch(
      /^line 5, column \d+: .* \[BAD_INDENT\]$/,
    );
  });

  it('reads past a duplicate key (last one wins) but reports it', () => {
    const result = parseOpenApiText('openapi: 3.0.3\nopenapi: 3.0.2\n');
    expect(result).toMatchObject({ ok: true, value: { openapi: '3.0.2' }, problems: [{ code: 'DUPLICATE_KEY', line: 2 }] });
  });

  it('refuses an HTML page, an empty body and a list as the document', () => {
    expect(parseOpenApiText('<html><body>Login</body></html>')).toMatchObject({ ok: false, problem: { code: 'NOT_A_MAPPING' } });
    expect(parseOpenApiText('')).toMatchObject({ ok: false, problem: { code: 'EMPTY' } });
    expect(parseOpenApiText('- a\n- b\n')).toMatchObject({ ok: false, problem: { code: 'NOT_A_MAPPING' } });
  });

  it('reads a JSON document too', () => {
    expect(parseOpenApiText(JSON.stringify(MINIMAL))).toMatchObject({ ok: true, value: MINIMAL });
  });
});

describe('validating against the official OpenAPI schemas', () => {
  it('passes a minimal valid document', async () => {
    expect(await validateOpenApi(MINIMAL)).toEqual({ version: '3.0', findings: [] });
  });

  it('reports a response without description once, without the oneOf noise', async () => {
    const doc = structuredClone(MINIMAL);
    delete (doc.paths['/a'].get.responses['200'] as { description?: string }).description;
    const result = await validateOpenApi(doc);
    expect(result.findings).toEqual([{ at: '/paths/~1a/get/responses/200', message: "must have required property 'description'" }]);
    const failures = openApiValid(result, 'BUS-DOC-002');
    expect(failures).toEqual([
      {
        requirement: 'BUS-DOC-002',
        expected: 'a valid OpenAPI 3.x document (official schema)',
        received: "must have required property 'description'",
        at: 'paths › /a › get › responses › 200',
      },
    ]);
  });

  it('reports a dangling $ref and still validates the rest', async () => {
    const doc = { ...structuredClone(MINIMAL), components: { schemas: { A: { $ref: '#/components/schemas/Nope' } } } };
    delete (doc.paths['/a'].get.responses['200'] as { description?: string }).description;
    const messages = (await validateOpenApi(doc)).findings.map((f) => f.message);
    expect(messages).toContain('$ref "#/components/schemas/Nope" does not resolve inside the document');
    expect(messages).toContain("must have required property 'description'");
  });

  it('says when the document is not OpenAPI 3.x', async () => {
    expect((await validateOpenApi({ swagger: '2.0', info: { title: 't', version: '1' }, paths: {} })).findings[0].message).toMatch(
      /OpenAPI 3\.x document was expected, this is version 2\.0/,
    );
    expect((await validateOpenApi({ info: {} })).findings[0].message).toMatch(/supported swagger\/openapi version/);
  });

  it('reports two paths that differ only in parameter names', async () => {
    const doc = structuredClone(MINIMAL) as { paths: Record<string, unknown> };
    doc.paths['/b/{id}'] = { get: { responses: { '200': { description: 'ok' } } } };
    doc.paths['/b/{name}'] = { get: { responses: { '200': { description: 'ok' } } } };
    expect((await validateOpenApi(doc)).findings).toEqual([
      { at: '/paths/~1b~1{name}', message: 'the paths /b/{id} and /b/{name} differ only in parameter names, which OpenAPI forbids' },
    ]);
  });

  it('counts findings by kind when there are many', () => {
    const findings = Array.from({ length: 12 }, (_, i) => ({ at: `/paths/~1p${i}`, message: i < 11 ? 'm1' : 'm2' }));
    expect(openApiValid({ findings }, 'BUS-DOC-002')[0].received).toBe('12 findings: 11 × m1; 1 × m2');
  });

  it('keeps the deeper error when an alternative only explains it', () => {
    const errors = [
      { instancePath: '/a', keyword: 'oneOf', schemaPath: '#/oneOf', message: 'must match exactly one schema in oneOf' },
      {
        instancePath: '/a',
        keyword: 'required',
        schemaPath: '#/definitions/Reference/required',
        params: { missingProperty: '$ref' },
        message: "must have required property '$ref'",
      },
      { instancePath: '/a/b', keyword: 'type', schemaPath: '#/type', message: 'must be string' },
    ];
    expect(condense(errors)).toEqual([{ at: '/a/b', message: 'must be string' }]);
  });
});

describe('dereferencing', () => {
  it('keeps circular schemas as cycles and marks references it cannot follow', async () => {
    const doc = await dereferenceDocument({
      components: {
        schemas: {
          Node: { properties: { next: { $ref: '#/components/schemas/Node' } } },
          Bad: { $ref: '#/components/schemas/None' },
          Far: { $ref: 'other.yaml#/X' },
        },
      },
    });
    const schemas = (doc.components as { schemas: Record<string, { properties?: { next: unknown } }> }).schemas;
    expect(schemas.Node.properties!.next).toBe(schemas.Node);
    expect(unfollowedRef(schemas.Bad)).toMatch(/does not resolve inside the document/);
    expect(unfollowedRef(schemas.Far)).toMatch(/external \$ref "other.yaml#\/X"/);
  });
});

let server: Server;
let base = '';
const hits = new Map<string, number>();
beforeAll(async () => {
  server = createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    if (req.url === '/ok/openapi/docs/openapi.yaml')
      return res.writeHead(200, { 'content-type': 'application/yaml' }).end(stringify(MINIMAL));
    if (req.url === '/private/openapi/docs/openapi.yaml') {
      if (req.headers.authorization !== 'Bearer doc-token-123') return res.writeHead(401).end('{"errorCode":"UNAUTHORIZED"}');
      return res.writeHead(200).end(stringify(MINIMAL));
    }
    if (req.url === '/broken/openapi/docs/openapi.yaml') return res.writeHead(200).end('openapi: 3.0.3\npaths:\n  /a: [\n');
    if (req.url === '/object/openapi/docs/openapi.yaml') return res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    if (req.url === '/flaky/openapi/docs/openapi.yaml')
      return res.writeHead(500, { 'content-type': 'application/json' }).end('{"errorCode":"INTERNAL"}');
    if (req.url === '/custom/spec.yaml') return res.writeHead(200).end(stringify(MINIMAL));
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"errorCode":"NOT_FOUND"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function setup(business: Record<string, unknown>): { target: Target; client: HttpClient } {
  const redactor = new Redactor();
  redactor.register('doc-token-123');
  const target: Target = {
    file: 't.yaml',
    name: 't',
    kind: 'production',
    vendorConventions: false,
    strictPolicy: false,
    areas: ['business'],
    safety: { allowDestructive: false, allowMoney: false, allowBursts: false },
    settings: { ...DEFAULT_SETTINGS, timeoutMs: 1000 },
    services: { business: { url: `${base}/x`, ...business } as Target['services']['business'] },
    redactor,
  };
  return { target, client: new HttpClient(target, { pacer: new LocalPacer(), limits: { business: { requests: 1000, perSeconds: 1 } } }) };
}

describe('loading the served document', () => {
  it('fetches once per process however often it is asked for, as a read on a production target', async () => {
    const { target, client } = setup({ url: `${base}/ok` });
    const [a, b] = await Promise.all([loadServedDocument(client, target), loadServedDocument(client, target)]);
    expect(a).toBe(b);
    expect(await loadServedDocument(client, target)).toBe(a);
    expect(hits.get('/ok/openapi/docs/openapi.yaml')).toBe(1);
    expect(a.readable?.index.all.map((o) => o.key)).toEqual(['GET /a']);
    expect(documentServed(a, 'BUS-DOC-001')).toEqual([]);
  });

  it('sends the token only when the document is refused without it', async () => {
    const { target, client } = setup({ url: `${base}/private`, token: 'doc-token-123' });
    const served = await loadServedDocument(client, target);
    expect(served.neededToken).toBe(true);
    expect(served.readable).toBeDefined();
    expect(served.response.curl).not.toContain('doc-token-123');
  });

  it('honours documentPath, relative or absolute', async () => {
    const { target, client } = setup({ url: `${base}/elsewhere`, documentPath: `${base}/custom/spec.yaml` });
    expect((await loadServedDocument(client, target)).readable).toBeDefined();
  });

  it('gives the status and the body when the document is not served', async () => {
    const { target, client } = setup({ url: `${base}/missing` });
    const served = await loadServedDocument(client, target);
    expect(served.unreadable).toMatch(/answered HTTP 404 .*NOT_FOUND/);
    expect(documentServed(served, 'BUS-DOC-001')[0].received).toBe(served.unreadable);
  });

  it('reads an empty object ({}) as no document at all: it describes no operation', async () => {
    const { target, client } = setup({ url: `${base}/object` });
    const served = await loadServedDocument(client, target);
    expect(served.readable).toBeUndefined();
    expect(served.unreadable).toMatch(/not an OpenAPI document: it has no `openapi` version string/);
    expect(documentServed(served, 'BUS-DOC-001')).toHaveLength(1);
  });

  it('records a 5xx of the document, and a document served later in the run still fails BUS-DOC-001 for it', async () => {
    const { target, client } = setup({ url: `${base}/flaky` });
    await loadServedDocument(client, target);
    const error = documentServerError();
    expect(error).toMatch(/answered HTTP 500/);
    const { target: okTarget, client: okClient } = setup({ url: `${base}/ok` });
    const [f] = documentServed(await loadServedDocument(okClient, okTarget), 'BUS-DOC-001', error);
    expect(f.received).toMatch(/answered HTTP 500 in this run \(another fetch was served\)/);
  });

  it('names the line of a YAML syntax error', async () => {
    const { target, client } = setup({ url: `${base}/broken` });
    expect((await loadServedDocument(client, target)).unreadable).toMatch(/not a readable YAML document: line 4, column 1: /);
  });

  it('remembers an unreachable target instead of waiting once per test', async () => {
    const { target, client } = setup({ url: 'http://127.0.0.1:9' });
    const error = await loadServedDocument(client, target).catch((e: unknown) => e);
    expect(String(error)).toMatch(/TARGET_UNREACHABLE/);
    // The same failure, not a second attempt: a new one would be another error object.
    await expect(loadServedDocument(client, target)).rejects.toBe(error);
  });
});
