/**
 * Spec 2.3, 2.4 and 4.3: what a valid request gets back. Every test reads the same memoised sample
 * (each account of the target file in RUB, USD, EUR and with the currency left out) and checks one
 * requirement on it, so the file costs one request per account and currency. Every test that reads a
 * portfolio first asks for a readable one (200, JSON, its eight totals): an empty 200, `{}` or an HTML
 * page passes none of them.
 */
import { describe } from 'vitest';
import type { Failure } from '../../harness/checks/failure.ts';
import {
  accountIs,
  convertedNotRelabelled,
  expireDatesIn,
  nanosBelowOneUnit,
  nonZeroTotals,
  portfolioConforms,
  portfolioIsSumOfClasses,
  rateLimitHeaders,
  readablePortfolio,
  signsAgree,
  totalsInCurrency,
  totalsReadable,
  unitsAreDecimalIntegers,
  unitsFitInt64,
  virtualExpireDatesUtc,
} from '../../harness/checks/invest.ts';
import { jsonWhereBody } from '../../harness/checks/json-answer.ts';
import { ToolError } from '../../harness/errors.ts';
import type { RequirementContext } from '../../harness/suite.ts';
import { requirementTest } from '../../harness/suite.ts';
import { investConfig } from '../../harness/config/invest.ts';
import { portfolioRequest } from '../../generators/invest.ts';
import { accountsOf, control, CURRENCIES, describeRequest, mainAccount, portfolioOf, sample, type Sampled, statusDocumentedOrError } from './_portfolio.ts';

/** Runs `check` on every sampled answer that matches `which`, each first a readable portfolio (200, JSON, its totals). */
async function everyAnswer(t: RequirementContext, check: (s: Sampled) => Failure[], which: (s: Sampled) => boolean = () => true): Promise<void> {
  for (const s of (await sample(t)).filter(which)) {
    t.expectNone(readablePortfolio(s.res, t.id), s.res, describeRequest(s));
    t.expectNone(check(s), s.res, describeRequest(s));
  }
}

describe('invest portfolio: the 200 answer', () => {
  requirementTest('INV-RSP-001', async (t) => {
    const res = await portfolioOf(t, mainAccount(t), undefined);
    t.expectNone(readablePortfolio(res, t.id), res);
    t.expectNone(portfolioConforms(res.json, t.id), res);
  });

  requirementTest('INV-RSP-002', async (t) => {
    await everyAnswer(t, (s) => accountIs(s.res.json, s.accountId, t.id), (s) => s.currency === 'RUB');
  });

  requirementTest('INV-VAL-001', async (t) => everyAnswer(t, (s) => unitsAreDecimalIntegers(s.res.json, t.id)));
  requirementTest('INV-VAL-002', async (t) => everyAnswer(t, (s) => nanosBelowOneUnit(s.res.json, t.id)));
  requirementTest('INV-VAL-003', async (t) => everyAnswer(t, (s) => signsAgree(s.res.json, t.id)));
  requirementTest('INV-VAL-004', async (t) => everyAnswer(t, (s) => unitsFitInt64(s.res.json, t.id)));

  for (const currency of CURRENCIES) {
    requirementTest('INV-CUR-001', { row: `totals asked in ${currency} come back in ${currency}` }, async (t) => {
      await everyAnswer(t, (s) => totalsInCurrency(s.res.json, currency, t.id), (s) => s.currency === currency);
    });
  }

  requirementTest('INV-CUR-002', async (t) => {
    await everyAnswer(t, (s) => totalsInCurrency(s.res.json, 'RUB', t.id), (s) => s.currency === undefined);
  });

  requirementTest('INV-CUR-003', async (t) => {
    let compared = 0;
    for (const accountId of accountsOf(t)) {
      const rub = await portfolioOf(t, accountId, 'RUB');
      // The RUB answer is the yardstick: it must be a portfolio whose totals can be read at all.
      t.expectNone([...readablePortfolio(rub, t.id), ...totalsReadable(rub.json, t.id)], rub, `account ${accountId}, RUB: the totals to compare with`);
      if (nonZeroTotals(rub.json) === 0) continue;
      for (const currency of ['USD', 'EUR'] as const) {
        const other = await portfolioOf(t, accountId, currency);
        t.expectNone([...readablePortfolio(other, t.id), ...convertedNotRelabelled(rub.json, other.json, currency, t.id)], other, `account ${accountId}, RUB against ${currency}`);
        compared++;
      }
    }
    if (compared === 0) throw new ToolError('FIXTURE_MISSING', `every total of every account of services.invest (${accountsOf(t).join(', ')}) is zero in RUB, so there is nothing whose conversion shows: name an account that holds something in accountIds`);
  });

  requirementTest('INV-VIR-001', async (t) => {
    const answers = await sample(t);
    for (const s of answers) t.expectNone(readablePortfolio(s.res, t.id), s.res, describeRequest(s));
    if (!answers.some((s) => expireDatesIn(s.res.json).length > 0)) {
      throw new ToolError('FIXTURE_MISSING', `no account of services.invest (${accountsOf(t).join(', ')}) holds a virtual position with an expireDate; name one in accountIds`);
    }
    for (const s of answers) t.expectNone(virtualExpireDatesUtc(s.res.json, t.id), s.res, describeRequest(s));
  });

  requirementTest('INV-TOT-001', async (t) => {
    if (!investConfig(t.target).totalIsSumOfClasses) {
      throw new ToolError('FIXTURE_MISSING', `the target file ${t.target.name} does not declare services.invest.totalIsSumOfClasses: true, so the sum is no requirement here`);
    }
    await everyAnswer(t, (s) => portfolioIsSumOfClasses(s.res.json, t.id));
  });

  requirementTest('INV-HDR-001', async (t) => everyAnswer(t, (s) => rateLimitHeaders(s.res, t.id)));

  requirementTest('INV-STA-001', { row: 'every answer to a valid request, for every account and currency, has a documented status' }, async (t) => {
    for (const s of await sample(t)) t.expectNone(statusDocumentedOrError(s.res, t.id), s.res, describeRequest(s));
    // A documented status alone proves nothing (401 to everything is documented): the control must have been served.
    await control(t);
  });

  requirementTest('INV-CTY-001', { row: 'every answer to a valid request that carries a body is JSON, labelled application/json' }, async (t) => {
    for (const s of await sample(t)) t.expectNone(jsonWhereBody(s.res, t.id), s.res, describeRequest(s));
    await control(t);
  });

  requirementTest('INV-GEN-001', async (t) => {
    await t.property(portfolioRequest(accountsOf(t)), async ({ accountId, currency }) => {
      const res = await portfolioOf(t, accountId, currency);
      const s = { accountId, currency, res };
      t.expectNone(readablePortfolio(res, t.id), res, describeRequest(s));
      t.expectNone([...portfolioConforms(res.json, t.id), ...accountIs(res.json, accountId, t.id)], res, describeRequest(s));
    });
  });
});
