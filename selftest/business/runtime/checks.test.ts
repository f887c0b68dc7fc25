/**
 * The checks of the business operations as served (harness/business/checks/runtime.ts): each can fail,
 * none falls into the false-alarm traps (charset in Content-Type, status ranges and default, an
 * undocumented 401 on a refusal of missing credentials, 204 without a body), and none passes what a
 * target that does nothing useful answers (an empty 200, `{}`, JSON labelled HTML, 401 to a valid token).
 */
import { describe, expect, it } from 'vitest';
import {
  acceptanceOf,
  bodyConforms,
  judgedSchema,
  contentTypeDocumented,
  documentedSuccess,
  noServerError,
  notServedOnPlainHost,
  refusedWithoutCertificate,
  rejectedAsInvalid,
  servedWithCertificate,
  operationStatusDocumented,
  vendorErrorBody,
} from '../../../harness/business/checks/runtime.ts';
import { cannedResponse } from '../../helpers.ts';
import type { CapturedResponse } from '../../../harness/request/http.ts';
import { DocumentSchemas } from '../../../harness/business/openapi/json-schema.ts';
import type { OperationModel } from '../../../harness/business/openapi/operation-model.ts';

const ID = 'BUS-RUN-000';

function res(status: number, body?: unknown, contentType = 'application/json; charset=utf-8'): CapturedResponse {
  return cannedResponse(status, body, { 'content-type': contentType });
}

const CARD = {
  type: 'object',
  required: ['ucid'],
  properties: { ucid: { type: 'integer', format: 'int64' }, name: { type: 'string', nullable: true } },
};
const document = { openapi: '3.0.3', components: { schemas: { Card: CARD } } };
const op: OperationModel = {
  method: 'GET',
  path: '/cards/{ucid}',
  name: 'GET /cards/{ucid}',
  parameters: [{ name: 'ucid', in: 'path', required: true, schema: { type: 'integer' } }],
  responses: [
    { key: '200', content: [{ mediaType: 'application/json', schema: { $ref: '#/components/schemas/Card' } }] },
    { key: '204', content: [] },
    { key: '4XX', content: [{ mediaType: 'application/problem+json', schema: { type: 'object' } }] },
  ],
  secured: true,
  deprecated: false,
};
const schemas = new DocumentSchemas(document);

describe('status, content type and body against the document', () => {
  it('accepts exact statuses and ranges, tolerates an undocumented 401 only on a refusal of missing credentials, fails the rest', () => {
    for (const status of [200, 204, 404, 418]) expect(operationStatusDocumented(op, res(status), ID)).toEqual([]);
    expect(operationStatusDocumented(op, res(202), ID)).toEqual([
      {
        requirement: ID,
        expected: 'a status GET /cards/{ucid} documents (200, 204, 4xx)',
        received: 'undocumented status 202',
        at: undefined,
      },
    ]);
    expect(operationStatusDocumented(op, res(500), ID)).toHaveLength(1);
    const noErrors = { ...op, responses: op.responses.filter((r) => r.key !== '4XX') };
    expect(operationStatusDocumented(noErrors, res(401), ID)).toHaveLength(1);
    expect(operationStatusDocumented(noErrors, res(401), ID, { credentialRefusal: true })).toEqual([]);
    expect(operationStatusDocumented(noErrors, res(429), ID)).toHaveLength(1);
  });

  it('compares type and subtype only; a documented body must be there, a 204 has none', () => {
    expect(contentTypeDocumented(op, res(200, { ucid: 1 }), ID)).toEqual([]);
    expect(contentTypeDocumented(op, res(204), ID)).toEqual([]);
    expect(contentTypeDocumented(op, res(400, { a: 1 }, 'application/problem+json'), ID)).toEqual([]);
    expect(contentTypeDocumented(op, res(200, '{"ucid":1}', 'text/plain'), ID)[0].received).toBe('Content-Type text/plain');
    expect(contentTypeDocumented(op, cannedResponse(200, undefined, {}), ID)[0].received).toBe('an empty body and no Content-Type');
  });

  it('reads a document whose media key carries parameters as its type and subtype, for the label, the body and its schema', () => {
    const keyed: OperationModel = {
      ...op,
      responses: [
        { key: '200', content: [{ mediaType: 'application/json;charset=UTF-8', schema: { $ref: '#/components/schemas/Card' } }] },
      ],
    };
    for (const label of ['application/json;charset=UTF-8', 'application/json', 'Application/JSON; charset=utf-8'])
      expect(contentTypeDocumented(keyed, res(200, { ucid: 1 }, label), ID)).toEqual([]);
    for (const label of ['application/json-seq;charset=UTF-8', 'text/plain;charset=UTF-8', 'application/jsonx'])
      expect(contentTypeDocumented(keyed, res(200, { ucid: 1 }, label), ID)[0].received).toBe(`Content-Type ${label}`);
    expect(judgedSchema(keyed, res(200, { ucid: 1 }))).toBeDefined();
    expect(bodyConforms(keyed, res(200, { ucid: 'five' }, 'application/json;charset=UTF-8'), schemas, ID)).toHaveLength(1);
  });

  it('checks a JSON body against the converted schema (nullable, int64)', () => {
    expect(bodyConforms(op, res(200, { ucid: 5, name: null }), schemas, ID)).toEqual([]);
    const failures = bodyConforms(op, res(200, { ucid: 'five' }), schemas, ID);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ at: '/ucid', received: '"five"' });
    expect(bodyConforms(op, res(200, '{"ucid":', 'application/json'), schemas, ID)[0].received).toMatch(/not JSON/);
  });

  it('reads a body labelled otherwise as JSON where JSON is all the status documents', () => {
    expect(bodyConforms(op, res(200, { ucid: 'five' }, 'text/html'), schemas, ID)).toHaveLength(1);
    expect(bodyConforms(op, res(200, {}, 'text/html'), schemas, ID)[0].expected).toMatch(/required/);
    // An empty body where one is documented is BUS-RUN-003's failure; this check has nothing to judge.
    expect(bodyConforms(op, cannedResponse(200, undefined, {}), schemas, ID)).toEqual([]);
    expect(judgedSchema(op, cannedResponse(200, undefined, {}))).toBeUndefined();
    expect(judgedSchema(op, res(200, { ucid: 5 }))).toBeDefined();
  });

  it('the documented success: a listed 2xx with its documented body', () => {
    expect(documentedSuccess(op, res(200, { ucid: 5 }), schemas, ID)).toEqual([]);
    expect(documentedSuccess(op, res(204), schemas, ID)).toEqual([]);
    expect(documentedSuccess(op, res(401, {}), schemas, ID)[0]).toMatchObject({ requirement: ID, received: 'status 401' });
    // The form of a 2xx is BUS-RUN-002..004's subject: its failures name them, for the tests that depend on them.
    expect(documentedSuccess(op, res(200, {}), schemas, ID).map((f) => f.requirement)).toEqual(['BUS-RUN-004']);
    expect(documentedSuccess(op, cannedResponse(200, undefined, {}), schemas, ID).map((f) => f.requirement)).toEqual(['BUS-RUN-003']);
    expect(documentedSuccess(op, res(200, { ucid: 5 }, 'text/html'), schemas, ID).map((f) => f.requirement)).toEqual(['BUS-RUN-003']);
    expect(documentedSuccess(op, res(202, { ucid: 5 }), schemas, ID).map((f) => f.requirement)).toEqual(['BUS-RUN-002']);
  });
});

describe('valid and invalid requests', () => {
  it('no 5xx, with gateway errors named', () => {
    expect(noServerError(res(404), ID)).toEqual([]);
    expect(noServerError(res(503), ID)[0].received).toMatch(/gateway or availability/);
  });

  it('a valid request reaches its documented success; a refusal of it fails, what proves nothing is unjudged', () => {
    const generated = { identifiersExist: false };
    const existing = { identifiersExist: true };
    expect(acceptanceOf(op, res(200, { ucid: 1 }), schemas, ID, generated)).toEqual({ failures: [] });
    for (const status of [405, 406, 415, 401, 403])
      expect(acceptanceOf(op, res(status, {}), schemas, ID, generated).failures).toHaveLength(1);
    expect(acceptanceOf(op, res(404, {}), schemas, ID, existing).failures[0].received).toBe('status 404');
    // A 400 may come from a rule beyond the served schema (a checksum, a value that must exist): it proves nothing.
    for (const status of [400, 404, 409, 413, 422, 500])
      expect(acceptanceOf(op, res(status, {}), schemas, ID, generated)).toMatchObject({ failures: [], unjudged: expect.any(String) });
    expect(acceptanceOf(op, res(400, {}), schemas, ID, { identifiersExist: false, unknownIdentifierIs400: true })).toMatchObject({
      failures: [],
      unjudged: expect.stringMatching(/vendor fact/),
    });
    expect(acceptanceOf(op, res(400, {}), schemas, ID, { identifiersExist: true, unknownIdentifierIs400: true })).toMatchObject({
      failures: [],
      unjudged: expect.stringMatching(/beyond the served schema/),
    });
    expect(acceptanceOf(op, cannedResponse(200, undefined, {}), schemas, ID, existing)).toMatchObject({
      failures: [],
      unjudged: expect.stringMatching(/not as the document describes/),
    });
  });

  it('an invalid request: a 4xx of the rejection set, a 400 in JSON', () => {
    expect(rejectedAsInvalid(res(400, { errorCode: 'X' }), ID)).toEqual([]);
    expect(rejectedAsInvalid(res(422, 'no body', 'text/plain'), ID)).toEqual([]);
    expect(rejectedAsInvalid(res(200, {}), ID)[0].received).toBe('accepted with 200');
    expect(rejectedAsInvalid(res(500, {}), ID)[0].received).toBe('server error 500');
    expect(rejectedAsInvalid(res(400, '<html>bad</html>', 'text/html'), ID)[0].received).toMatch(/^400 with a body that is not JSON/);
    expect(rejectedAsInvalid(res(400), ID)[0].received).toBe('400 with an empty body');
  });
});

describe('credentials and certificates', () => {
  it('without a client certificate: a TLS refusal or a refusal status', () => {
    const tls = (e: string) => /SSL/.test(e);
    expect(refusedWithoutCertificate({ error: 'SSL alert 116' }, ID, tls)).toEqual([]);
    // No answer for another reason is a tool error with its code, never a contract result.
    expect(() => refusedWithoutCertificate({ error: 'ECONNREFUSED' }, ID, tls)).toThrow(/^TARGET_UNREACHABLE: /);
    expect(() => refusedWithoutCertificate({ error: 'TARGET_TIMEOUT: GET /x did not answer' }, ID, tls)).toThrow(
      /^TARGET_TIMEOUT: no answer without the client certificate, for a reason that is not a TLS refusal: GET \/x/,
    );
    expect(refusedWithoutCertificate({ response: res(403) }, ID, tls)).toEqual([]);
    expect(refusedWithoutCertificate({ response: res(200) }, ID, tls)[0].received).toBe('served with 200');
    expect(refusedWithoutCertificate({ response: res(404) }, ID, tls)).toHaveLength(1);
    expect(notServedOnPlainHost(res(404), ID)).toEqual([]);
    expect(notServedOnPlainHost(res(200), ID)).toHaveLength(1);
    expect(servedWithCertificate(res(404), ID)).toEqual([]);
    expect(servedWithCertificate(res(403, 'wrong certificate', 'text/plain'), ID)).toHaveLength(1);
  });

  it('the vendor error body', () => {
    expect(
      vendorErrorBody(res(404, { errorId: 'a', errorMessage: 'b', errorCode: 'NOT_FOUND', errorDetails: { x: 'y' } }), ID, 'here'),
    ).toEqual([]);
    expect(vendorErrorBody(res(404, { message: 'b', code: 404 }), ID, 'here').map((f) => f.expected)).toEqual([
      'here: errorId, a non-empty string',
      'here: errorMessage, a non-empty string',
      'here: errorCode, a non-empty string',
    ]);
    expect(vendorErrorBody(res(400, { errorId: 'a', errorMessage: 'b', errorCode: 'c', errorDetails: 'x' }), ID, 'here')).toHaveLength(1);
    expect(vendorErrorBody(res(200, {}), ID, 'here')).toEqual([]);
  });
});
