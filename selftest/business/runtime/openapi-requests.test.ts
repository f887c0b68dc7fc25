/**
 * Requests generated from a fetched OpenAPI 3.0 document: valid ones stay valid as the server reads
 * them off the wire, invalid ones break exactly the rule they name there, and mutations that the
 * wire would undo (an object in a string path parameter) are dropped.
 */
import { describe, expect, it } from 'vitest';
import { operationModel, type OperationModel } from '../../../harness/business/openapi/operation-model.ts';
import { OperationIndex } from '../../../harness/business/openapi/paths.ts';
import { SchemaRegistry } from '../../../harness/spec/schemas.ts';
import { OpenApiRequests } from '../../../generators/business/openapi.ts';
import { toWire } from '../../../harness/business/runtime/request.ts';
import { cleanDocument } from '../../../sandbox/services/business/document.ts';

const doc = cleanDocument();
const index = new OperationIndex(doc);
const requests = new OpenApiRequests(doc, new SchemaRegistry());
const model = (method: string, path: string) => operationModel(doc, index, method, path)!;

const SMALL = {
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {
    '/things/{id}': {
      post: {
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 10, exclusiveMaximum: true } },
          { name: 'X-Key', in: 'header', required: true, schema: { type: 'string', format: 'uuid' } },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
        responses: { '200': { description: 'ok' } },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        required: ['name', 'id'],
        properties: {
          id: { type: 'string', readOnly: true },
          name: { type: 'string', minLength: 2, maxLength: 5 },
          note: { type: 'string', nullable: true },
          link: { type: 'string', format: 'uri' },
        },
      },
    },
  },
};

describe('valid requests of every operation of the sandbox document', () => {
  const ops = index.all.map((o) => model(o.method, o.path)).filter((o): o is OperationModel => o !== undefined);

  it.each(ops.map((o) => [o.name, o] as const))('%s', (_name, op) => {
    const valid = requests.valid(op, { seed: 42, count: 2 });
    expect(valid.length).toBe(2);
    for (const request of valid) expect(requests.validOnWire(op, request)).toBe(true);
    for (const c of requests.invalid(op, valid[0], { seed: 42, count: 3 })) {
      expect(requests.validOnWire(op, c.request), c.description).toBe(false);
      expect(c.at).toMatch(/^(path|query|header|body)\b/);
    }
  });
});

describe('the wire', () => {
  it('sends parameters as strings and reads them back typed', () => {
    const op = model('GET', '/api/v1/card');
    const wire = toWire(op, { path: {}, query: { limit: 1000, offset: 0 }, header: {} });
    expect(wire.search).toBe('?limit=1000&offset=0');
    expect(requests.serverView(op, wire)?.query).toEqual({ limit: 1000, offset: 0 });
  });

  it('percent-encodes path values and refuses what cannot travel', () => {
    const op = model('GET', '/api/v1/individual/detail-counters/{clientId}');
    expect(toWire(op, { path: { clientId: 'a b/c' }, query: {}, header: {} }).path).toBe('/api/v1/individual/detail-counters/a%20b%2Fc');
    expect(toWire(op, { path: { clientId: '..' }, query: {}, header: {} }).sendable).toBe(false);
    const headerOp = model('POST', '/api/v1/nominal-accounts/beneficiaries');
    expect(toWire(headerOp, { path: {}, query: {}, header: { 'Idempotency-Key': 'a\r\nb' } }).sendable).toBe(false);
  });

  it('drops a type swap that the wire turns back into a string, keeps one that stays broken', () => {
    const op = model('GET', '/api/v1/card/{ucid}');
    const valid = requests.valid(op, { seed: 1, count: 1 })[0];
    const cases = requests.invalid(op, valid, { seed: 1, count: 20 });
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) expect(c.at).toBe('path.ucid');
    expect(cases.some((c) => c.rule === 'type')).toBe(true);
    const uuidOp = model('GET', '/api/v1/rules/{ruleId}');
    const uuidCases = requests.invalid(uuidOp, requests.valid(uuidOp, { seed: 1, count: 1 })[0], { seed: 1, count: 20 });
    expect(uuidCases.map((c) => c.rule)).not.toContain('type');
    expect(uuidCases.map((c) => c.rule)).toContain('format');
  });
});

describe('OpenAPI 3.0 on the way', () => {
  const small = new OpenApiRequests(SMALL, new SchemaRegistry());
  const op = operationModel(SMALL, new OperationIndex(SMALL), 'POST', '/things/{id}')!;

  it('honours nullable, the boolean exclusiveMaximum, readOnly and formats it has no generator for', () => {
    const valid = small.valid(op, { seed: 7, count: 25 });
    for (const request of valid) {
      const body = request.body as Record<string, unknown>;
      expect(body.id).toBeUndefined();
      expect(typeof body.name).toBe('string');
      if (request.query.limit !== undefined) expect(request.query.limit).toBeLessThan(10);
      if (body.link !== undefined) expect(String(body.link)).toMatch(/^https:\/\//);
    }
    expect(valid.some((r) => (r.body as Record<string, unknown>).note === null)).toBe(true);
  });

  it('breaks one rule per case, over every place, each named', () => {
    const valid = small.valid(op, { seed: 7, count: 1 })[0];
    const cases = small.invalid(op, valid, { seed: 7, count: 50 });
    const places = new Set(cases.map((c) => c.at.split(/[.[]/)[0]));
    expect([...places].sort()).toEqual(['body', 'header', 'path', 'query'].filter((p) => p !== 'query' || valid.query.limit !== undefined));
    expect(cases.find((c) => c.at === 'header.X-Key' && c.rule === 'required')).toBeDefined();
    expect(cases.find((c) => c.at === 'body.name' && c.rule === 'maxLength')).toBeDefined();
  });
});
