/**
 * Facts of the document judged by behaviour and across operations: samples against a schema (equal
 * behaviour holds, whatever the text), field additions between versions, the heavy-load error, the
 * loyalty history errors and certificates in PEM, on small documents made for each case.
 */
import { describe, expect, it } from 'vitest';
import { dereferenceDocument } from '../../harness/business/openapi/dereference.ts';
import {
  additionsOptional,
  certificatesInPem,
  heavyLoadErrorDocumented,
  loyaltyHistoryErrorsDocumented,
} from '../../harness/business/openapi/document-facts.ts';
import { NotLocated } from '../../harness/business/openapi/locate.ts';
import { OperationIndex } from '../../harness/business/openapi/paths.ts';
import { refusal, verdictOn } from '../../harness/business/openapi/schema-behaviour.ts';
import { versionGroups } from '../../harness/business/openapi/versions.ts';

const UIN_SPEC = '^(0|[А-Яа-яA-Za-z0-9]{4}|[А-ЯA-Z0-9]{20}|[А-ЯA-Z0-9]{25})$';
const accepts = (schema: Record<string, unknown>, sample: string) => verdictOn([[schema]], sample).accepted;

describe('a schema judged by what it accepts', () => {
  it('finds two differently written patterns of 20 or 22 digits the same, and a loose one different', () => {
    const samples = ['40702810900000000001', '4070281090000000000123', '407028109000000000012', '4070281090000000000'];
    const written = ['^(\\d{20}|\\d{22})$', '^\\d{20}(\\d{2})?$', '^[0-9]{20}([0-9]{2})?$'];
    const behaviours = written.map((pattern) => samples.map((s) => accepts({ type: 'string', pattern }, s)));
    for (const b of behaviours) expect(b).toEqual([true, true, false, false]);
    expect(samples.map((s) => accepts({ type: 'string', pattern: '^\\d{20,22}$' }, s))).toEqual([true, true, true, false]);
    expect(samples.map((s) => accepts({ type: 'string', pattern: '^\\d+$', minLength: 20, maxLength: 22 }, s))).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it('reads Cyrillic classes of the uin pattern with or without the u flag, and an unanchored pattern as unanchored', () => {
    expect(['0', 'Жд12', 'ЯБВГДЕЖЗИК0123456789'].every((s) => accepts({ pattern: UIN_SPEC }, s))).toBe(true);
    expect(['00', 'абвгдежзик0123456789', 'AB-1'].some((s) => accepts({ pattern: UIN_SPEC }, s))).toBe(false);
    expect(accepts({ pattern: '\\d{4}' }, 'x12345x')).toBe(true);
  });

  it('reads a wire value as a number where the type is numeric: bounds, exclusive bounds of 3.0 and 3.1, integers', () => {
    expect(accepts({ type: 'integer', maximum: 1000 }, '1000')).toBe(true);
    expect(refusal({ type: 'integer', maximum: 1000 }, '1001')).toBe('maximum 1000');
    expect(accepts({ type: 'integer', maximum: 1001, exclusiveMaximum: true }, '1001')).toBe(false);
    expect(accepts({ type: 'integer', exclusiveMaximum: 1001 }, '1000')).toBe(true);
    expect(accepts({ type: 'integer' }, '1.5')).toBe(false);
    expect(accepts({ type: 'integer' }, 'x')).toBe(false);
    expect(accepts({ type: 'boolean' }, '1')).toBe(false);
  });

  it('takes enums and lengths in code points, and accepts in any alternative (oneOf)', () => {
    expect(accepts({ type: 'string', enum: ['1', '2', '3'] }, '4')).toBe(false);
    expect(accepts({ type: 'string', maxLength: 4 }, 'Жд12')).toBe(true);
    expect(verdictOn([[{ pattern: '^\\d{20}$' }], [{ pattern: '^\\d{22}$' }]], '4070281090000000000123').accepted).toBe(true);
    expect(verdictOn([[{ type: 'string' }, { maxLength: 2 }]], 'abc')).toEqual({ accepted: false, because: ['maxLength 2'] });
  });

  it('says so when a pattern does not compile', () => {
    expect(refusal({ pattern: '([' }, 'x')).toMatch(/does not compile/);
  });
});

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ok = { '200': { description: 'ok', ...json({ type: 'object' }) } };
const index = async (paths: Record<string, unknown>, schemas: Record<string, unknown> = {}) =>
  new OperationIndex(await dereferenceDocument({ openapi: '3.0.3', paths, components: { schemas } }));

describe('field additions between versions (9)', () => {
  const v1 = {
    type: 'object',
    required: ['shopId'],
    properties: {
      shopId: { type: 'string' },
      items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
    },
  };
  const v2 = (extra: Record<string, unknown>) => ({ allOf: [v1, extra] });

  it('groups versions of one operation, oldest first, and leaves other operations alone', async () => {
    const doc = await index({
      '/api/v2/x/{id}': { get: { responses: ok } },
      '/api/v1/x/{key}': { get: { responses: ok } },
      '/api/v1/y': { get: { responses: ok } },
      '/api/v3/x/{id}': { post: { responses: ok } },
    });
    expect(versionGroups(doc).map((g) => g.map((o) => o.key))).toEqual([['GET /api/v1/x/{}', 'GET /api/v2/x/{}']]);
  });

  it('passes optional additions and required fields both versions have; fails a required addition at any depth', async () => {
    const fine = await index({
      '/api/v1/o': { post: { requestBody: json(v1), responses: ok } },
      '/api/v2/o': { post: { requestBody: json(v2({ properties: { note: { type: 'string' } } })), responses: ok } },
    });
    expect(additionsOptional(fine, 'R')).toEqual([]);
    const nested = await index({
      '/api/v1/o': { post: { requestBody: json(v1), responses: ok } },
      '/api/v2/o': {
        post: {
          requestBody: json({
            ...v1,
            properties: {
              ...v1.properties,
              items: {
                type: 'array',
                items: { type: 'object', required: ['sku'], properties: { name: { type: 'string' }, sku: { type: 'string' } } },
              },
            },
          }),
          responses: ok,
        },
      },
    });
    expect(additionsOptional(nested, 'R')).toEqual([
      expect.objectContaining({
        expected: 'request body › items[] › sku is optional: the newer version adds it (POST /api/v2/o over POST /api/v1/o)',
        received: 'required',
      }),
    ]);
  });

  it('fails a required query or header parameter the newer version adds, not one both have', async () => {
    const q = (name: string, required: boolean, where = 'query') => ({ name, in: where, required, schema: { type: 'string' } });
    const doc = await index({
      '/api/v1/c': { get: { parameters: [q('a', true)], responses: ok } },
      '/api/v2/c': { get: { parameters: [q('a', true), q('b', true), q('X-Trace', true, 'header'), q('c', false)], responses: ok } },
    });
    expect(additionsOptional(doc, 'R').map((f) => f.expected.split(' is optional')[0])).toEqual([
      'query parameter b',
      'header parameter x-trace',
    ]);
  });

  it('is not located when no operation has two versions', async () => {
    expect(() => additionsOptional(new OperationIndex({ paths: {} }), 'R')).toThrow(NotLocated);
  });
});

describe('errors and certificates the document shows (5.5, 7)', () => {
  const error = { description: 'error', ...json({ type: 'object', properties: { errorCode: { type: 'string' } } }) };

  it('finds the heavy-load answer only as a 429 or 503 with a body', async () => {
    expect(heavyLoadErrorDocumented(await index({ '/a': { get: { responses: { ...ok, '503': error } } } }), 'R')).toEqual([]);
    expect(
      heavyLoadErrorDocumented(
        await index({ '/a': { get: { responses: { ...ok, '429': { description: 'slow down' }, '500': error } } } }),
        'R',
      ),
    ).toEqual([expect.objectContaining({ received: '1 operations, 1 of them with a 429 or 503 without a body' })]);
  });

  it('needs the loyalty history method to document an error answer with a body, and does not judge a document without it', async () => {
    const history = (responses: unknown) => index({ '/api/v1/loyalty/clients/cashback/history': { post: { responses } } });
    expect(loyaltyHistoryErrorsDocumented(await history({ ...ok, '4XX': error }), 'R')).toEqual([]);
    expect(loyaltyHistoryErrorsDocumented(await history(ok), 'R')).toHaveLength(1);
    expect(() => loyaltyHistoryErrorsDocumented(new OperationIndex({}), 'R')).toThrow(NotLocated);
  });

  it('sees PEM in a media type or a certificate field described as PEM, nowhere else', async () => {
    const read = (response: unknown) =>
      index({ '/tls/api/v1/qualified-digital-signature/issue/{id}/certificate': { get: { responses: { '200': response } } } });
    expect(
      certificatesInPem(await read({ description: 'c', content: { 'application/x-pem-file': { schema: { type: 'string' } } } }), 'R'),
    ).toEqual([]);
    expect(
      certificatesInPem(
        await read({
          description: 'c',
          ...json({
            type: 'object',
            properties: {
              data: { type: 'object', properties: { certificate: { type: 'string', pattern: '^-----BEGIN CERTIFICATE-----' } } },
            },
          }),
        }),
        'R',
      ),
    ).toEqual([]);
    expect(
      certificatesInPem(
        await read({
          description: 'c',
          ...json({
            type: 'object',
            properties: { certificate: { type: 'string', description: 'DER, base64' }, note: { type: 'string', description: 'PEM' } },
          }),
        }),
        'R',
      ),
    ).toHaveLength(1);
    await expect(read({ description: 'none' }).then((i) => certificatesInPem(i, 'R'))).rejects.toThrow(NotLocated);
  });
});
