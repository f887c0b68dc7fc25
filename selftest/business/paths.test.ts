/** The path-matching rule: parameter names ignored, trailing slash and version segment significant. */
import { describe, expect, it } from 'vitest';
import { matchPath, OperationIndex, operationKey, parseOperationName, sameOperation } from '../../harness/business/openapi/paths.ts';

const doc = {
  paths: {
    '/api/v2/checkout/order/{merchant}/by/{id}': { get: {}, parameters: [] },
    '/api/v1/company/': { get: {} },
    '/api/v3/card': { get: {} },
    '/api/v1/rules': { get: { deprecated: true }, post: {} },
    '/api/v1/Card': { get: {} },
    '/x-extension': 'not a path item',
  },
};

describe('path templates', () => {
  const index = new OperationIndex(doc);

  it('ignores parameter names', () => {
    expect(index.find('GET', '/api/v2/checkout/order/{shopId}/by/{orderId}')?.path).toBe('/api/v2/checkout/order/{merchant}/by/{id}');
    expect(sameOperation({ method: 'get', path: '/a/{x}' }, { method: 'GET', path: '/a/{y}' })).toBe(true);
  });

  it('compares methods case-insensitively, only HTTP methods count as operations', () => {
    expect(index.find('post', '/api/v1/rules')).toBeDefined();
    expect(index.find('DELETE', '/api/v1/rules')).toBeUndefined();
    expect(index.all.map((o) => o.key)).not.toContain('PARAMETERS /api/v2/checkout/order/{}/by/{}');
    expect(index.all).toHaveLength(6);
  });

  it('treats a trailing slash as significant and says so when that is the only difference', () => {
    expect(index.find('GET', '/api/v1/company')).toBeUndefined();
    expect(index.nearMisses('GET', '/api/v1/company')).toEqual([
      'GET /api/v1/company/ (differs only by a trailing slash, which is significant)',
    ]);
  });

  it('treats the version segment as significant and names the other versions', () => {
    expect(index.find('GET', '/api/v1/card')).toBeUndefined();
    expect(index.nearMisses('GET', '/api/v1/card')).toEqual(['GET /api/v3/card (other version)']);
  });

  it('compares literal segments case-sensitively', () => {
    expect(index.find('GET', '/api/v1/card')).toBeUndefined();
    expect(index.find('GET', '/api/v1/Card')).toBeDefined();
  });

  it('names another method on the same path as a near miss', () => {
    expect(index.nearMisses('PUT', '/api/v1/rules')).toEqual(['GET /api/v1/rules (other method)', 'POST /api/v1/rules (other method)']);
  });

  it('reads "METHOD /path" names and refuses anything else', () => {
    expect(parseOperationName('get /api/v1/card')).toEqual({ method: 'GET', path: '/api/v1/card' });
    expect(() => parseOperationName('/api/v1/card')).toThrow(/METHOD \/path/);
    expect(operationKey('put', '/a/{b}/c/{d}')).toBe('PUT /a/{}/c/{}');
  });

  it('a document without paths has no operations', () => {
    expect(new OperationIndex({ openapi: '3.0.3' }).all).toEqual([]);
    expect(new OperationIndex('<html>').all).toEqual([]);
  });
});

describe('matching a concrete path to a template', () => {
  it('binds one segment per parameter, decoded', () => {
    expect(matchPath('/api/v2/checkout/order/{shopId}/by/{orderId}', '/api/v2/checkout/order/s%201/by/o-2')).toEqual({
      shopId: 's 1',
      orderId: 'o-2',
    });
    expect(matchPath('/files/{name}.{ext}', '/files/report.pdf')).toEqual({ name: 'report', ext: 'pdf' });
  });

  it('does not match across segments, with an empty parameter, or with a trailing slash', () => {
    expect(matchPath('/a/{id}', '/a/1/2')).toBeUndefined();
    expect(matchPath('/a/{id}', '/a/')).toBeUndefined();
    expect(matchPath('/a/{id}', '/a/1/')).toBeUndefined();
    expect(matchPath('/a.b/{id}', '/aXb/1')).toBeUndefined();
  });
});
