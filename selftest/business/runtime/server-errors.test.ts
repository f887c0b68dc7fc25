/**
 * The run's record of operations that answered with a 5xx (harness/request/server-errors.ts): what one place
 * records, every later verdict sees; an operation that never failed has no record.
 */
import { describe, expect, it } from 'vitest';
import { recordServerError, serverErrorOf } from '../../../harness/request/server-errors.ts';

describe('the record of 5xx answers', () => {
  it('keeps the first 5xx of an operation and nothing for the others', () => {
    expect(serverErrorOf('GET /api/v1/never-failed')).toBeUndefined();
    recordServerError('GET /api/v1/company', 'a valid request answered HTTP 500');
    recordServerError('GET /api/v1/company', 'the retry answered HTTP 503');
    expect(serverErrorOf('GET /api/v1/company')).toBe('a valid request answered HTTP 500');
    expect(serverErrorOf('GET /api/v1/card')).toBeUndefined();
  });
});
