/**
 * Spec 2.3, 2.4 and 4.3: what a valid request gets back. Every test reads the same memoised sample
 * (each account of the target file in RUB, USD, EUR and with the currency left out) and checks one
 * requirement on it, so the file costs one request per account and currency.
 */
import { describe } from 'vitest';
import { contentTypeIn } from '../../harness/checks/body.ts';
import type { Failure } from '../../harness/checks/failure.ts';
import { failure } from '../../harness/checks/failure.ts';
import {
  accountIs,
  amountsIn,
  convertedNotRelabelled,
  nanosBelowOneUnit,
  nonZeroTotals,
  portfolioConforms,
  portfolioIsSumOfClasses,
  rateLimitHeaders,
  signsAgree,
  totalsInCurrency,
  unitsAreDecimalIntegers,
  unitsFitInt64,
  virtualExpireDatesUtc,
  virtualPositionCount,
} from '../../harness/checks/invest.ts';
import { statusIn } from '../../harness/checks/status.ts';
import { ToolError } from '../../harness/errors.ts';
import type { RequirementContext } from '../../harness/suite.ts';
import { requirementTest } from '../../harness/suite.ts';
import { portfolioRequest } from '../../generators/invest.ts';
import { investConfig } from '../../harness/config/invest.ts';
import { credentialOf } from '../../harness/target.ts';
import { accountsOf, CURRENCIES, describeRequest, portfolioOf, sample, type Sampled, statusDocumentedOrError } from './_portfolio.ts';

/** A 200 with a JSON body, or the failure that says why the answer cannot be checked further. */
const answered = (s: Sampled, id: string): Failure[] =>
  s.res.status === 200 && s.res.json !== undefined ? [] : [failure(id, `200 with a JSON portfolio for ${describeRequest(s)}`, `status ${s.res.status}${s.res.jsonError ? `, body not JSON (${s.res.jsonError})` : ''}`)];

/** Runs `check` on every sampled answer that matches `which`, failing on the first answer with problems. */
async function everyAnswer(t: RequirementContext, check: (s: Sampled) => Failure[], which: (s: Sampled) => boolean = () => true): Promise<void> {
  for (const s of (await sample(t)).filter(which)) t.expectNone(check(s), s.res, describeRequest(s));
}

/** `check` on every 200 answer; a sample without one, or without any amount in it, has nothing to show and fails. */
async function everyPortfolio(t: RequirementContext, check: (s: Sampled) => Failure[]): Promise<void> {
  const portfolios = (await sample(t)).filter((s) => s.res.status === 200);
  const amounts = portfolios.reduce((n, s) => n + amountsIn(s.res.json).length, 0);
  if (amounts === 0) t.expectNone([failure(t.id, 'at least one 200 portfolio with amounts to check', `none among the answers for ${accountsOf(t).join(', ')}`)]);
  for (const s of portfolios) t.expectNone(check(s), s.res, describeRequest(s));
}

describe('invest portfolio: the 200 answer', () => {
  requirementTest('INV-RSP-001', async (t) => {
    const res = await portfolioOf(t, credentialOf(t.target, 'invest', 'accountId'), undefined);
    t.expectNone(statusIn(res, [200], t.id), res);
    t.expectNone([...contentTypeIn(res, ['application/json'], t.id), ...portfolioConforms(res.json, t.id)], res);
  });

  requirementTest('INV-RSP-002', async (t) => {
    await everyAnswer(t, (s) => [...answered(s, t.id), ...accountIs(s.res.json, s.accountId, t.id)], (s) => s.currency === 'RUB');
  });

  requirementTest('INV-VAL-001', async (t) => everyPortfolio(t, (s) => unitsAreDecimalIntegers(s.res.json, t.id)));
  requirementTest('INV-VAL-002', async (t) => everyPortfolio(t, (s) => nanosBelowOneUnit(s.res.json, t.id)));
  requirementTest('INV-VAL-003', async (t) => everyPortfolio(t, (s) => signsAgree(s.res.json, t.id)));
  requirementTest('INV-VAL-004', async (t) => everyPortfolio(t, (s) => unitsFitInt64(s.res.json, t.id)));

  for (const currency of CURRENCIES) {
    requirementTest('INV-CUR-001', { row: `totals asked in ${currency} come back in ${currency}` }, async (t) => {
      await everyAnswer(t, (s) => [...answered(s, t.id), ...totalsInCurrency(s.res.json, currency, t.id)], (s) => s.currency === currency);
    });
  }

  requirementTest('INV-CUR-002', async (t) => {
    await everyAnswer(t, (s) => [...answered(s, t.id), ...totalsInCurrency(s.res.json, 'RUB', t.id)], (s) => s.currency === undefined);
  });

  requirementTest('INV-CUR-003', async (t) => {
    let compared = 0;
    for (const accountId of accountsOf(t)) {
      const rub = await portfolioOf(t, accountId, 'RUB');
      if (rub.status !== 200 || nonZeroTotals(rub.json) === 0) continue;
      for (const currency of ['USD', 'EUR'] as const) {
        const other = await portfolioOf(t, accountId, currency);
        t.expectNone([...statusIn(other, [200], t.id), ...convertedNotRelabelled(rub.json, other.json, currency, t.id)], other, `account ${accountId}, RUB against ${currency}`);
        compared++;
      }
    }
    if (compared === 0) throw new ToolError('CREDENTIAL_MISSING', 'no account of services.invest (accountId, accountIds) has a non-zero total in RUB to compare');
  });

  requirementTest('INV-VIR-001', async (t) => {
    const answers = (await sample(t)).filter((s) => s.res.status === 200);
    if (!answers.some((s) => virtualPositionCount(s.res.json) > 0)) {
      throw new ToolError('CREDENTIAL_MISSING', 'no account of services.invest (accountId, accountIds) holds virtual positions; name one in accountIds');
    }
    for (const s of answers) t.expectNone(virtualExpireDatesUtc(s.res.json, t.id), s.res, describeRequest(s));
  });

  requirementTest('INV-TOT-001', async (t) => {
    if (!investConfig(t.target).totalIsSumOfClasses) {
      throw new ToolError('CREDENTIAL_MISSING', `the target file ${t.target.name} does not set services.invest.totalIsSumOfClasses: true`);
    }
    await everyPortfolio(t, (s) => portfolioIsSumOfClasses(s.res.json, t.id));
  });

  requirementTest('INV-HDR-001', async (t) => everyPortfolio(t, (s) => rateLimitHeaders(s.res, t.id)));

  requirementTest('INV-STA-001', { row: 'every answer to a valid request, for every account and currency, has a documented status' }, async (t) => {
    await everyAnswer(t, (s) => statusDocumentedOrError(s.res, t.id));
  });

  requirementTest('INV-GEN-001', async (t) => {
    await t.property(portfolioRequest(accountsOf(t)), async ({ accountId, currency }) => {
      const res = await portfolioOf(t, accountId, currency);
      const s = { accountId, currency, res };
      t.expectNone(answered(s, t.id), res, describeRequest(s));
      t.expectNone(
        [...portfolioConforms(res.json, t.id), ...accountIs(res.json, accountId, t.id), ...totalsInCurrency(res.json, currency ?? 'RUB', t.id)],
        res,
        describeRequest(s),
      );
    });
  });
});
