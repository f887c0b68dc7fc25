/** OpenAPI 3.0 schemas to JSON Schema 2020-12, judged by ajv as the runtime suites will use them. */
import { describe, expect, it } from 'vitest';
import { convertSchema, DocumentSchemas } from '../../harness/business/openapi/json-schema.ts';

const DOC = {
  openapi: '3.0.3',
  components: {
    schemas: {
      Money: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 100, exclusiveMaximum: false, example: 5 },
      Order: {
        type: 'object',
        required: ['id', 'amount', 'secret'],
        properties: {
          id: { type: 'string', readOnly: true },
          secret: { type: 'string', writeOnly: true },
          amount: { $ref: '#/components/schemas/Money' },
          note: { type: 'string', nullable: true, 'x-internal': 1 },
          kind: { type: 'string', enum: ['a', 'b'], nullable: true },
          parent: { allOf: [{ $ref: '#/components/schemas/Order' }], nullable: true },
          count: { type: 'integer', format: 'int32' },
          code: { type: 'string', pattern: '^[a-z\\-]+$' },
        },
        discriminator: { propertyName: 'kind' },
      },
    },
  },
};

const order = (DOC.components.schemas as Record<string, Record<string, unknown>>).Order;

describe('converting OpenAPI 3.0 schemas', () => {
  it('turns nullable, boolean exclusive bounds and example into their JSON Schema forms', () => {
    const money = convertSchema(DOC.components.schemas.Money, { bundleId: 'urn:b', direction: 'response' });
    expect(money).toEqual({ type: 'number', exclusiveMinimum: 0, maximum: 100, examples: [5] });
    const props = (convertSchema(order, { bundleId: 'urn:b', direction: 'response' }) as { properties: Record<string, unknown> })
      .properties;
    expect(props.note).toEqual({ type: ['string', 'null'] });
    expect(props.kind).toEqual({ type: ['string', 'null'], enum: ['a', 'b', null] });
    expect(props.parent).toEqual({ anyOf: [{ allOf: [{ $ref: 'urn:b#/$defs/Order' }] }, { type: 'null' }] });
  });

  it('does not require readOnly properties in requests nor writeOnly ones in responses', () => {
    expect((convertSchema(order, { bundleId: 'urn:b', direction: 'request' }) as { required: string[] }).required).toEqual([
      'amount',
      'secret',
    ]);
    expect((convertSchema(order, { bundleId: 'urn:b', direction: 'response' }) as { required: string[] }).required).toEqual([
      'id',
      'amount',
    ]);
  });
});

describe('validating bodies against a fetched document', () => {
  const schemas = new DocumentSchemas(DOC);

  it('accepts a conforming body and follows $refs, recursion included', () => {
    const validate = schemas.validator(order, 'response');
    expect(
      validate({ id: 'o1', amount: 5, note: null, kind: null, parent: { id: 'p', amount: 1, parent: null }, count: 3, code: 'a-b' }),
    ).toBe(true);
  });

  it('rejects what the document rules out, with every error', () => {
    const validate = schemas.validator(order, 'response');
    expect(validate({ id: 'o1', amount: 0, kind: 'c', count: 2 ** 31, parent: { id: 'p' } })).toBe(false);
    const keywords = validate.errors!.map((e) => `${e.instancePath} ${e.keyword}`);
    expect(keywords).toEqual(expect.arrayContaining(['/amount exclusiveMinimum', '/kind enum', '/count format', '/parent required']));
  });

  it('can switch format checks off', () => {
    const lenient = new DocumentSchemas(DOC, { validateFormats: false }).validator(order, 'response');
    expect(lenient({ id: 'o1', amount: 1, count: 2 ** 31 })).toBe(true);
  });

  it('reports a schema that cannot compile instead of throwing', () => {
    const validate = schemas.validator({ type: 'string', pattern: '([' }, 'response');
    expect(validate('x')).toBe(false);
    expect(validate.errors![0].message).toMatch(/could not be compiled/);
  });

  it('compiles each schema once per direction', () => {
    expect(schemas.validator(order, 'request')).toBe(schemas.validator(order, 'request'));
    expect(schemas.validator(order, 'request')).not.toBe(schemas.validator(order, 'response'));
  });
});
