/**
 * Spec 2.3, 2.4 and 4.3: what a valid request gets back. Every test reads the same memoised sample
 * (each account of the target file in RUB, USD, EUR and with the currency left out) and checks one
 * requirement on it, so the file costs one request per account and currency. An answer that shows no
 * portfolio (not 200, not a JSON object, not labelled JSON, or no field of 2.4 in it) fails only the
 * requirements that state the 200 portfolio (INV-RSP-001, INV-GEN-001); every other test passes over it
 * with the reason and ends inconclusive when nothing was left to judge: an empty 200, `{}` or an HTML
 * page passes none of them.
 */
import { describe } from 'vitest';
import {
  accountIs,
  convertedNotRelabelled,
  defaultIsRub,
  listedFieldsWritten,
  nanosBelowOneUnit,
  nonZeroTotals,
  portfolioConforms,
  portfolioIsSumOfClasses,
  rateLimitHeaders,
  portfolioStatusDocumented,
  readablePortfolio,
  signsAgree,
  totalsInCurrency,
  totalsPresent,
  unitsAreDecimalIntegers,
  unitsFitInt64,
  unreadableTotals,
  virtualExpireDatesUtc,
  whyNoPortfolio,
} from '../../harness/invest/checks.ts';
import { judged, Tally, type Judged } from '../../harness/checks/judged.ts';
import { jsonWhereBody } from '../../harness/checks/json-answer.ts';
import { inconclusive, ToolError } from '../../harness/errors.ts';
import type { RequirementContext } from '../../harness/test/suite.ts';
import { requirementTest } from '../../harness/test/suite.ts';
import { accountsOf, investConfig, mainAccount } from '../../harness/invest/config.ts';
import { portfolioRequest } from '../../generators/invest/portfolio.ts';
import { control, CURRENCIES, describeRequest, portfolioOf, sample, type SampledPortfolio } from '../../harness/invest/client.ts';

/**
 * Runs `judge` on every sampled answer that `which` picks and that shows a portfolio. An answer that
 * shows none fails INV-RSP-001, which states it; here it is passed over with the reason.
 * A test that judged nothing ends inconclusive (`what` says what it looked for), never passed.
 */
async function everyPortfolio(
  t: RequirementContext,
  what: string,
  judge: (s: SampledPortfolio) => Judged,
  which: (s: SampledPortfolio) => boolean = () => true,
  fixture?: string,
): Promise<void> {
  const tally = new Tally();
  for (const s of (await sample(t)).filter(which)) {
    const why = whyNoPortfolio(s.res);
    if (why) tally.skip(`${describeRequest(s)}: ${why}`);
    else t.expectNone(tally.add(judge(s), describeRequest(s)), s.res, describeRequest(s));
  }
  const none = tally.nothing(what, fixture);
  if (none) throw none;
}

describe('invest portfolio: the 200 answer', () => {
  requirementTest('INV-RSP-001', async (t) => {
    const res = await portfolioOf(t, mainAccount(t), undefined);
    t.expectNone(readablePortfolio(res, t.id), res);
    const why = whyNoPortfolio(res);
    if (why) throw inconclusive('PRECONDITION_MISSING', `the answer shows no portfolio to judge: ${why}`);
    t.expectNone(portfolioConforms(res.json, t.id), res);
  });

  requirementTest('INV-RSP-002', async (t) => {
    await everyPortfolio(
      t,
      'no portfolio asked in RUB carried an accountId',
      (s) => accountIs(s.res.json, s.accountId, t.id),
      (s) => s.currency === 'RUB',
    );
  });

  requirementTest('INV-VAL-001', async (t) =>
    everyPortfolio(t, 'no amount carried a units', (s) => unitsAreDecimalIntegers(s.res.json, t.id)),
  );
  requirementTest('INV-VAL-002', async (t) => everyPortfolio(t, 'no amount carried a nano', (s) => nanosBelowOneUnit(s.res.json, t.id)));
  requirementTest('INV-VAL-003', async (t) =>
    everyPortfolio(t, 'no amount had a readable, non-zero units and nano, where alone signs can differ', (s) =>
      signsAgree(s.res.json, t.id),
    ),
  );
  requirementTest('INV-VAL-004', async (t) =>
    everyPortfolio(t, 'no amount had a units that is a decimal integer string (INV-VAL-001 judges the others)', (s) =>
      unitsFitInt64(s.res.json, t.id),
    ),
  );

  for (const currency of CURRENCIES) {
    requirementTest('INV-CUR-001', { row: `totals asked in ${currency} come back in ${currency}` }, async (t) => {
      await everyPortfolio(
        t,
        `no total with a currency in the answers asked in ${currency}`,
        (s) => totalsInCurrency(s.res.json, currency, t.id),
        (s) => s.currency === currency,
      );
    });
  }

  requirementTest('INV-CUR-002', async (t) => {
    await everyPortfolio(
      t,
      'no total with a currency in the answers without currency',
      (s) => totalsInCurrency(s.res.json, 'RUB', t.id),
      (s) => s.currency === undefined,
    );
  });

  requirementTest('INV-CUR-005', async (t) => {
    const tally = new Tally();
    for (const accountId of accountsOf(t)) {
      const [omitted, rub] = [await portfolioOf(t, accountId, undefined), await portfolioOf(t, accountId, 'RUB')];
      const why = whyNoPortfolio(omitted) ?? whyNoPortfolio(rub);
      if (why) tally.skip(`account ${accountId}: ${why}`);
      else
        t.expectNone(
          tally.add(defaultIsRub(omitted.json, rub.json, t.id)),
          omitted,
          `account ${accountId}, currency omitted, against the same request with RUB`,
        );
    }
    const none = tally.nothing('no total carried a currency in both the answer without currency and the one with RUB');
    if (none) throw none;
  });

  requirementTest('INV-CUR-003', async (t) => {
    const tally = new Tally();
    for (const accountId of accountsOf(t)) {
      const rub = await portfolioOf(t, accountId, 'RUB');
      const why = whyNoPortfolio(rub);
      if (why) {
        tally.skip(`account ${accountId}, RUB: ${why}`);
        continue;
      }
      if (nonZeroTotals(rub.json) === 0) {
        // Totals that cannot be read are no sign that the account holds nothing.
        const unreadable = unreadableTotals(rub.json);
        if (unreadable.length)
          tally.skip(`account ${accountId}, RUB: ${unreadable.join(', ')} unreadable as amounts (INV-VAL-001 and INV-VAL-002 judge them)`);
        continue;
      }
      for (const currency of ['USD', 'EUR'] as const) {
        const other = await portfolioOf(t, accountId, currency);
        const whyOther = whyNoPortfolio(other);
        if (whyOther) tally.skip(`account ${accountId}, ${currency}: ${whyOther}`);
        else
          t.expectNone(
            tally.add(convertedNotRelabelled(rub.json, other.json, currency, t.id)),
            other,
            `account ${accountId}, RUB against ${currency}`,
          );
      }
    }
    const fixture = `every total of every account of services.invest (${accountsOf(t).join(', ')}) is zero or absent in RUB, each readable, so there is nothing whose conversion shows: name an account that holds something in accountIds`;
    const none = tally.nothing('no non-zero RUB total had a readable counterpart in USD or EUR', fixture);
    if (none) throw none;
  });

  requirementTest('INV-VIR-001', async (t) => {
    const fixture = `no account of services.invest (${accountsOf(t).join(', ')}) holds a virtual position with an expireDate; name one in accountIds`;
    await everyPortfolio(
      t,
      'no virtual position carried an expireDate string',
      (s) => virtualExpireDatesUtc(s.res.json, t.id, 'INV-RSP-001'),
      undefined,
      fixture,
    );
  });

  requirementTest('INV-TOT-001', async (t) => {
    if (!investConfig(t.target).totalIsSumOfClasses) {
      throw new ToolError(
        'FIXTURE_MISSING',
        `the target file ${t.target.name} does not declare services.invest.totalIsSumOfClasses: true, so the sum is no requirement here`,
      );
    }
    await everyPortfolio(t, 'no portfolio had eight readable totals in one currency to add up', (s) =>
      portfolioIsSumOfClasses(s.res.json, t.id),
    );
  });

  requirementTest('INV-TOT-002', async (t) => everyPortfolio(t, 'no answer showed a portfolio', (s) => totalsPresent(s.res.json, t.id)));

  requirementTest('INV-RSP-003', async (t) =>
    everyPortfolio(t, 'no answer showed a portfolio', (s) => judged(listedFieldsWritten(s.res.json, t.id), 1)),
  );

  requirementTest('INV-HDR-001', async (t) =>
    everyPortfolio(t, 'no answer showed a portfolio', (s) => judged(rateLimitHeaders(s.res, t.id), 1)),
  );

  requirementTest(
    'INV-STA-001',
    { row: 'every answer to a valid request, for every account and currency, has a documented status' },
    async (t) => {
      for (const s of await sample(t)) t.expectNone(portfolioStatusDocumented(s.res, t.id), s.res, describeRequest(s));
      // A documented status alone proves nothing (401 to everything is documented): the control must have been served.
      await control(t);
    },
  );

  requirementTest(
    'INV-CTY-001',
    { row: 'every answer to a valid request that carries a body is JSON, labelled application/json' },
    async (t) => {
      for (const s of await sample(t)) t.expectNone(jsonWhereBody(s.res, t.id), s.res, describeRequest(s));
      await control(t);
    },
  );

  requirementTest('INV-GEN-001', async (t) => {
    // Every rule judged here is another requirement's, on one account in one currency; this test holds them
    // over every account and currency, and fails where it finds one broken that its own test did not.
    await t.property(portfolioRequest(accountsOf(t)), async ({ accountId, currency }) => {
      const res = await portfolioOf(t, accountId, currency);
      const s = { accountId, currency, res };
      t.expectNone(readablePortfolio(res, 'INV-RSP-001'), res, describeRequest(s));
      const why = whyNoPortfolio(res);
      if (why) throw inconclusive('PRECONDITION_MISSING', `${describeRequest(s)}: the answer shows no portfolio to judge: ${why}`);
      const body = res.json;
      t.expectNone(portfolioConforms(body, 'INV-RSP-001'), res, describeRequest(s));
      t.expectNone(unitsAreDecimalIntegers(body, 'INV-VAL-001').failures, res, describeRequest(s));
      t.expectNone(nanosBelowOneUnit(body, 'INV-VAL-002').failures, res, describeRequest(s));
      t.expectNone(accountIs(body, accountId, 'INV-RSP-002').failures, res, describeRequest(s));
    });
  });
});
