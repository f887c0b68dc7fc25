/** Media types compared as RFC 9110 does: type and subtype case-insensitive, parameters apart, on both sides. */
import { describe, expect, it } from 'vitest';
import { isJsonMedia, mediaEssence, mediaMatches } from '../../harness/request/media-type.ts';
import { jsonBodyOf, jsonMediaOf, type OperationModel } from '../../harness/business/openapi/operation-model.ts';

describe('mediaEssence', () => {
  it('is the type and subtype in lower case, without parameters or spaces', () => {
    expect(mediaEssence('application/json')).toBe('application/json');
    expect(mediaEssence('Application/JSON;charset=UTF-8')).toBe('application/json');
    expect(mediaEssence(' application/problem+json ; charset="utf-8"')).toBe('application/problem+json');
  });

  it('is undefined for what is no media type', () => {
    for (const text of [undefined, '', 'json', 'application/', '/json', 'application json', 'application/json extra'])
      expect(mediaEssence(text)).toBeUndefined();
  });
});

describe('mediaMatches', () => {
  it('matches the same type and subtype whatever the parameters and case on either side', () => {
    expect(mediaMatches('application/json;charset=UTF-8', 'application/json')).toBe(true);
    expect(mediaMatches('application/json', 'application/json; charset=utf-8')).toBe(true);
    expect(mediaMatches('APPLICATION/JSON;charset=UTF-8', 'application/json;charset=ISO-8859-1')).toBe(true);
  });

  it('does not match another subtype, even one that begins the same or carries the same parameters', () => {
    expect(mediaMatches('application/json;charset=UTF-8', 'application/json-seq;charset=UTF-8')).toBe(false);
    expect(mediaMatches('application/json', 'application/jsonx')).toBe(false);
    expect(mediaMatches('application/json', 'text/json')).toBe(false);
    expect(mediaMatches('application/json', undefined)).toBe(false);
    expect(mediaMatches('application/json', 'nonsense')).toBe(false);
  });

  it('reads wildcard ranges', () => {
    expect(mediaMatches('*/*', 'text/plain')).toBe(true);
    expect(mediaMatches('text/*', 'Text/HTML; charset=utf-8')).toBe(true);
    expect(mediaMatches('text/*', 'application/json')).toBe(false);
  });
});

describe('isJsonMedia', () => {
  it('is application/json or a +json type, with any parameters', () => {
    for (const text of ['application/json', 'application/json;charset=UTF-8', 'application/problem+json', 'application/vnd.api+json; v=1'])
      expect(isJsonMedia(text)).toBe(true);
    for (const text of ['application/json-seq', 'text/plain', 'application/jsonl', undefined]) expect(isJsonMedia(text)).toBe(false);
  });
});

describe('the operation model finds a JSON body under a key with parameters', () => {
  const schema = { type: 'object' };
  const op: OperationModel = {
    method: 'POST',
    path: '/x',
    name: 'POST /x',
    parameters: [],
    body: {
      required: true,
      content: [
        { mediaType: 'text/plain', schema: { type: 'string' } },
        { mediaType: 'application/json;charset=UTF-8', schema },
      ],
    },
    responses: [],
    secured: true,
    deprecated: false,
  };

  it('jsonBodyOf and jsonMediaOf', () => {
    expect(jsonBodyOf(op)).toEqual({ required: true, schema });
    expect(jsonMediaOf(op.body!.content)?.mediaType).toBe('application/json;charset=UTF-8');
    expect(jsonMediaOf([{ mediaType: 'application/problem+json' }, { mediaType: 'Application/Json' }])?.mediaType).toBe('Application/Json');
  });
});
