/** The error-body facts of spec 7 (harness/business/checks/errors.ts): the format of an enumeration error, the reasons of a 403. */
import { describe, expect, it } from 'vitest';
import { errorFormat, reasonsOf } from '../../harness/business/checks/errors.ts';

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

describe('reasonsOf', () => {
  it('finds reasons in the details or in a message that says why', () => {
    expect(reasonsOf({ errorMessage: 'Forbidden', errorDetails: { scope: 'card/get is required' } })).toBe('errorDetails');
    expect(reasonsOf({ errorMessage: 'the token lacks the scope opensme/inn/[7707083893]/card/get' })).toBe('errorMessage');
    expect(reasonsOf({ message: 'Нет прав на получение информации о картах' })).toBe('message');
    expect(reasonsOf({ reasons: ['insufficient scope'] })).toBe('reasons');
  });

  it('finds none in a bare refusal', () => {
    for (const body of [
      { errorMessage: 'Forbidden' },
      { errorMessage: '403 Forbidden', errorDetails: {} },
      { errorMessage: 'Access denied.' },
      { errorMessage: 'Доступ запрещён' },
      { reasons: [] },
      'Forbidden',
      undefined,
    ]) {
      expect(reasonsOf(body), JSON.stringify(body)).toBeUndefined();
    }
  });
});
