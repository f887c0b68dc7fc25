/**
 * The invest checks over generated portfolios, locally: every portfolio the generator makes passes
 * every check (no false alarms), and one broken amount, total or date is caught where it was broken.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accountIs,
  convertedNotRelabelled,
  defaultIsRub,
  expireDatesIn,
  listedFieldsWritten,
  nanosBelowOneUnit,
  noPortfolioIn,
  portfolioConforms,
  portfolioIsSumOfClasses,
  rateLimitHeaders,
  readablePortfolio,
  signsAgree,
  totalsInCurrency,
  totalsPresent,
  unitsAreDecimalIntegers,
  unitsFitInt64,
  unreadableTotals,
  vendorErrorBody,
  virtualExpireDatesUtc,
  whyNoPortfolio,
} from '../../harness/invest/checks.ts';
import { isIsoUtcDateTime } from '../../harness/text/iso8601.ts';
import { cannedResponse } from '../helpers.ts';
import type { CapturedResponse } from '../../harness/request/http.ts';
import { valueConformsTo } from '../../harness/checks/body.ts';
import { accountIdLike, portfolioRequest, portfolioResponse } from '../../generators/invest/portfolio.ts';
import { amountsIn, PORTFOLIO_REQUEST, TOTALS } from '../../harness/invest/portfolio.ts';
import { getAt, pointerSteps, setAt } from '../../harness/text/json.ts';

type Body = Record<string, unknown>;
const RUNS = { numRuns: 60 };
const withPortfolio = fc.oneof(
  ...['rub', 'usd', 'eur'].map((c) => portfolioResponse({ currency: c, accountId: '2000000001' }).map((body) => ({ c, body }))),
);
/** A portfolio with at least one amount, and the index of the one to break. */
const withTarget = withPortfolio.chain(({ c, body }) =>
  fc.nat({ max: amountsIn(body).length - 1 }).map((i) => ({ c, body, at: amountsIn(body)[i].at })),
);

/** A copy of the body with the value at the JSON Pointer. */
function copyWithValueAt(body: Body, pointer: string, value: unknown): Body {
  const copy = structuredClone(body);
  setAt(copy, pointerSteps(pointer), value);
  return copy;
}
const valueAt = (body: Body, pointer: string) => getAt(body, pointerSteps(pointer)) as Body;

function response(status: number, body: unknown, headers: Record<string, string> = {}): CapturedResponse {
  return cannedResponse(status, body, headers);
}

describe('generated portfolios pass every check', () => {
  it('schema, value rules, totals, sum, expiry dates, account', () => {
    fc.assert(
      fc.property(withPortfolio, ({ c, body }) => {
        expect(portfolioConforms(body, 'R')).toEqual([]);
        for (const check of [unitsAreDecimalIntegers, nanosBelowOneUnit, signsAgree, unitsFitInt64, totalsPresent])
          expect(check(body, 'R').failures).toEqual([]);
        expect(virtualExpireDatesUtc(body, 'R', 'T').failures).toEqual([]);
        expect(totalsInCurrency(body, c.toUpperCase(), 'R')).toEqual({ failures: [], judged: 8 });
        expect(portfolioIsSumOfClasses(body, 'R')).toEqual({ failures: [], judged: 1 });
        expect(accountIs(body, '2000000001', 'R')).toEqual({ failures: [], judged: 1 });
      }),
      RUNS,
    );
  });

  it('finds every MoneyValue and Quotation: the eight totals at least, and each position field', () => {
    fc.assert(
      fc.property(withPortfolio, ({ body }) => {
        const found = amountsIn(body).map((f) => f.at);
        for (const name of TOTALS) expect(found).toContain(`/${name}`);
        const positions = (body.positions as Body[] | undefined) ?? [];
        positions.forEach((p, i) => {
          if (p.currentPrice) expect(found).toContain(`/positions/${i}/currentPrice`);
          if (p.quantity) expect(found).toContain(`/positions/${i}/quantity`);
        });
      }),
      RUNS,
    );
  });
});

describe('one broken value is caught where it was broken', () => {
  const breaks: Array<[string, (a: Body) => Body, (b: Body) => ReturnType<typeof signsAgree>]> = [
    ['nano of 1e9', (a) => ({ ...a, nano: 1_000_000_000 }), (b) => nanosBelowOneUnit(b, 'R')],
    ['units "12.5"', (a) => ({ ...a, units: '12.5' }), (b) => unitsAreDecimalIntegers(b, 'R')],
    ['units as a number', (a) => ({ ...a, units: 12 }), (b) => unitsAreDecimalIntegers(b, 'R')],
    ['opposite signs', (a) => ({ ...a, units: '-3', nano: 500_000_000 }), (b) => signsAgree(b, 'R')],
    ['units beyond int64', (a) => ({ ...a, units: '9223372036854775808' }), (b) => unitsFitInt64(b, 'R')],
  ];
  for (const [what, mutate, check] of breaks) {
    it(what, () => {
      fc.assert(
        fc.property(withTarget, ({ body, at }) => {
          const failures = check(copyWithValueAt(body, at, mutate(valueAt(body, at)))).failures;
          expect(failures.map((f) => f.at)).toEqual([at]);
        }),
        RUNS,
      );
    });
  }

  it('a total in another currency', () => {
    fc.assert(
      fc.property(withPortfolio, fc.constantFrom(...TOTALS), ({ c, body }, name) => {
        const other = c === 'usd' ? 'eur' : 'usd';
        const broken = copyWithValueAt(body, `/${name}`, { ...(body[name] as Body), currency: other });
        expect(totalsInCurrency(broken, c, 'R').failures.map((f) => f.at)).toEqual([`/${name}`]);
        // Totals in two currencies do not add up: the sum is not judged (INV-CUR-001 judges the currency).
        expect(portfolioIsSumOfClasses(broken, 'R')).toMatchObject({
          failures: [],
          judged: 0,
          reason: expect.stringMatching(/several currencies/),
        });
      }),
      RUNS,
    );
  });

  it('a portfolio total one nano off the sum', () => {
    fc.assert(
      fc.property(withPortfolio, fc.constantFrom(1, -1), ({ body }, delta) => {
        const total = body.totalAmountPortfolio as { units: string; nano: number; currency: string };
        const nano = total.nano + delta;
        const broken = copyWithValueAt(
          body,
          '/totalAmountPortfolio',
          Math.abs(nano) < 1e9 ? { ...total, nano } : { ...total, units: String(BigInt(total.units) + BigInt(Math.sign(delta))), nano: 0 },
        );
        expect(portfolioIsSumOfClasses(broken, 'R').failures[0]?.received).toMatch(/off by -?0\.000000001\)/);
      }),
      RUNS,
    );
  });

  it('relabelled totals: the RUB numbers with USD written on them', () => {
    fc.assert(
      fc.property(portfolioResponse({ currency: 'rub' }), (rub) => {
        const relabelled = Object.fromEntries(
          Object.entries(rub).map(([k, v]) => [k, TOTALS.includes(k as never) ? { ...(v as Body), currency: 'usd' } : v]),
        );
        const nonZero = TOTALS.filter((n) => (rub[n] as Body).units !== '0' || (rub[n] as Body).nano !== 0).length;
        expect(convertedNotRelabelled(rub, relabelled, 'USD', 'R').failures).toHaveLength(nonZero);
      }),
      RUNS,
    );
  });
});

describe('dates, errors, headers, requests', () => {
  it('expireDate: ISO 8601 in UTC, in any of its forms, each in one format throughout', () => {
    for (const good of [
      '2026-12-21T21:00:00Z',
      '2026-12-21T21:00:00.123456789Z',
      '2024-02-29T00:00:00+00:00',
      '2026-01-01t00:00:00z',
      '2026-12-21T21:00Z',
      '20261221T210000Z',
      '2026-12-21T21:00:00,5Z',
      '20261221T210000+0000',
      '2026-12-21T21:00:00+00',
      '2026-W52-1T21:00Z',
    ]) {
      expect(isIsoUtcDateTime(good), good).toBe(true);
    }
    for (const bad of [
      '2026-12-22T00:00:00+03:00',
      '2026-12-21T21:00:00',
      '2026-12-21 21:00:00Z',
      '2026-12-21',
      '2023-02-29T00:00:00Z',
      '2026-12-21T25:00:00Z',
      '21.12.2026T21:00Z',
      '2026-12-21T21:00:00+0000',
      '2026-12-21T210000Z',
      1766350800,
      undefined,
    ]) {
      expect(isIsoUtcDateTime(bad), String(bad)).toBe(false);
    }
  });

  it("the vendor's error body: shape, gRPC code of the status, the documented API code", () => {
    const expected = { status: 404, description: 50004 };
    expect(vendorErrorBody(response(404, { code: 5, message: 'Account not found', description: 50004 }), expected, 'R')).toEqual([]);
    expect(vendorErrorBody(response(404, { code: 5, message: 'Account not found' }), expected, 'R')[0].expected).toMatch(
      /required property 'description'/,
    );
    expect(vendorErrorBody(response(404, { code: 3, message: 'x', description: 50004 }), expected, 'R')[0].expected).toMatch(/code 5/);
    expect(vendorErrorBody(response(404, { code: 5, message: 'x', description: 40002 }), expected, 'R')[0].expected).toMatch(
      /description 50004/,
    );
    expect(vendorErrorBody(response(403, { code: 7, message: 'x', description: 40002 }), expected, 'R')).toEqual([]);
    expect(vendorErrorBody(response(403, { code: 7, message: 'x', description: 30022 }), expected, 'R')[0].expected).toMatch(/4xxxx/);
    expect(vendorErrorBody(response(200, {}), expected, 'R')[0].received).toBe('status 200');
  });

  it('rate-limit headers: integers (a list is fine), remaining within the limit, a tracking id', () => {
    const headers = {
      'x-ratelimit-limit': '200, 200;w=60',
      'x-ratelimit-remaining': '150',
      'x-ratelimit-reset': '42',
      'x-tracking-id': 'abc',
    };
    expect(rateLimitHeaders(response(200, {}, headers), 'R')).toEqual([]);
    expect(rateLimitHeaders(response(200, {}, { ...headers, 'x-ratelimit-remaining': '201' }), 'R')).toHaveLength(1);
    expect(rateLimitHeaders(response(200, {}, { 'x-ratelimit-limit': 'many' }), 'R')).toHaveLength(4);
  });

  it('a refusal that carries the portfolio is a leak', () => {
    expect(noPortfolioIn(response(403, { code: 7, message: 'x', description: 40002 }), 'R')).toEqual([]);
    expect(noPortfolioIn(response(403, { positions: [], totalAmountPortfolio: {} }), 'R')).toHaveLength(1);
  });

  it('requests: valid against the request schema; fresh account ids keep the shape and miss the known ones', () => {
    fc.assert(
      fc.property(portfolioRequest(['2000000001', 'A-77']), (r) => {
        expect(['2000000001', 'A-77']).toContain(r.accountId);
        expect(valueConformsTo(r, PORTFOLIO_REQUEST, 'R')).toEqual([]);
      }),
    );
    const known = new Set(['2000000001']);
    for (let i = 0; i < 50; i++) {
      const id = accountIdLike('2000000001', known);
      expect(id).toMatch(/^[0-9]{10}$/);
      expect(known.has(id)).toBe(false);
    }
    expect(accountIdLike('ab-12')).toMatch(/^[a-z]{2}-[0-9]{2}$/);
  });
});

describe('a readable portfolio is the evidence every portfolio test starts from', () => {
  const json = { 'content-type': 'application/json; charset=utf-8' };
  it('a generated portfolio, 200 and labelled JSON, is one', () => {
    fc.assert(
      fc.property(withPortfolio, ({ body }) => {
        expect(readablePortfolio(response(200, body, json), 'R')).toEqual([]);
      }),
      { numRuns: 20 },
    );
  });

  it('what a degenerate target answers shows none: an empty 200, {}, HTML, JSON labelled HTML, a refusal', () => {
    fc.assert(
      fc.property(withPortfolio, ({ body }) => {
        expect(readablePortfolio(response(200, undefined), 'R')[0].received).toMatch(/empty body/);
        expect(readablePortfolio(response(401, { code: 16 }, json), 'R')[0].received).toBe('status 401');
        expect(readablePortfolio(response(200, '<html></html>', json), 'R')[0].received).toMatch(/does not parse/);
        expect(readablePortfolio(response(200, [body], json), 'R')[0].expected).toMatch(/JSON object/);
        // Not the 200 portfolio's failures, yet no portfolio to judge: the label is INV-CTY-001's, `{}` shows nothing.
        expect(readablePortfolio(response(200, body, { 'content-type': 'text/html' }), 'R')).toEqual([]);
        expect(whyNoPortfolio(response(200, body, { 'content-type': 'text/html' }))).toMatch(/text\/html.*INV-CTY-001/);
        expect(whyNoPortfolio(response(200, {}, json))).toMatch(/no field of 2\.4/);
        expect(whyNoPortfolio(response(200, { unrelated: 1 }, json))).toMatch(/no field of 2\.4/);
        expect(whyNoPortfolio(response(401, { code: 16 }, json))).toMatch(/status 401.*INV-RSP-001/);
      }),
      { numRuns: 5 },
    );
  });

  it('2.4 marks nothing required: a portfolio of one field, or with totals left out, conforms', () => {
    expect(portfolioConforms({ accountId: '2000000001' }, 'R')).toEqual([]);
    expect(whyNoPortfolio(response(200, { accountId: '2000000001' }, json))).toBeUndefined();
    expect(accountIs({ totalAmountShares: { currency: 'rub' } }, '2000000001', 'R')).toEqual({ failures: [], judged: 0 });
    expect(totalsPresent({ totalAmountShares: { currency: 'rub' } }, 'R').failures[0].received).toMatch(/^no totalAmountBonds, /);
    expect(portfolioIsSumOfClasses({ totalAmountShares: { currency: 'rub' } }, 'R')).toMatchObject({
      judged: 0,
      reason: expect.stringMatching(/^no totalAmountBonds/),
    });
  });

  it('zero values left out as proto3 JSON does: absent units and nano read as 0, judged by nobody', () => {
    const zeros = { totalAmountShares: { currency: 'rub' }, expectedYield: {}, positions: [{ quantity: { units: '3' } }] };
    expect(portfolioConforms(zeros, 'R')).toEqual([]);
    expect(unitsAreDecimalIntegers(zeros, 'R')).toEqual({ failures: [], judged: 1 });
    expect(nanosBelowOneUnit(zeros, 'R')).toEqual({ failures: [], judged: 0 });
    expect(signsAgree(zeros, 'R')).toEqual({ failures: [], judged: 0 });
  });

  it('a units that is no decimal integer fails INV-VAL-001 only: the sign and int64 rules judge nothing of it', () => {
    const words = { totalAmountShares: { currency: 'rub', units: 'units', nano: 5 }, expectedYield: { units: 'units', nano: -5 } };
    expect(unitsAreDecimalIntegers(words, 'R').failures).toHaveLength(2);
    expect(signsAgree(words, 'R')).toEqual({ failures: [], judged: 0 });
    expect(unitsFitInt64(words, 'R')).toEqual({ failures: [], judged: 0 });
  });

  it('units with a sign or leading zeros write the whole part', () => {
    const signed = { totalAmountShares: { currency: 'rub', units: '+12', nano: 5 }, expectedYield: { units: '-007', nano: -5 } };
    expect(unitsAreDecimalIntegers(signed, 'R')).toEqual({ failures: [], judged: 2 });
    expect(signsAgree(signed, 'R')).toEqual({ failures: [], judged: 2 });
  });

  it('default RUB: the totals of a request without currency are labelled as those of the request with RUB', () => {
    const rub = { totalAmountShares: { currency: 'rub', units: '1' }, totalAmountBonds: { currency: 'rub' } };
    expect(defaultIsRub(rub, rub, 'R')).toEqual({ failures: [], judged: 2 });
    expect(defaultIsRub({ ...rub, totalAmountBonds: { currency: 'usd' } }, rub, 'R').failures.map((f) => f.at)).toEqual([
      '/totalAmountBonds',
    ]);
    expect(defaultIsRub({}, rub, 'R').judged).toBe(0);
  });

  it('expireDate is judged where a virtual position carries one', () => {
    const body = { virtualPositions: [{ figi: 'X' }, { expireDate: '2026-12-21T21:00:00Z' }, { expireDate: '2026-12-22T00:00:00+03:00' }] };
    expect(expireDatesIn(body).map(([at]) => at)).toEqual(['/virtualPositions/1/expireDate', '/virtualPositions/2/expireDate']);
    expect(virtualExpireDatesUtc(body, 'R', 'T').failures.map((f) => f.at)).toEqual(['/virtualPositions/2/expireDate']);
    const mixed = { virtualPositions: [{ expireDate: '2026-12-21T210000Z' }, { expireDate: '2026-12-22T00:00:00+03:00' }] };
    expect(virtualExpireDatesUtc(mixed, 'R', 'T').failures.map((f) => [f.requirement, f.defect])).toEqual([
      ['T', 'an expireDate that is no ISO 8601 date-time'],
      ['R', 'an expireDate not in UTC'],
    ]);
  });

  it("the policy of listed fields names what a portfolio leaves out; the totals are INV-TOT-002's", () => {
    const failures = listedFieldsWritten({ positions: [{ figi: 'X', quantity: { units: '1' } }], totalAmountShares: {} }, 'R');
    expect(failures).toHaveLength(1);
    expect(failures[0].received).toMatch(/^no \/expectedYield, \/accountId, .*\/virtualPositions, /);
    expect(failures[0].received).toMatch(/\/totalAmountShares\/currency/);
    expect(failures[0].received).toMatch(/\(25 in all\)$/);
    expect(failures[0].received).not.toMatch(/\/totalAmountBonds/);
    const q = { units: '1', nano: 0 };
    const m = { currency: 'rub', ...q };
    const position = {
      ...Object.fromEntries(['figi', 'ticker', 'instrumentType', 'positionUid', 'instrumentUid'].map((k) => [k, 'X'])),
      blocked: false,
      ...Object.fromEntries(
        ['quantityLots', 'blockedLots', 'averagePositionPricePt', 'expectedYield', 'expectedYieldFifo'].map((k) => [k, q]),
      ),
      ...Object.fromEntries(
        ['averagePositionPrice', 'averagePositionPriceFifo', 'currentPrice', 'currentNkd', 'varMargin', 'dailyYield'].map((k) => [k, m]),
      ),
      quantity: { units: '1' },
    };
    const whole = { expectedYield: q, accountId: 'A', dailyYield: m, dailyYieldRelative: q, positions: [position], virtualPositions: [] };
    expect(listedFieldsWritten(whole, 'R')[0].received).toBe('no /positions/0/quantity/nano');
    expect(listedFieldsWritten({ ...whole, positions: [{ ...position, quantity: q }] }, 'R')).toEqual([]);
  });

  it('INV-CUR-003: unreadable totals are named, never taken for an account that holds nothing', () => {
    const rub = {
      totalAmountShares: { currency: 'rub', units: '100', nano: 0 },
      totalAmountBonds: { currency: 'rub', units: '1.5', nano: 0 },
    };
    expect(unreadableTotals(rub)).toEqual(['totalAmountBonds']);
    const usd = { totalAmountShares: { currency: 'usd', units: '1.08', nano: 0 } };
    expect(convertedNotRelabelled(rub, usd, 'USD', 'R')).toEqual({
      failures: [],
      judged: 0,
      reason: 'totalAmountShares in USD unreadable as amounts (INV-VAL-001 and INV-VAL-002 judge them)',
    });
    expect(convertedNotRelabelled(rub, {}, 'USD', 'R')).toEqual({ failures: [], judged: 0 });
  });

  it('a 200 whose object holds fields, none of 2.4, is no portfolio; {} is no evidence', () => {
    const message = cannedResponse(200, { message: 'account not found' }, { 'content-type': 'application/json' });
    expect(readablePortfolio(message, 'R')[0].received).toMatch(/no field of 2.4/);
    expect(readablePortfolio(cannedResponse(200, {}, { 'content-type': 'application/json' }), 'R')).toEqual([]);
    expect(whyNoPortfolio(cannedResponse(200, {}, { 'content-type': 'application/json' }))).toMatch(/empty JSON object/);
    expect(readablePortfolio(cannedResponse(200, { accountId: 'A', note: 'x' }, { 'content-type': 'application/json' }), 'R')).toEqual([]);
  });

  it('position ids are plain strings (spec 2.4, the vendor): an id that is no UUID conforms', () => {
    fc.assert(
      fc.property(withPortfolio, ({ body }) => {
        const positions = (body.positions as Body[] | undefined) ?? [];
        const renamed = { ...body, positions: positions.map((p, i) => ({ ...p, positionUid: `pos_${i}`, instrumentUid: 'TCS00A105NT5' })) };
        expect(portfolioConforms(renamed, 'R')).toEqual([]);
      }),
      { numRuns: 20 },
    );
  });
});
