/** The 3-NDFL checks, each shown to pass on a right answer and to fail, saying why, on a wrong one. */
import { describe, expect, it } from 'vitest';
import { cannedResponse } from '../../helpers.ts';
import type { CapturedResponse } from '../../../harness/request/http.ts';
import type { Snapshot } from '../../../harness/business/ndfl3/api.ts';
import {
  businessErrorBody,
  containsText,
  landedIn,
  refusedUnchanged,
  repeatChangesNothing,
  valuesOfKey,
  writtenIsRead,
} from '../../../harness/business/ndfl3/checks.ts';
import { workflow } from '../../../harness/business/ndfl3/workflow.ts';

function res(status: number, body?: unknown, contentType = 'application/json'): CapturedResponse {
  return cannedResponse(status, body, { 'content-type': contentType });
}
const snap = (state?: string, version?: string): Snapshot => ({ response: res(200, { status: state }), state, version });
const ready = workflow().byName.get('ready')!;
const R = 'NDF-X-001';

describe('landedIn', () => {
  it('passes on 2xx and the target state read back', () =>
    expect(landedIn(R, ready, 'PartnerInProgress', res(200), snap('Ready'))).toEqual([]));
  it('fails on a refusal', () =>
    expect(
      landedIn(R, ready, 'PartnerInProgress', res(422, { errorCode: 'TRANSITION_NOT_ALLOWED' }), snap('PartnerInProgress'))[0].received,
    ).toBe('HTTP 422 TRANSITION_NOT_ALLOWED'));
  it('fails on another state', () =>
    expect(landedIn(R, ready, 'PartnerInProgress', res(200), snap('Acknowledge'))[0]).toMatchObject({
      expected: 'GET reads state Ready after ready (3.1)',
      received: 'state Acknowledge',
    }));
});

describe('repeatChangesNothing', () => {
  const before = { state: 'Ready', version: '"7"' };
  it('passes on 200 with state and version unchanged', () =>
    expect(repeatChangesNothing(R, ready, before, res(200), snap('Ready', '"7"'))).toEqual([]));
  it('fails on a new version', () =>
    expect(repeatChangesNothing(R, ready, before, res(200), snap('Ready', '"8"'))[0].received).toBe('version "8"'));
  it('fails on a refusal', () => expect(repeatChangesNothing(R, ready, before, res(422), snap('Ready', '"7"'))).toHaveLength(1));
});

describe('refusedUnchanged', () => {
  const before = { state: 'Ready', version: 'v1' };
  it('passes on any refusal with nothing changed: the spec fixes no status for a call the state does not allow', () => {
    for (const status of [400, 404, 405, 409, 422, 423])
      expect(refusedUnchanged(R, 'x', before, res(status), snap('Ready', 'v1')), `status ${status}`).toEqual([]);
  });
  it('fails on an acceptance and a server error', () => {
    for (const status of [200, 204, 500, 503])
      expect(refusedUnchanged(R, 'x', before, res(status), snap('Ready', 'v1')), `status ${status}`).toHaveLength(1);
  });
  it('fails when a refused call moved the state or the version', () => {
    expect(refusedUnchanged(R, 'x', before, res(422), snap('Acknowledge', 'v2'))[0].received).toBe('state Acknowledge');
    expect(refusedUnchanged(R, 'x', before, res(422), snap('Ready', 'v2'))[0].received).toBe('version v2');
  });
  it('takes the statuses that count as refused', () =>
    expect(refusedUnchanged(R, 'x', before, res(400), snap('Ready', 'v1'), [422])).toHaveLength(1));
});

describe('businessErrorBody', () => {
  it('passes on the vendor body, with or without errorDetails', () => {
    expect(businessErrorBody(R, res(422, { errorId: 'e1', errorMessage: 'no', errorCode: 'X' }))).toEqual([]);
    expect(
      businessErrorBody(
        R,
        res(422, { errorId: 'e1', errorMessage: 'no', errorCode: 'X', errorDetails: { a: 'b' } }, 'application/json; charset=utf-8'),
      ),
    ).toEqual([]);
  });
  it('fails on text, a missing field, an empty code and a list of details', () => {
    expect(businessErrorBody(R, res(422, 'not allowed', 'text/plain'))[0].received).toBe('Content-Type text/plain');
    expect(businessErrorBody(R, res(422, { errorMessage: 'no', errorCode: 'X' }))[0].at).toBe('/errorId');
    expect(businessErrorBody(R, res(422, { errorId: 'e', errorMessage: 'no', errorCode: '' }))[0].at).toBe('/errorCode');
    expect(businessErrorBody(R, res(422, { errorId: 'e', errorMessage: 'no', errorCode: 'X', errorDetails: ['a'] }))[0].at).toBe(
      '/errorDetails',
    );
  });
});

describe('writtenIsRead', () => {
  const written = {
    taxYear: 2024,
    answers: [
      { questionId: 'a', value: '1' },
      { questionId: 'b', value: 'x (pc-1)' },
    ],
  };
  it('passes when everything written is read back, in any order, with extra fields', () => {
    expect(
      writtenIsRead(R, written, {
        taxYear: 2024,
        version: 'v',
        answers: [
          { questionId: 'b', value: 'x (pc-1)', at: 't' },
          { questionId: 'a', value: '1' },
        ],
      }),
    ).toEqual([]);
  });
  it('fails on a lost answer, a changed value and a number read as a string', () => {
    expect(writtenIsRead(R, written, { taxYear: 2024, answers: [{ questionId: 'a', value: '1' }] })[0].at).toBe('/answers/1');
    expect(writtenIsRead(R, written, { taxYear: 2023, answers: written.answers })[0]).toMatchObject({ at: '/taxYear', received: '2023' });
    expect(writtenIsRead(R, written, { taxYear: '2024', answers: written.answers })).toHaveLength(1);
    expect(writtenIsRead(R, written, undefined)).toHaveLength(1);
  });
});

describe('containsText, valuesOfKey', () => {
  it('find a string value and the values of a key at any depth', () => {
    const chat = { messages: [{ text: 'hello' }, { text: 'sent [pc-9]', attachments: [{ attachmentId: 'x' }] }] };
    expect(containsText(chat, 'sent [pc-9]')).toBe(true);
    expect(containsText(chat, 'sent')).toBe(false);
    expect(valuesOfKey(chat, 'attachmentId')).toEqual(['x']);
  });
});
