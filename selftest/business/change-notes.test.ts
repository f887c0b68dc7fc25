/** The change-note evaluator: holds, broken and not located, on small documents made for each case. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ChangeNote } from '../../harness/business/openapi/catalog.ts';
import { changeNotes } from '../../harness/business/openapi/catalog.ts';
import { evaluateChangeNote, type Outcome } from '../../harness/business/openapi/change-notes.ts';
import { dereferenceDocument } from '../../harness/business/openapi/dereference.ts';
import { OperationIndex } from '../../harness/business/openapi/paths.ts';
import { verdictOn } from '../../harness/business/openapi/schema-behaviour.ts';
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
      post: {
        requestBody: json(ORDER),
        responses: { '204': { description: 'none' }, '201': json({ $ref: '#/components/schemas/Order' }), '200': { description: 'text' } },
      },
      get: {
        deprecated: true,
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 1000, default: 1000 } },
          {
            name: 'offset',
            in: 'query',
            description: 'Количество карт, которые необходимо пропустить. По умолчанию offset = 0',
            schema: { type: 'integer' },
          },
          { name: 'skip', in: 'query', schema: { type: 'integer' } },
          { name: 'page', in: 'query', schema: { type: 'integer', description: 'Page number. Default: 2' } },
        ],
        responses: { '400': json({ type: 'object' }) },
      },
    },
    '/orders/{id}': {
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'q', in: 'query', schema: { type: 'string' } },
      ],
      get: {
        parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'integer' } }],
        responses: { '200': { content: { 'application/json;charset=UTF-8': { schema: { $ref: '#/components/schemas/Order' } } } } },
      },
      put: { requestBody: { content: { 'application/xml': { schema: ORDER } } }, responses: { '200': { description: 'ok' } } },
      delete: {
        requestBody: json({ $ref: '#/components/schemas/Missing' }),
        responses: { '200': json({ type: 'array', items: { type: 'string' } }) },
      },
    },
  },
  components: {
    schemas: {
      Item: { type: 'object', required: ['price'], properties: { price: { type: 'number' }, kind: { type: 'string', enum: ['a', 'b'] } } },
      Delivery: {
        oneOf: [
          {
            type: 'object',
            required: ['deliveryType'],
            properties: { deliveryType: { type: 'string', enum: ['courier', 'post_office'] } },
          },
          { type: 'object', properties: { deliveryType: { type: 'string', enum: ['pickup'] }, point: { type: 'string' } } },
        ],
      },
      Order: {
        allOf: [
          { $ref: '#/components/schemas/OrderBase' },
          { type: 'object', required: ['status'], properties: { status: { type: 'string' } } },
        ],
      },
      OrderBase: {
        type: 'object',
        properties: { id: { type: 'string' }, status: { type: 'string', minimum: 1 }, tree: { $ref: '#/components/schemas/Tree' } },
      },
      Tree: { type: 'object', properties: { child: { $ref: '#/components/schemas/Tree' }, name: { type: 'string' } } },
    },
  },
};

/** An evaluator of notes on one small document, with a default operation and location. */
function evaluatorOn(doc: Record<string, unknown>, operation: string, where: string) {
  let index: OperationIndex | undefined;
  const run = async (note: Partial<ChangeNote>): Promise<Outcome> => {
    index ??= new OperationIndex(await dereferenceDocument(structuredClone(doc)));
    const operations = note.operations ?? [note.operation ?? operation];
    return evaluateChangeNote(index, {
      id: 'T',
      section: '2.6',
      text: 't',
      in: where,
      path: [],
      expect: {},
      ...note,
      operation: operations.join(' or '),
      operations,
    } as ChangeNote);
  };
  return { run, kind: async (note: Partial<ChangeNote>) => (await run(note)).kind };
}

const { run, kind } = evaluatorOn(DOC, 'POST /orders', 'requestBody');

describe('the change-note evaluator', () => {
  it('holds when every expectation holds, on a property, an array item and a parameter', async () => {
    expect(await kind({ path: ['isForceRedirect'], expect: { present: true, type: 'boolean', required: false } })).toBe('holds');
    expect(await kind({ path: ['itemsAmount'], expect: { required: true } })).toBe('holds');
    expect(await kind({ path: ['amount'], expect: { required: false, deprecated: true } })).toBe('holds');
    expect(await kind({ path: ['items', '[]', 'price'], expect: { required: true, type: 'number' } })).toBe('holds');
    expect(
      await kind({
        operation: 'GET /orders',
        in: 'query:limit',
        expect: { present: true, required: false, accepts: ['1000'], rejects: ['1001'], default: 1000, type: 'integer' },
      }),
    ).toBe('holds');
    expect(await kind({ path: ['code'], expect: { type: 'string', accepts: ['7'], rejects: ['x'] } })).toBe('holds');
  });

  it('is broken when a located element differs, saying what was expected and found', async () => {
    const outcome = await run({ operation: 'GET /orders', in: 'query:limit', expect: { accepts: ['5000'], default: 100 } });
    expect(outcome).toMatchObject({
      kind: 'broken',
      problems: [
        { expected: 'default 100', received: 'default 1000' },
        { expected: '"5000" accepted', received: 'refused by maximum 1000' },
      ],
    });
    expect(await kind({ path: ['itemsAmount'], expect: { required: false } })).toBe('broken');
    expect(await kind({ path: ['isForceRedirect'], expect: { deprecated: true } })).toBe('broken');
    expect(await kind({ path: ['code'], expect: { accepts: [''] } })).toBe('broken');
    expect(await kind({ path: ['items', '[]', 'kind'], expect: { enumIncludes: ['c'] } })).toBe('broken');
    expect(await kind({ path: ['items', '[]', 'price'], expect: { enumExcludes: ['x'] } })).toBe('broken');
  });

  it('is broken when a property that must exist is missing from a located parent', async () => {
    expect(await run({ path: ['successPageUrl'], expect: { present: true } })).toMatchObject({
      kind: 'broken',
      problems: [{ received: 'the request body of POST /orders has no successPageUrl' }],
    });
    expect(await kind({ path: ['uin'], expect: { accepts: ['x'] } })).toBe('broken');
    expect(await kind({ operation: 'GET /orders', in: 'query:agreementNumber', expect: { present: true } })).toBe('broken');
  });

  it('holds an absence only where the parent was located and declares properties', async () => {
    expect(await kind({ path: ['notificationUrl'], expect: { present: false } })).toBe('holds');
    expect(await kind({ path: ['amount'], expect: { present: false } })).toBe('broken');
    expect(await kind({ operation: 'GET /orders', in: 'query:cursor', expect: { present: false } })).toBe('holds');
    expect(await run({ operation: 'POST /invoices', path: ['notificationUrl'], expect: { present: false } })).toEqual({
      kind: 'not-located',
      reason: 'could not find the operation POST /invoices in the document',
    });
    expect(await run({ operation: 'GET /orders', path: ['notificationUrl'], expect: { present: false } })).toEqual({
      kind: 'not-located',
      reason: 'could not find the request body of GET /orders',
    });
    expect(await kind({ path: ['extra', 'notificationUrl'], expect: { present: false } })).toBe('not-located');
    expect(await kind({ path: ['missingParent', 'notificationUrl'], expect: { present: false } })).toBe('not-located');
    expect(await kind({ operation: 'GET /orders/{id}', in: 'response', path: ['[]', 'x'], expect: { present: false } })).toBe(
      'not-located',
    );
  });

  it('reads a default from the keyword, else from a description that names it; stated nowhere, not located', async () => {
    expect(await kind({ operation: 'GET /orders', in: 'query:offset', expect: { default: 0 } })).toBe('holds');
    expect(await run({ operation: 'GET /orders', in: 'query:offset', expect: { default: 10 } })).toMatchObject({
      kind: 'broken',
      problems: [{ received: 'a description that states the default 0' }],
    });
    expect(await kind({ operation: 'GET /orders', in: 'query:page', expect: { default: 2 } })).toBe('holds');
    expect(await run({ operation: 'GET /orders', in: 'query:skip', expect: { default: 0 } })).toMatchObject({
      kind: 'not-located',
      reason: expect.stringContaining('states no default'),
    });
    // An unstated default never hides another broken expectation of the same note.
    expect(await kind({ operation: 'GET /orders', in: 'query:skip', expect: { default: 0, rejects: ['5'] } })).toBe('broken');
  });

  it('holds a fact 2.6 gives without an operation where some operation declares it and none breaks it', async () => {
    const both = ['POST /orders', 'PUT /orders/{x}', 'POST /invoices'];
    expect(await run({ operations: both, path: ['isForceRedirect'], expect: { present: true, required: false } })).toMatchObject({
      kind: 'holds',
      located: 'isForceRedirect in the request body of POST /orders',
    });
    expect(
      await run({ operations: ['GET /orders/{x}', 'POST /orders'], in: 'response', path: ['status'], expect: { required: true } }),
    ).toMatchObject({ kind: 'holds' });
    expect(
      await run({ operations: ['GET /orders/{x}', 'POST /orders'], in: 'response', path: ['id'], expect: { required: true } }),
    ).toMatchObject({ kind: 'broken', problems: [{ expected: 'required (GET /orders/{x})' }, { expected: 'required (POST /orders)' }] });
    expect(
      await run({ operations: ['GET /orders/{x}', 'POST /orders'], in: 'response', path: ['nowhere'], expect: { present: true } }),
    ).toMatchObject({ kind: 'broken', problems: [{ expected: 'nowhere present in one of GET /orders/{x} or POST /orders' }] });
    expect(await kind({ operations: both, path: ['nowhere'], expect: { present: false } })).toBe('holds');
    expect(await kind({ operations: ['POST /invoices', 'GET /nothing'], path: ['x'], expect: { present: true } })).toBe('not-located');
  });

  it('says why a body could not be located', async () => {
    expect(await run({ operation: 'PUT /orders/{x}', path: ['amount'], expect: { present: false } })).toEqual({
      kind: 'not-located',
      reason: 'the request body of PUT /orders/{id} has no JSON media type (it has application/xml)',
    });
    expect(await run({ operation: 'DELETE /orders/{x}', path: ['amount'], expect: { present: false } })).toMatchObject({
      kind: 'not-located',
      reason: expect.stringContaining('"#/components/schemas/Missing" does not resolve'),
    });
    expect(await run({ operation: 'GET /orders', in: 'response', path: ['id'], expect: { present: true } })).toEqual({
      kind: 'not-located',
      reason: 'could not find a success (2xx) response of GET /orders',
    });
    expect(await kind({ path: ['isForceRedirect', '[]'], expect: { present: true } })).toBe('not-located');
  });

  it('takes the lowest 2xx with a JSON body, and merges allOf members', async () => {
    expect(await run({ in: 'response', path: ['status'], expect: { required: true, type: 'string' } })).toMatchObject({
      kind: 'holds',
      located: 'status in the 201 response body of POST /orders',
    });
    expect(await kind({ in: 'response', path: ['id'], expect: { required: false } })).toBe('holds');
    expect(await kind({ in: 'response', path: ['tree', 'child', 'child', 'name'], expect: { present: true } })).toBe('holds');
    expect(await kind({ operation: 'GET /orders/{id}', in: 'response', path: ['status'], expect: { present: true } })).toBe('holds');
  });

  it('considers only the oneOf members that declare the property: enums united, required in each', async () => {
    expect(
      await kind({ path: ['delivery', 'deliveryType'], expect: { enumIncludes: ['courier', 'pickup'], enumExcludes: ['russian_post'] } }),
    ).toBe('holds');
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

  it("samples patterns with values the spec's own words accept and refuse (uin, cards accountNumber, revenueTypeCode)", () => {
    const spec: Record<string, Record<string, unknown>> = {
      'BUS-CHG-046': { pattern: '^(0|[А-Яа-яA-Za-z0-9]{4}|[А-ЯA-Z0-9]{20}|[А-ЯA-Z0-9]{25})$' },
      'BUS-CHG-067': { pattern: '^(\\d{20}|\\d{22})$' },
      'BUS-CHG-047': { enum: ['1', '2', '3'] },
    };
    for (const [id, schema] of Object.entries(spec)) {
      const { accepts = [], rejects = [] } = changeNotes().find((n) => n.id === id)!.expect;
      expect(
        accepts.filter((v) => !verdictOn([[schema]], v).accepted),
        id,
      ).toEqual([]);
      expect(
        rejects.filter((v) => verdictOn([[schema]], v).accepted),
        id,
      ).toEqual([]);
    }
  });

  it('finds every one of the 150 change notes holding in the sandbox document', async () => {
    const raw = parse(readFileSync(join(ROOT, 'sandbox', 'services', 'business', 'openapi.yaml'), 'utf8'));
    const sandbox = new OperationIndex(await dereferenceDocument(raw));
    const outcomes = changeNotes().map((note) => [note.id, evaluateChangeNote(sandbox, note)] as const);
    expect(outcomes.filter(([, o]) => o.kind !== 'holds')).toEqual([]);
    expect(outcomes).toHaveLength(150);
  });
});

const STATEMENT = {
  type: 'object',
  properties: {
    page: {
      type: 'object',
      properties: {
        operations: { type: 'array', items: { $ref: '#/components/schemas/Op' } },
        card: { type: 'object', required: ['pan'], properties: { pan: { type: 'string' } } },
      },
    },
    meta: { type: 'object' },
  },
};

const DOC2 = {
  openapi: '3.0.3',
  paths: {
    '/statement': {
      get: {
        parameters: [
          { name: 'withBalances', in: 'query', schema: { type: 'boolean', default: false } },
          { name: 'acc', in: 'query', schema: { type: 'string', pattern: '^\\d{20}(\\d{2})?$' } },
        ],
        responses: { '200': json(STATEMENT) },
      },
      post: {
        requestBody: json({ type: 'object', properties: { x: { $ref: '#/components/schemas/Missing' }, y: { type: 'string' } } }),
        responses: { '200': json({ type: 'object' }) },
      },
    },
  },
  components: {
    schemas: {
      Op: {
        type: 'object',
        required: ['rrn'],
        properties: {
          rrn: { type: 'string' },
          intercomCode: { type: 'string' },
          kind: { type: 'string', enum: ['CURRENT', 'INVESTMENT_ACCOUNT'] },
          card: { type: 'object', properties: { pan: { type: 'string' }, holder: { type: 'string' } } },
          next: { $ref: '#/components/schemas/Op' },
        },
      },
    },
  },
};

const { run: run2, kind: kind2 } = evaluatorOn(DOC2, 'GET /statement', 'response');

describe('the change-note evaluator: any depth, names in words, behaviour, conditions', () => {
  it('finds a property at any depth ("**"), through arrays and recursive schemas', async () => {
    expect(await run2({ path: ['**', 'rrn'], expect: { present: true } })).toEqual({
      kind: 'holds',
      located: 'rrn (at any depth) in the 200 response body of GET /statement',
    });
    expect(await kind2({ path: ['**', 'rrn'], expect: { required: false } })).toBe('broken');
    expect(await kind2({ path: ['**', 'intercomCode'], expect: { required: false } })).toBe('holds');
    expect(await kind2({ path: ['**', 'missing'], expect: { present: true } })).toBe('broken');
    expect(await kind2({ path: ['**', 'missing'], expect: { present: false } })).toBe('holds');
  });

  it('judges required: false on every site "**" finds, and a following step in each', async () => {
    expect(await kind2({ path: ['**', 'card', 'pan'], expect: { required: false } })).toBe('broken');
    expect(await kind2({ path: ['**', 'card', 'holder'], expect: { required: false } })).toBe('holds');
  });

  it('matches names given in words ("~regex"), as properties and as query parameters', async () => {
    expect(await kind2({ path: ['**', '~intercom'], expect: { present: true } })).toBe('holds');
    expect(await kind2({ path: ['**', '~entrance'], expect: { present: true } })).toBe('broken');
    expect(await kind2({ in: 'query:~balance', expect: { present: true } })).toBe('holds');
    expect(await kind2({ in: 'query:~cursor', expect: { present: true } })).toBe('broken');
  });

  it('finds enum values given in words anywhere below (enumLike), in any case', async () => {
    expect(await kind2({ path: ['**'], expect: { enumLike: ['invest'] } })).toBe('holds');
    expect(await kind2({ path: ['**'], expect: { enumLike: ['sbp'] } })).toBe('broken');
  });

  it('holds a value an element without an enum accepts (a free string may hold `self`), and breaks on one it refuses', async () => {
    expect(await kind2({ path: ['**', 'rrn'], expect: { enumIncludes: ['self'] } })).toBe('holds');
    expect(await kind2({ path: ['**', 'rrn'], expect: { enumLike: ['SBP'] } })).toBe('holds');
    expect(await kind({ path: ['code'], expect: { enumIncludes: ['7'] } })).toBe('holds');
    expect(await run({ path: ['code'], expect: { enumIncludes: ['self'] } })).toMatchObject({
      kind: 'broken',
      problems: [{ received: expect.stringMatching(/^no enum, and "self" refused by pattern/) }],
    });
    // Without an enum nothing is ruled out.
    expect(await kind2({ path: ['**', 'rrn'], expect: { enumExcludes: ['NEW'] } })).toBe('broken');
  });

  it('judges a pattern by what it accepts and refuses, so an equivalent pattern written differently holds', async () => {
    const samples = {
      accepts: ['40702810900000000001', '4070281090000000000123'],
      rejects: ['4070281090000000000', '407028109000000000012', '40702810900000000001234', 'x'],
    };
    expect(await kind2({ in: 'query:acc', expect: samples })).toBe('holds');
    expect(await run2({ in: 'query:acc', expect: { rejects: ['40702810900000000001'] } })).toMatchObject({
      kind: 'broken',
      problems: [{ expected: '"40702810900000000001" refused', received: 'accepted by the served schema' }],
    });
  });

  it('requires declared fields for noneRequired: a free-form object is not located, a required field breaks it', async () => {
    expect(await kind2({ path: ['**', 'card'], expect: { noneRequired: true } })).toBe('broken');
    expect(await kind2({ path: ['page', 'operations', '[]', 'card'], expect: { noneRequired: true } })).toBe('holds');
    expect(await kind2({ path: ['meta'], expect: { noneRequired: true } })).toBe('not-located');
  });

  it('is not declared, rather than broken, where the note applies only to a declared element', async () => {
    expect(await kind2({ in: 'query:limit', expect: { ifDeclared: true, default: 1000 } })).toBe('not-declared');
    expect(await kind2({ in: 'query:withBalances', expect: { ifDeclared: true, default: true } })).toBe('broken');
    expect(await kind2({ path: ['**', 'limit'], expect: { ifDeclared: true, present: true } })).toBe('not-declared');
  });

  it('never rules an absence out past a schema it could not read', async () => {
    expect(
      await run2({ operation: 'POST /statement', in: 'requestBody', path: ['**', 'notificationUrl'], expect: { present: false } }),
    ).toMatchObject({ kind: 'not-located', reason: expect.stringContaining('could not be read') });
    expect(await kind2({ operation: 'POST /statement', in: 'requestBody', path: ['**', 'y'], expect: { present: true } })).toBe('holds');
  });
});
