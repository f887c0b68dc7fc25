/**
 * The insurance checks and the refusal verdict, locally: what a served request, a refusal and a
 * degenerate answer (an empty 200, `{}`, HTML) each make of them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConformanceError } from '../../harness/checks/failure.ts';
import { acceptedWithRecord, servedAsSent, storedRecordsConsistent } from '../../harness/checks/insurance.ts';
import { jsonWhereBody } from '../../harness/checks/json-answer.ts';
import { rejectedWith } from '../../harness/checks/status.ts';
import { inconclusive, isInconclusive } from '../../harness/errors.ts';
import type { CapturedResponse } from '../../harness/http.ts';
import { Redactor } from '../../harness/redact.ts';
import { expectRefusal } from '../../harness/refusal.ts';
import type { RequirementContext } from '../../harness/suite.ts';
import { sampleItem, sampleRequest } from '../../generators/insurance.ts';
import { cannedResponse } from '../helpers.ts';

const JSON_TYPE = { 'content-type': 'application/json' };

function recordOf(sent = sampleRequest({ surrender: [sampleItem(), sampleItem({ currency: 'USD' })] })) {
  const at = new Date().toISOString();
  return {
    sent,
    record: {
      createdAt: at,
      updatedAt: at,
      updateDate: sent.updateDate,
      providerName: 'P',
      productType: sent.productType,
      contractId: sent.contractId,
      surrender: sent.surrender.map((item, i) => ({ ...item, contractId: sent.contractId, id: i + 1, createdAt: at, updatedAt: at, providerName: 'P' })),
    },
  };
}

describe('JSON on every answer with a body (spec 4)', () => {
  it('JSON and +json types pass; no body is not judged; HTML, no type or an unparsable body fail', () => {
    expect(jsonWhereBody(cannedResponse(400, { code: 'X' }, JSON_TYPE), 'R')).toEqual([]);
    expect(jsonWhereBody(cannedResponse(400, { type: 'about:blank' }, { 'content-type': 'application/problem+json' }), 'R')).toEqual([]);
    expect(jsonWhereBody(cannedResponse(401), 'R')).toEqual([]);
    expect(jsonWhereBody(cannedResponse(201, { a: 1 }, { 'content-type': 'text/html; charset=utf-8' }), 'R')[0].received).toMatch(/text\/html/);
    expect(jsonWhereBody(cannedResponse(201, { a: 1 }), 'R')[0].received).toBe('no Content-Type');
    expect(jsonWhereBody(cannedResponse(400, 'Bad Request', JSON_TYPE), 'R')[0].received).toMatch(/does not parse/);
  });
});

describe('an acceptance is a 201 with a conforming contract record', () => {
  it('the record of what was sent passes, and is the control of a refusal', () => {
    const { sent, record } = recordOf();
    const res = cannedResponse(201, record, JSON_TYPE);
    expect(acceptedWithRecord(res, 'R')).toEqual([]);
    expect(servedAsSent(res, sent)).toBe(true);
    expect(servedAsSent(res, sampleRequest())).toBe(false);
    expect(storedRecordsConsistent(sent, record, 'R')).toEqual([]);
  });

  it('what a degenerate target answers never is: 200, an empty 201, {}, HTML, a 401', () => {
    const { sent, record } = recordOf();
    for (const res of [
      cannedResponse(200, record, JSON_TYPE),
      cannedResponse(201),
      cannedResponse(201, {}, JSON_TYPE),
      cannedResponse(201, record, { 'content-type': 'text/html' }),
      cannedResponse(401, { errorCode: '401' }, JSON_TYPE),
    ]) {
      expect(acceptedWithRecord(res, 'R').length, `${res.status} ${res.headers['content-type']} ${res.rawBody.slice(0, 20)}`).toBeGreaterThan(0);
      expect(servedAsSent(res, sent)).toBe(false);
    }
    expect(storedRecordsConsistent(sent, {}, 'R')).toHaveLength(1);
  });
});

/** Just enough of a RequirementContext for expectRefusal: its id and expectNone. */
function context(): RequirementContext {
  const redactor = new Redactor();
  return {
    id: 'R',
    expectNone(failures, response) {
      if (failures.length) throw new ConformanceError(failures, { title: 'R', response, redactor });
    },
  } as RequirementContext;
}

describe('a refusal counts only next to a served control', () => {
  const refused = (res: CapturedResponse) => rejectedWith(res, [400, 422], 'R');
  const served = () => Promise.resolve();
  const notServed = () => Promise.reject(inconclusive('NO_CONTROL', 'the control was answered 401'));

  it('the right refusal passes with a served control and is inconclusive without one', async () => {
    const res = cannedResponse(400, { code: 'BAD' }, JSON_TYPE);
    await expect(expectRefusal(context(), res, refused(res), served)).resolves.toBeUndefined();
    const error = await expectRefusal(context(), res, refused(res), notServed).catch((e: unknown) => e);
    expect(isInconclusive(error)).toBe(true);
  });

  it('a success or a server error fails whatever the control; another refusal fails only next to a served control', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(200, 201, 204, 500, 502, 503), (status) => {
        const res = cannedResponse(status, { x: 1 }, JSON_TYPE);
        let called = false;
        const control = () => ((called = true), Promise.resolve());
        return expectRefusal(context(), res, refused(res), control).then(
          () => false,
          (e: unknown) => e instanceof ConformanceError && !called,
        );
      }),
    );
    const wrong = cannedResponse(401, { code: 'AUTH' }, JSON_TYPE);
    expect(await expectRefusal(context(), wrong, refused(wrong), served).catch((e: unknown) => e)).toBeInstanceOf(ConformanceError);
    expect(isInconclusive(await expectRefusal(context(), wrong, refused(wrong), notServed).catch((e: unknown) => e))).toBe(true);
    const html = cannedResponse(400, { code: 'BAD' }, { 'content-type': 'text/html' });
    expect(await expectRefusal(context(), html, refused(html), served).catch((e: unknown) => e)).toBeInstanceOf(ConformanceError);
  });
});
