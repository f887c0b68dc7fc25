/** The error-body facts of spec 7 (harness/business/checks/errors.ts): the format of an enumeration error, the reasons of a 403. */
import { describe, expect, it } from 'vitest';
import { errorFormat, formatDifferences, jsonWhere400, reasonsIn, reasonsOf } from '../../harness/business/checks/errors.ts';
import { cannedResponse } from '../helpers.ts';

describe('errorFormat', () => {
  it('is the top-level fields and their types, not their values', () => {
    const a = { errorId: '1', errorCode: 'VALIDATION_ERROR', errorMessage: 'type', errorDetails: { type: 'x' } };
    const b = { errorMessage: 'address', errorCode: 'INVALID_ENUM', errorId: '2', errorDetails: { 'addresses[1].type': 'y' } };
    expect(errorFormat(a)).toBe(errorFormat(b));
    expect(errorFormat({ ...a, errorDetails: undefined })).not.toBe(errorFormat(a));
    expect(errorFormat({ errorId: '1', errorCode: 'X', errorMessage: 'm' })).not.toBe(errorFormat(a));
    expect(errorFormat({ ...a, errorDetails: ['x'] })).not.toBe(errorFormat(a));
    expect(errorFormat('Bad Request')).toBe('(string, not an object)');
  });
});

describe('formatDifferences', () => {
  const documented = {
    declared: new Set(['errorId', 'errorCode', 'errorMessage', 'errorDetails']),
    required: new Set(['errorId', 'errorCode', 'errorMessage']),
  };
  const full = { errorId: '1', errorCode: 'VALIDATION_ERROR', errorMessage: 'type', errorDetails: { type: 'x' } };
  const bare = { errorId: '2', errorCode: 'VALIDATION_ERROR', errorMessage: 'type: must be one of' };

  it('is one format where an optional field is on one error and not another, their values aside', () => {
    expect(
      formatDifferences([
        { what: 'a', body: full, documented },
        { what: 'b', body: bare, documented },
      ]),
    ).toEqual([]);
    expect(
      formatDifferences([
        { what: 'a', body: bare, documented },
        { what: 'b', body: full, documented },
      ]),
    ).toEqual([]);
  });

  it('differs on a field of another type, a required or undeclared field on one only, or no schema known', () => {
    expect(
      formatDifferences([
        { what: 'a', body: full, documented },
        { what: 'b', body: { ...full, errorDetails: 'x' }, documented },
      ]),
    ).toEqual(['errorDetails is a object in a, a string in b']);
    const renamed = { errorId: '2', errorCode: 'X', message: 'm' };
    expect(
      formatDifferences([
        { what: 'a', body: full, documented },
        { what: 'b', body: renamed, documented },
      ]),
    ).toEqual([
      'errorMessage is in a but not in b, whose documented schema requires it',
      'message is in b but not in a, whose documented schema does not declare it',
    ]);
    expect(
      formatDifferences([
        { what: 'a', body: { ...full, invalidValue: 'X' }, documented },
        { what: 'b', body: full, documented },
      ]),
    ).toEqual(['invalidValue is in a but not in b, whose documented schema does not declare it']);
    expect(
      formatDifferences([
        { what: 'a', body: full },
        { what: 'b', body: bare },
      ]),
    ).toEqual(['errorDetails is in a but not in b, whose documented schema is not known']);
    expect(
      formatDifferences([
        { what: 'a', body: full },
        { what: 'b', body: 'Bad Request' },
      ]),
    ).toEqual(['b: a string, not an object']);
  });
});

describe('jsonWhere400', () => {
  it('judges 400s only: labelled JSON with a body that parses', () => {
    expect(jsonWhere400(cannedResponse(400, { errorId: '1' }, { 'content-type': 'application/json; charset=utf-8' }), 'X', 'w')).toEqual(
      [],
    );
    expect(jsonWhere400(cannedResponse(422, 'nope', { 'content-type': 'text/plain' }), 'X', 'w')).toEqual([]);
    expect(jsonWhere400(cannedResponse(400, 'Bad Request', { 'content-type': 'text/plain' }), 'X', 'w')[0].received).toMatch(
      /^Content-Type text\/plain, body not JSON/,
    );
    expect(jsonWhere400(cannedResponse(400, undefined, { 'content-type': 'application/json' }), 'X', 'w')[0].received).toMatch(
      /empty body/,
    );
  });
});

describe('reasonsOf', () => {
  it('finds reasons in the details or in a message that says why', () => {
    expect(reasonsOf({ errorMessage: 'Forbidden', errorDetails: { scope: 'card/get is required' } })).toBe('errorDetails');
    expect(reasonsOf({ errorMessage: 'the token lacks the scope opensme/inn/[7707083893]/card/get' })).toBe('errorMessage');
    expect(reasonsOf({ message: 'Нет прав на получение информации о картах' })).toBe('message');
    expect(reasonsOf({ reasons: ['insufficient scope'] })).toBe('reasons');
    expect(reasonsOf({ errorMessage: 'wrong TLS certificate' })).toBe('errorMessage');
  });

  it('reads the words of a body that is not JSON, not its tags', () => {
    expect(
      reasonsIn(cannedResponse(403, '<html><body><h1>403 Forbidden</h1></body></html>', { 'content-type': 'text/html' })),
    ).toBeUndefined();
    expect(reasonsIn(cannedResponse(403, '<p>client certificate required</p>', { 'content-type': 'text/html' }))).toBe('the body');
  });

  it('finds none in a bare refusal', () => {
    for (const body of [
      { errorMessage: 'Forbidden' },
      { errorMessage: '403 Forbidden', errorDetails: {} },
      { errorMessage: 'Access denied.' },
      { errorMessage: 'Доступ запрещён' },
      { errorMessage: 'You have no access. Please try again later.', errorDetails: {} },
      { errorMessage: 'You do not have permission to perform this action' },
      { message: 'У вас нет доступа к этой операции, попробуйте позже' },
      { reasons: [] },
      'Forbidden',
      undefined,
    ]) {
      expect(reasonsOf(body), JSON.stringify(body)).toBeUndefined();
    }
  });
});
