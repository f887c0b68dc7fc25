/**
 * The default limits of spec 8 at runtime: a single ruble transfer, the day's and the month's totals,
 * three payments a day to one counterparty, and the instant-payment commission after the free limit.
 * Each test pays from its own payer account with nothing paid today (services.business.rules), so the
 * tests do not spend each other's budget; amounts are compared in kopecks, as integers.
 * These operations move money: they run against the sandbox, or where safety.allowMoney names them.
 */
import { failure } from '../../../harness/checks/failure.ts';
import { ToolError } from '../../../harness/errors.ts';
import type { CapturedResponse } from '../../../harness/request/http.ts';
import { requirementTest, type RequirementContext } from '../../../harness/test/suite.ts';
import type { OperationPlan } from '../../../harness/business/runtime/plan.ts';
import { runtimePlan } from '../../../generators/business/plan.ts';
import { payment, RUBLE_TRANSFER, SBP_TRANSFER } from '../../../harness/business/rules/payments.ts';
import {
  expectRuleAccepted,
  expectRuleRefused,
  freshCounterparty,
  generatedRequest,
  PAYER_ROLES,
  payerAccount,
  refused,
  ruleControl,
  rulesConfig,
  submit,
  uniqueId,
} from '../../../harness/business/rules/rules.ts';
import { isJsonObject, setAt } from '../../../harness/text/json.ts';
import { needSite } from '../../../harness/business/runtime/schema-sites.ts';
import { rulesBlock } from '../../../harness/business/blocks.ts';

const plan = await runtimePlan();

const kopecks = (rubles: number) => Math.round(rubles * 100);

rulesBlock(
  plan,
  'business rules: ruble transfer limits (8)',
  ['BUS-LIM-001', 'BUS-LIM-002', 'BUS-LIM-003', 'BUS-LIM-004'],
  [RUBLE_TRANSFER],
  ([transfer]) => {
    const pay = async (payer: string, amount: number, note: string, counterparty = freshCounterparty('legal'), purpose = 'transfer') =>
      submit(transfer, payment(transfer, { payer, amount, counterparty, purpose }), note);
    /** The control of every row: a small transfer from an account of its own, accepted. */
    const control = (t: RequirementContext) =>
      ruleControl(t, transfer, 'a small ruble transfer', () =>
        payment(transfer, { payer: payerAccount(PAYER_ROLES.other), amount: 10, purpose: 'control' }),
      );
    const expectTransferAccepted = (t: RequirementContext, res: CapturedResponse, note: string) =>
      expectRuleAccepted(t, transfer, res, () => control(t), note);

    requirementTest('BUS-LIM-001', { row: 'a ruble transfer of exactly 100 000 rubles is accepted' }, async (t) => {
      const res = await pay(payerAccount(PAYER_ROLES.singleAtLimit), 100_000, '100 000 rubles from a fresh payer account');
      await expectTransferAccepted(t, res, '100 000 rubles, the documented maximum, from a payer account with nothing paid today');
    });

    requirementTest('BUS-LIM-001', { row: 'a ruble transfer of 100 000.01 rubles is refused' }, async (t) => {
      const res = await pay(payerAccount(PAYER_ROLES.singleAbove), 100_000.01, '100 000.01 rubles from a fresh payer account');
      await expectRuleRefused(t, res, () => control(t), '100 000.01 rubles, a kopeck above the single-payment limit');
    });

    requirementTest('BUS-LIM-002', { row: "60 000 + 40 000 accepted, then 0.01 above the day's 100 000 refused" }, async (t) => {
      const payer = payerAccount(PAYER_ROLES.day);
      for (const amount of [60_000, 40_000]) {
        const res = await pay(payer, amount, `${amount} rubles`);
        await expectTransferAccepted(t, res, `${amount} rubles (the day's total so far stays within 100 000)`);
      }
      const over = await pay(payer, 0.01, "0.01 rubles above the day's 100 000");
      t.expectNone(refused(over, t.id), over, '0.01 rubles after 100 000 paid today from the same account');
    });

    requirementTest('BUS-LIM-003', { row: 'up to 1 000 000 in the month accepted, 0.01 more refused' }, async (t) => {
      const fixture = rulesConfig().monthNearLimit;
      const paid = fixture?.paidThisMonth;
      if (!fixture || typeof paid !== 'number')
        throw new ToolError(
          'CREDENTIAL_MISSING',
          'the month limit needs a payer account that has paid most of 1 000 000 rubles this month: services.business.rules.monthNearLimit (payerAccountPrefix or payerAccounts, paidThisMonth) is not in the target file',
        );
      const room = kopecks(1_000_000) - kopecks(paid);
      if (room <= 0 || room > kopecks(100_000))
        throw new ToolError(
          'PRECONDITION_MISSING',
          `monthNearLimit.paidThisMonth ${paid} leaves ${room / 100} rubles in the month; the test needs between 0.01 and 100 000 (one payment inside the day's limit)`,
        );
      const payer = payerAccount(0, fixture, 'services.business.rules.monthNearLimit');
      const fill = await pay(payer, room / 100, `${room / 100} rubles, up to 1 000 000 in the month`);
      await expectTransferAccepted(
        t,
        fill,
        `${room / 100} rubles after ${paid} paid this month: the month's total reaches 1 000 000 exactly`,
      );
      const over = await pay(payer, 0.01, "0.01 rubles above the month's 1 000 000");
      t.expectNone(refused(over, t.id), over, '0.01 rubles after 1 000 000 paid this month from the same account');
    });

    requirementTest('BUS-LIM-004', { row: 'three transfers to one counterparty accepted, the fourth refused' }, async (t) => {
      const payer = payerAccount(PAYER_ROLES.counterparty);
      const counterparty = freshCounterparty('legal');
      for (let n = 1; n <= 3; n++) {
        const res = await pay(payer, 10, `payment ${n} to one counterparty`, counterparty, `counterparty ${n}`);
        await expectTransferAccepted(t, res, `payment ${n} of 3 allowed today to counterparty ${counterparty.accountNumber}`);
      }
      const fourth = await pay(payer, 10, 'the fourth payment to one counterparty', counterparty, 'counterparty 4');
      t.expectNone(refused(fourth, t.id), fourth, `the fourth payment today to counterparty ${counterparty.accountNumber}`);
    });
  },
);

rulesBlock(plan, 'business rules: instant-payment commission (8)', ['BUS-LIM-005'], [SBP_TRANSFER], ([sbp]) => {
  /** An instant payment from the payer, with a fresh client id. */
  function sbpPayment(op: OperationPlan, payer: string, amount: number, purpose: string) {
    const request = generatedRequest(op, purpose);
    setAt(request.body, needSite(op, 'from').path.concat('accountNumber'), payer);
    setAt(request.body, needSite(op, 'amount').path, amount);
    const id = needSite(op, 'id');
    setAt(request.body, id.path, uniqueId('sbp'));
    return request;
  }

  function commissionOf(res: CapturedResponse, field: string): number | undefined {
    const value = isJsonObject(res.json) ? res.json[field] : undefined;
    return typeof value === 'number' ? value : typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : undefined;
  }

  requirementTest('BUS-LIM-005', { row: 'no commission inside the free limit, 1 % + 25 rubles after it', timeoutMs: 90_000 }, async (t) => {
    const config = rulesConfig().sbp;
    const freeLimit = config?.freeLimit;
    const field = config?.commissionField ?? 'commission';
    if (typeof freeLimit !== 'number')
      throw new ToolError(
        'CREDENTIAL_MISSING',
        'the free limit of instant payments is not in the spec: services.business.rules.sbp.freeLimit (rubles per payer account and month) is not in the target file',
      );
    if (freeLimit > 100_000)
      throw new ToolError('PRECONDITION_MISSING', `sbp.freeLimit ${freeLimit} cannot be used up in one payment of at most 100 000 rubles`);
    const payer = payerAccount(PAYER_ROLES.sbp);
    const control = () =>
      ruleControl(t, sbp, 'a small instant payment', () => sbpPayment(sbp, payerAccount(PAYER_ROLES.other), 10, 'sbp control'));
    const inside = await submit(sbp, sbpPayment(sbp, payer, freeLimit, 'sbp free limit'), `${freeLimit} rubles, the whole free limit`);
    await expectRuleAccepted(t, sbp, inside, control, `${freeLimit} rubles, inside the free limit`);
    const free = commissionOf(inside, field) ?? 0;
    t.expectNone(
      free === 0 ? [] : [failure(t.id, `no commission inside the free limit of ${freeLimit} rubles`, `${field} ${free}`)],
      inside,
    );
    // Whole rubles (1 % exact in kopecks), and amounts whose 1 % ends in half a kopeck or less.
    for (const [i, amount] of [1234, 5000, 1000.5, 99.99, 777.77].entries()) {
      const res = await submit(sbp, sbpPayment(sbp, payer, amount, `sbp after limit ${i}`), `${amount} rubles after the free limit`);
      await expectRuleAccepted(t, sbp, res, control, `${amount} rubles after the free limit`);
      const charged = commissionOf(res, field);
      const exact = kopecks(amount) + 250_000; // 100 × (1 % of amount + 25 rubles), in hundredths of a kopeck
      const got = charged === undefined ? undefined : Math.round(charged * 10_000);
      const ok = got !== undefined && Math.abs(got - exact) < 100 && Math.round(charged! * 100) * 100 === got;
      t.expectNone(
        ok
          ? []
          : [
              failure(
                t.id,
                `${field} = 1 % of ${amount} + 25 = ${(exact / 10_000).toFixed(4)} rubles, to the kopeck`,
                charged === undefined ? `no ${field} in the answer` : `${field} ${charged}`,
              ),
            ],
        res,
        `${amount} rubles after ${freeLimit} rubles of free instant payments this month`,
      );
    }
  });
});
