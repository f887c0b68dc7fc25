/** The change-note evaluator: holds, broken and not located, on small documents made for each case. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ChangeNote } from '../../harness/openapi/catalog.ts';
import { changeNotes } from '../../harness/openapi/catalog.ts';
import { evaluateChangeNote, type Outcome } from '../../harness/openapi/change-notes.ts';
import { dereferenceDocument } from '../../harness/openapi/dereference.ts';
import { OperationIndex } from '../../harness/openapi/paths.ts';
import { ROOT } from '../helpers.ts';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

const ORDER = {
  type: 'object',
  required: ['itemsAmount'],
  properties: {
    itemsAmount: { type: 'number' },
    amount: { type: 'number', deprecated: true },
    isForceRedirect: { type: 'boolean' },
    items: { type: 'array', items: { $ref: '#/components/schemas/Item' } },
    delivery: { $ref: '#/components/schemas/Delivery' },
    extra: { type: 'object' },
    code: { type: ['string', 'null'], pattern: '^\\d+$' },
  },
};

const DOC = {
  openapi: '3.0.3',
  paths: {
    '/orders': {
      post: { requestBody: json(ORDER), responses: { '204': { description: 'none' }, '201': json({ $ref: '#/components/schemas/Order' }), '200': { description: 'text' } } },
      get: { deprecated: true, parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', maximum: 1000, default: 1000 } }], responses: { '400': json({ type: 'object' }) } },
    },
    '/orders/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, { name: 'q', in: 'query', schema: { type: 'string' } }],
      get: { parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'integer' } }], responses: { '200': { content: { 'application/json;charset=UTF-8': { schema: { $ref: '#/components/schemas/Order' } } } } } },
      put: { requestBody: { content: { 'application/xml': { schema: ORDER } } }, responses: { '200': { description: 'ok' } } },
      delete: { requestBody: json({ $ref: '#/components/schemas/Missing' }), responses: { '200': json({ type: 'array', items: { type: 'string' } }) } },
    },
  },
  components: {
    schemas: {
      Item: { type: 'object', required: ['price'], properties: { price: { type: 'number' }, kind: { type: 'string', enum: ['a', 'b'] } } },
      Delivery: {
        oneOf: [
          { type: 'object', required: ['deliveryType'], properties: { deliveryType: { type: 'string', enum: ['courier', 'post_office'] } } },
          { type: 'object', properties: { deliveryType: { type: 'string', enum: ['pickup'] }, point: { type: 'string' } } },
        ],
      },
      Order: { allOf: [{ $ref: '#/components/schemas/OrderBase' }, { type: 'object', required: ['status'], properties: { status: { type: 'string' } } }] },
      OrderBase: { type: 'object', properties: { id: { type: 'string' }, status: { type: 'string', minimum: 1 }, tree: { $ref: '#/components/schemas/Tree' } } },
      Tree: { type: 'object', properties: { child: { $ref: '#/components/schemas/Tree' }, name: { type: 'string' } } },
    },
  },
};

let index: OperationIndex | undefined;
async function run(note: Partial<ChangeNote>): Promise<Outcome> {
  index ??= new OperationIndex(await dereferenceDocument(structuredClone(DOC)));
  return evaluateChangeNote(index, { id: 'T', section: '2.6', text: 't', operation: 'POST /orders', in: 'requestBody', path: [], expect: {}, ...note } as ChangeNote);
}
const kind = async (note: Partial<ChangeNote>) => (await run(note)).kind;

describe('the change-note evaluator', () => {
  it('holds when every expectation holds, on a property, an array item and a parameter', async () => {
    expect(await kind({ path: ['isForceRedirect'], expect: { present: true, type: 'boolean', required: false } })).toBe('holds');
    expect(await kind({ path: ['itemsAmount'], expect: { required: true } })).toBe('holds');
    expect(await kind({ path: ['amount'], expect: { required: false, deprecated: true } })).toBe('holds');
    expect(await kind({ path: ['items', '[]', 'price'], expect: { required: true, type: 'number' } })).toBe('holds');
    expect(await kind({ operation: 'GET /orders', in: 'query:limit', expect: { present: true, required: false, maximum: 1000, default: 1000, type: 'integer' } })).toBe('holds');
    expect(await kind({ path: ['code'], expect: { type: 'string', pattern: '^\\d+$' } })).toBe('holds');
  });

  it('is broken when a located element differs, saying what was expected and found', async () => {
    const outcome = await run({ operation: 'GET /orders', in: 'query:limit', expect: { maximum: 5000, default: 100 } });
    expect(outcome).toMatchObject({ kind: 'broken', problems: [{ expected: 'default 100', received: 'default 1000' }, { expected: 'maximum 5000', received: 'maximum 1000' }] });
    expect(await kind({ path: ['itemsAmount'], expect: { required: false } })).toBe('broken');
    expect(await kind({ path: ['isForceRedirect'], expect: { deprecated: true } })).toBe('broken');
    expect(await kind({ path: ['code'], expect: { pattern: '^\\d*$' } })).toBe('broken');
    expect(await kind({ path: ['items', '[]', 'kind'], expect: { enumIncludes: ['c'] } })).toBe('broken');
    expect(await kind({ path: ['items', '[]', 'price'], expect: { enumExcludes: ['x'] } })).toBe('broken');
  });

  it('is broken when a property that must exist is missing from a located parent', async () => {
    expect(await run({ path: ['successPageUrl'], expect: { present: true } })).toMatchObject({ kind: 'broken', problems: [{ received: 'the request body of POST /orders has no successPageUrl' }] });
    expect(await kind({ path: ['uin'], expect: { pattern: 'x' } })).toBe('broken');
    expect(await kind({ operation: 'GET /orders', in: 'query:agreementNumber', expect: { present: true } })).toBe('broken');
  });

  it('holds an absence only where the parent was located and declares properties', async () => {
    expect(await kind({ path: ['notificationUrl'], expect: { present: false } })).toBe('holds');
    expect(await kind({ path: ['amount'], expect: { present: false } })).toBe('broken');
    expect(await kind({ operation: 'GET /orders', in: 'query:offset', expect: { present: false } })).toBe('holds');
    expect(await run({ operation: 'POST /invoices', path: ['notificationUrl'], expect: { present: false } })).toEqual({ kind: 'not-located', reason: 'could not find the operation POST /invoices in the document' });
    expect(await run({ operation: 'GET /orders', path: ['notificationUrl'], expect: { present: false } })).toEqual({ kind: 'not-located', reason: 'could not find the request body of GET /orders' });
    expect(await kind({ path: ['extra', 'notificationUrl'], expect: { present: false } })).toBe('not-located');
    expect(await kind({ path: ['missingParent', 'notificationUrl'], expect: { present: false } })).toBe('not-located');
    expect(await kind({ operation: 'GET /orders/{id}', in: 'response', path: ['[]', 'x'], expect: { present: false } })).toBe('not-located');
  });

  it('says why a body could not be located', async () => {
    expect(await run({ operation: 'PUT /orders/{x}', path: ['amount'], expect: { present: false } })).toEqual({ kind: 'not-located', reason: 'the request body of PUT /orders/{id} has no JSON media type (it has application/xml)' });
    expect(await run({ operation: 'DELETE /orders/{x}', path: ['amount'], expect: { present: false } })).toMatchObject({ kind: 'not-located', reason: expect.stringContaining('"#/components/schemas/Missing" does not resolve') });
    expect(await run({ operation: 'GET /orders', in: 'response', path: ['id'], expect: { present: true } })).toEqual({ kind: 'not-located', reason: 'could not find a success (2xx) response of GET /orders' });
    expect(await kind({ path: ['isForceRedirect', '[]'], expect: { present: true } })).toBe('not-located');
  });

  it('takes the lowest 2xx with a JSON body, and merges allOf members', async () => {
    expect(await run({ in: 'response', path: ['status'], expect: { required: true, type: 'string' } })).toMatchObject({ kind: 'holds', located: 'status in the 201 response body of POST /orders' });
    expect(await kind({ in: 'response', path: ['id'], expect: { required: false } })).toBe('holds');
    expect(await kind({ in: 'response', path: ['tree', 'child', 'child', 'name'], expect: { present: true } })).toBe('holds');
    expect(await kind({ operation: 'GET /orders/{id}', in: 'response', path: ['status'], expect: { present: true } })).toBe('holds');
  });

  it('considers only the oneOf members that declare the property: enums united, required in each', async () => {
    expect(await kind({ path: ['delivery', 'deliveryType'], expect: { enumIncludes: ['courier', 'pickup'], enumExcludes: ['russian_post'] } })).toBe('holds');
    expect(await kind({ path: ['delivery', 'deliveryType'], expect: { required: true } })).toBe('broken');
    expect(await kind({ path: ['delivery', 'point'], expect: { required: false } })).toBe('holds');
    expect(await kind({ path: ['delivery', 'deliveryPointNumber'], expect: { present: false } })).toBe('holds');
  });

  it('lets an operation parameter override the path-item one of the same name', async () => {
    expect(await kind({ operation: 'GET /orders/{id}', in: 'query:q', expect: { required: true, type: 'integer' } })).toBe('holds');
    expect(await kind({ operation: 'GET /orders/{id}', in: 'path:id', expect: { required: true } })).toBe('holds');
  });

  it('reads deprecated on the operation itself', async () => {
    expect(await kind({ operation: 'GET /orders', in: 'operation', expect: { deprecated: true } })).toBe('holds');
    expect(await kind({ operation: 'POST /orders', in: 'operation', expect: { deprecated: true } })).toBe('broken');
  });

  it('finds every one of the 72 change notes holding in the sandbox document', async () => {
    const raw = parse(readFileSync(join(ROOT, 'sandbox', 'services', 'business', 'openapi.yaml'), 'utf8'));
    const sandbox = new OperationIndex(await dereferenceDocument(raw));
    const outcomes = changeNotes().map((note) => [note.id, evaluateChangeNote(sandbox, note)] as const);
    expect(outcomes.filter(([, o]) => o.kind !== 'holds')).toEqual([]);
    expect(outcomes).toHaveLength(72);
  });
});
