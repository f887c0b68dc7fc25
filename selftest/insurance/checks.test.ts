/**
 * The insurance checks and the refusal verdict, locally: what a served request, a refusal and a
 * degenerate answer (an empty 200, `{}`, HTML) each make of them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConformanceError } from '../../harness/checks/failure.ts';
import {
  listedFieldsCarried,
  recordConforms,
  servedAsSent,
  storedAsSent,
  storedRecordsConsistent,
  whyNotStored,
} from '../../harness/insurance/checks.ts';
import { jsonWhereBody } from '../../harness/checks/json-answer.ts';
import { rejectedWith } from '../../harness/checks/status.ts';
import { inconclusive, isInconclusive } from '../../harness/errors.ts';
import type { CapturedResponse } from '../../harness/request/http.ts';
import { Redactor } from '../../harness/secrets/redact.ts';
import { expectRefusal } from '../../harness/test/refusal.ts';
import type { RequirementContext } from '../../harness/test/suite.ts';
import { sampleItem, sampleItems, sampleRequest } from '../../harness/insurance/requests.ts';
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
      surrender: sent.surrender.map((item, i) => ({
        ...item,
        contractId: sent.contractId,
        id: i + 1,
        createdAt: at,
        updatedAt: at,
        providerName: 'P',
      })),
    },
  };
}

describe('JSON on every answer with a body (spec 4)', () => {
  it('JSON and +json types pass; no body is not judged; HTML, no type or an unparsable body fail', () => {
    expect(jsonWhereBody(cannedResponse(400, { code: 'X' }, JSON_TYPE), 'R')).toEqual([]);
    expect(jsonWhereBody(cannedResponse(400, { type: 'about:blank' }, { 'content-type': 'application/problem+json' }), 'R')).toEqual([]);
    expect(jsonWhereBody(cannedResponse(401), 'R')).toEqual([]);
    expect(jsonWhereBody(cannedResponse(201, { a: 1 }, { 'content-type': 'text/html; charset=utf-8' }), 'R')[0].received).toMatch(
      /text\/html/,
    );
    expect(jsonWhereBody(cannedResponse(201, { a: 1 }), 'R')[0].received).toBe('no Content-Type');
    expect(jsonWhereBody(cannedResponse(400, 'Bad Request', JSON_TYPE), 'R')[0].received).toMatch(/does not parse/);
  });
});

describe('an acceptance is a 201 with a conforming contract record', () => {
  it('the record of what was sent passes, and is the control of a refusal', () => {
    const { sent, record } = recordOf();
    const res = cannedResponse(201, record, JSON_TYPE);
    expect(recordConforms(res, 'R')).toEqual([]);
    expect(servedAsSent(res, sent)).toBe(true);
    expect(servedAsSent(res, sampleRequest())).toBe(false);
    expect(storedRecordsConsistent(sent, res, 'R')).toEqual({ failures: [], judged: 6 });
    expect(storedAsSent(sent, record, 'R')).toEqual({ failures: [], judged: 13 });
    expect(listedFieldsCarried(record, 'R')).toEqual([]);
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
      expect(servedAsSent(res, sent), `${res.status} ${res.headers['content-type']} ${res.rawBody.slice(0, 20)}`).toBe(false);
    }
    expect(whyNotStored(cannedResponse(201, {}, JSON_TYPE))).toMatch(/without its stored surrender records/);
    expect(whyNotStored(cannedResponse(201, record, { 'content-type': 'text/html' }))).toMatch(/INS-CTY-001/);
    expect(storedRecordsConsistent(sent, cannedResponse(201, {}, JSON_TYPE), 'R')).toEqual({ failures: [], judged: 0 });
  });
});

describe('an acceptance is judged on the whole answer: what was set must come back', () => {
  it('records that show nothing of what was sent fail, however the contract fields echo', () => {
    const { sent } = recordOf();
    for (const surrender of [[{}, {}], [{ id: 1 }, { id: 2 }], []]) {
      const { failures } = storedAsSent(sent, { contractId: sent.contractId, surrender }, 'R');
      expect(failures.map((f) => f.at)).toEqual(['/surrender']);
      expect(failures[0].received).toMatch(/^2 of 2 sent items without one/);
    }
    expect(storedAsSent(sent, { contractId: sent.contractId, surrender: [{}, {}] }, 'R').failures[0].received).toMatch(
      /closest record \{\}: no calcPeriodFrom, no calcPeriodTo, no currency, no surrenderPercent, no surrenderValue/,
    );
  });

  it("a record leaving out one of the item's fields, or one item of a thousand, fails", () => {
    const { sent, record } = recordOf();
    const withoutCurrency = record.surrender.map(({ currency: _c, ...r }) => r);
    expect(storedAsSent(sent, { ...record, surrender: withoutCurrency }, 'R').failures[0].received).toMatch(/no currency/);
    const many = sampleRequest({ surrender: sampleItems(1000) });
    const stored = many.surrender.map((item, i) => ({ ...item, id: i + 1 }));
    expect(storedAsSent(many, { surrender: stored }, 'R')).toEqual({ failures: [], judged: 5000 });
    expect(storedAsSent(many, { surrender: [...stored].reverse() }, 'R').failures).toEqual([]);
    expect(storedAsSent(many, { surrender: stored.slice(0, 999) }, 'R').failures[0].received).toMatch(/^1 of 1000 sent items/);
  });

  it("records stored before for the same contract may come besides; a field of another type is INS-RSP-001's", () => {
    const { sent, record } = recordOf();
    const earlier = { ...record.surrender[0], calcPeriodFrom: '2019-01-01', id: 99 };
    expect(storedAsSent(sent, { ...record, surrender: [earlier, ...record.surrender] }, 'R').failures).toEqual([]);
    const percentText = record.surrender.map((r) => ({ ...r, surrenderPercent: String(r.surrenderPercent) }));
    expect(storedAsSent(sent, { ...record, surrender: percentText }, 'R')).toEqual({ failures: [], judged: 11 });
    expect(
      storedAsSent(sent, { surrender: record.surrender.map(() => ({ surrenderPercent: 'x', surrenderValue: 'y' })) }, 'R').judged,
    ).toBe(0);
  });

  it('the policy of listed fields names every field left out', () => {
    const { record } = recordOf();
    const { productType: _p, ...withoutProductType } = record;
    const failures = listedFieldsCarried({ ...withoutProductType, surrender: record.surrender.map(({ id: _id, ...r }) => r) }, 'R');
    expect(failures).toHaveLength(1);
    expect(failures[0].received).toBe('no /productType, /surrender/0/id, /surrender/1/id');
    expect(listedFieldsCarried({ surrender: [{}] }, 'R')[0].received).toMatch(/^no \/createdAt, .*\(16 in all\)$/);
  });
});

describe('INS-RSP-003 reads ids as written', () => {
  const bodyWithIds = (ids: string[]) =>
    `{"surrender":[${ids.map((id) => `{"id":${id},"contractId":"C","createdAt":"2025-01-01T00:00:00Z","updatedAt":"2025-01-01T00:00:00Z"}`).join(',')}]}`;
  const answer = (text: string) => ({ ...cannedResponse(201, JSON.parse(text), JSON_TYPE), rawBody: text });

  it('19-digit ids that a double rounds alike are distinct; the same digits are repeated', () => {
    const sent = sampleRequest({ contractId: 'C' });
    expect(storedRecordsConsistent(sent, answer(bodyWithIds(['1234567890123456789', '1234567890123456788'])), 'R').failures).toEqual([]);
    const repeated = storedRecordsConsistent(sent, answer(bodyWithIds(['1234567890123456789', '1234567890123456789'])), 'R');
    expect(repeated.failures.map((f) => f.received)).toEqual(['id 1234567890123456789 repeated']);
    expect(storedRecordsConsistent(sent, answer(bodyWithIds(['1', '1.5'])), 'R').failures.map((f) => f.expected)).toEqual([
      'an integer id',
    ]);
    const numericContract = answer('{"surrender":[{"id":1,"contractId":12345678901234567890}]}');
    expect(storedRecordsConsistent(sent, numericContract, 'R').failures.map((f) => f.received)).toEqual(['12345678901234567890']);
  });
});

describe('2.5 gives names and types only: a conforming server may answer differently', () => {
  const moscow = (iso: string) => `${new Date(Date.parse(iso) + 3 * 3600_000).toISOString().slice(0, 23)}+03:00`;

  it('fields left out, other offsets, whole seconds, basic format, records in another order, extra fields', () => {
    const { sent, record } = recordOf();
    const variants = [
      {
        surrender: record.surrender.map(({ calcPeriodFrom, calcPeriodTo, currency, surrenderPercent, surrenderValue }) => ({
          calcPeriodFrom,
          calcPeriodTo,
          currency,
          surrenderPercent,
          surrenderValue,
        })),
      },
      { ...record, updateDate: moscow(sent.updateDate), createdAt: moscow(record.createdAt) },
      { ...record, updateDate: `${sent.updateDate.slice(0, 19)}Z` },
      {
        ...record,
        surrender: record.surrender.map((r) => ({
          ...r,
          calcPeriodFrom: r.calcPeriodFrom.replaceAll('-', ''),
          createdAt: '20250101T100000Z',
        })),
      },
      { ...record, surrender: [...record.surrender].reverse(), status: 'ACTIVE' },
    ];
    for (const body of variants) {
      const res = cannedResponse(201, body, JSON_TYPE);
      expect(recordConforms(res, 'R'), JSON.stringify(body)).toEqual([]);
      expect(whyNotStored(res)).toBeUndefined();
      expect(servedAsSent(res, sent)).toBe(true);
      expect(storedAsSent(sent, body, 'R').failures, JSON.stringify(body)).toEqual([]);
      expect(storedRecordsConsistent(sent, res, 'R').failures).toEqual([]);
    }
  });

  it('what the record carries must still be what was sent', () => {
    const { sent, record } = recordOf();
    const wrong = (edit: (r: typeof record) => unknown) => storedAsSent(sent, edit(structuredClone(record)), 'R').failures.map((f) => f.at);
    expect(wrong((r) => ({ ...r, updateDate: '2001-01-01T00:00:00Z' }))).toEqual(['/updateDate']);
    expect(wrong((r) => ({ ...r, surrender: [r.surrender[0]] }))).toContain('/surrender');
    expect(wrong((r) => ({ ...r, surrender: r.surrender.map((x) => ({ ...x, surrenderValue: Math.round(x.surrenderValue) })) }))).toContain(
      '/surrender',
    );
    expect(recordConforms(cannedResponse(201, { ...record, surrender: [] }, JSON_TYPE), 'R')[0].expected).toMatch(/fewer than 1/);
    expect(recordConforms(cannedResponse(201, { ...record, createdAt: '21.12.2026 10:00' }, JSON_TYPE), 'R')[0].expected).toMatch(
      /iso8601-date-time/,
    );
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
