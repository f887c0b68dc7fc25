/**
 * Payment fields of spec 2.6 at runtime: uin exactly by its pattern, document numbers, the tax document
 * number, the budget classification code 0, revenueTypeCode, inn '0', recipientCorrAccountNumber for
 * tax payments, collectionAmount for individuals; and the vendor's deduplication by the client's
 * payment id. Every case is a payment that meets every other rule, from a fresh payer account; every
 * refusal is judged next to its control, the same kind of payment with nothing broken, accepted.
 * These operations move money: they run against the sandbox, or where safety.allowMoney names them.
 */
import { failure } from '../../../harness/checks/failure.ts';
import type { CapturedResponse } from '../../../harness/request/http.ts';
import { requirementTest, type RequirementContext } from '../../../harness/test/suite.ts';
import type { OperationPlan } from '../../../harness/business/runtime/plan.ts';
import { runtimePlan } from '../../../generators/business/plan.ts';
import { payment, PAYMENT_DRAFT, paymentOpWith, type Recipient, RUBLE_TRANSFER } from '../../../harness/business/rules/payments.ts';
import {
  accepted,
  expectRuleAccepted,
  expectRuleRefused,
  fitsDocument,
  freshCounterparty,
  opOf,
  PAYER_ROLES,
  payerAccount,
  refused,
  refusedByPractice,
  ruleControl,
  submit,
  uniqueId,
} from '../../../harness/business/rules/rules.ts';
import { isJsonObject, removeAt, setAt } from '../../../harness/text/json.ts';
import { needSite } from '../../../harness/business/runtime/schema-sites.ts';
import { rulesBlock } from '../../../harness/business/blocks.ts';

const plan = await runtimePlan();

const UIN_VALID: Array<[string, string]> = [
  ['0', 'the single zero'],
  ['AB12', '4 Latin capitals and digits'],
  ['ab1z', '4 Latin lower case and digits'],
  ['Жд12', '4 Cyrillic letters of both cases and digits'],
  ['1234', '4 digits'],
  ['18810177200000123456', '20 digits'],
  ['ABCDEFGHIJ0123456789', '20 Latin capitals and digits'],
  ['ЯБВГДЕЖЗИК0123456789', '20 Cyrillic capitals and digits'],
  ['1881017720000012345678901', '25 digits'],
  ['АБВГДABCDE012345678901234', '25 Cyrillic and Latin capitals and digits'],
];

const UIN_NEAR_MISSES: Array<[string, string]> = [
  ['00', 'two zeros'],
  ['123', '3 characters'],
  ['12345', '5 characters'],
  ['1881017720000012345', '19 digits'],
  ['188101772000001234567', '21 digits'],
  ['188101772000001234567890', '24 digits'],
  ['18810177200000123456789012', '26 digits'],
  ['abcdefghij0123456789', '20 characters with Latin lower case'],
  ['абвгдежзик0123456789', '20 characters with Cyrillic lower case'],
  ['abcde01234567890123456789', '25 characters with lower case'],
  ['AB-1', '4 characters with a hyphen'],
  ['AB 1', '4 characters with a space'],
];

const ROWS = [PAYMENT_DRAFT, RUBLE_TRANSFER];

rulesBlock(
  plan,
  'business rules: payment fields (2.6)',
  ['BUS-PAY-001', 'BUS-PAY-002', 'BUS-PAY-003', 'BUS-PAY-004', 'BUS-PAY-005', 'BUS-PAY-006', 'BUS-PAY-007', 'BUS-PAY-008', 'BUS-PAY-009'],
  [],
  () => {
    const served = ROWS.map(opOf).filter((op): op is OperationPlan => op !== undefined);
    const pick = (...names: string[]) => paymentOpWith(served, ...names);
    const base = (op: OperationPlan, recipient: Recipient, tax: boolean, purpose: string) =>
      payment(op, { payer: payerAccount(PAYER_ROLES.other), recipient, tax, purpose });
    /** The control of a refusal: the same kind of payment, every rule met, accepted. */
    const control = (t: RequirementContext, op: OperationPlan, recipient: Recipient, tax: boolean) =>
      ruleControl(t, op, `a ${tax ? 'tax ' : ''}payment to ${recipient === 'legal' ? 'a legal entity' : 'an individual'}`, () =>
        base(op, recipient, tax, 'control'),
      );

    /** Sets the field on a payment that meets every rule, and sends it. */
    async function withField(
      id: string,
      names: string[],
      value: unknown,
      options: { recipient?: Recipient; tax?: boolean; purpose: string; mustFit?: boolean },
    ) {
      const op = pick(...names);
      const request = base(op, options.recipient ?? 'legal', options.tax ?? false, options.purpose);
      const site = needSite(op, ...names);
      setAt(request.body, site.path, value);
      if (options.mustFit) fitsDocument(op, request, `a payment with ${names[0]} ${JSON.stringify(value)}`);
      return { op, res: await submit(op, request, `${names[0]} = ${JSON.stringify(value)}`) };
    }

    UIN_VALID.forEach(([uin, what], i) => {
      requirementTest('BUS-PAY-001', { row: `uin "${uin}" (${what}) is accepted` }, async (t) => {
        const { op, res } = await withField(t.id, ['uin'], uin, { tax: true, purpose: `uin valid ${i}` });
        await expectRuleAccepted(t, op, res, () => control(t, op, 'legal', true), `a tax payment with uin "${uin}"`);
      });
    });

    UIN_NEAR_MISSES.forEach(([uin, what], i) => {
      requirementTest('BUS-PAY-002', { row: `uin "${uin}" (${what}) is refused` }, async (t) => {
        const { op, res } = await withField(t.id, ['uin'], uin, { tax: true, purpose: `uin invalid ${i}` });
        await expectRuleRefused(t, res, () => control(t, op, 'legal', true), `a tax payment with uin "${uin}"`);
      });
    });

    for (const [digits, verdict] of [
      ['1', 'accepted'],
      ['999999', 'accepted'],
      ['1000000', 'refused'],
    ] as const) {
      requirementTest('BUS-PAY-003', { row: `document number ${digits} (${digits.length} digits) is ${verdict}` }, async (t) => {
        const op = pick('documentNumber');
        const site = needSite(op, 'documentNumber');
        const value = site.schema.type === 'integer' || site.schema.type === 'number' ? Number(digits) : digits;
        const request = base(op, 'legal', false, `document number of ${digits.length} digits`);
        setAt(request.body, site.path, value);
        const res = await submit(op, request, `documentNumber ${JSON.stringify(value)}`);
        if (verdict === 'accepted') return expectRuleAccepted(t, op, res, () => control(t, op, 'legal', false));
        await expectRuleRefused(t, res, () => control(t, op, 'legal', false));
      });
    }

    // 2.6 names no alphabet: letters of either one meet the rule, so a target that takes one of them conforms.
    requirementTest(
      'BUS-PAY-004',
      { row: 'a tax document number of 2 letters and 13 digits is accepted (Latin or Cyrillic letters)' },
      async (t) => {
        const tried: Array<{ what: string; op: OperationPlan; res: CapturedResponse }> = [];
        for (const [value, what] of [
          ['AB1234567890123', 'Latin capitals'],
          ['ФЛ1234567890123', 'Cyrillic capitals'],
        ]) {
          const { op, res } = await withField(t.id, ['taxDocNumber', 'docNumber'], value, {
            tax: true,
            purpose: `document number ${tried.length}`,
          });
          if (!accepted(op, res, t.id).length) return;
          tried.push({ what: `"${value}" (2 ${what} and 13 digits)`, op, res });
        }
        const failures = tried.flatMap(({ what, op, res }) =>
          accepted(op, res, t.id).map((f) => ({ ...f, expected: `${what}: ${f.expected}` })),
        );
        // Both refused: a refusal of the tax payment itself says nothing of the number's letters.
        if (tried.every(({ res }) => res.status >= 300 && res.status < 500)) await control(t, tried[0].op, 'legal', true);
        t.expectNone(failures, tried[0].res, 'neither alphabet was accepted');
      },
    );

    requirementTest('BUS-PAY-005', { row: 'a tax payment with budget classification code "0" is accepted' }, async (t) => {
      const { op, res } = await withField(t.id, ['kbk', 'budgetClassificationCode'], '0', { tax: true, purpose: 'kbk' });
      await expectRuleAccepted(t, op, res, () => control(t, op, 'legal', true));
    });

    for (const [value, verdict] of [
      ['1', 'accepted'],
      ['2', 'accepted'],
      ['3', 'accepted'],
      ['0', 'refused'],
      ['4', 'refused'],
      ['12', 'refused'],
      [1, 'refused'],
    ] as const) {
      requirementTest('BUS-PAY-006', { row: `revenueTypeCode ${JSON.stringify(value)} is ${verdict}` }, async (t) => {
        const { op, res } = await withField(t.id, ['revenueTypeCode'], value, { recipient: 'individual', purpose: 'revenue type' });
        if (verdict === 'accepted') return expectRuleAccepted(t, op, res, () => control(t, op, 'individual', false));
        await expectRuleRefused(t, res, () => control(t, op, 'individual', false));
      });
    }

    requirementTest('BUS-PAY-007', { row: "a payment to an individual with recipient inn '0' is accepted" }, async (t) => {
      const op = pick('inn');
      const request = payment(op, {
        payer: payerAccount(PAYER_ROLES.other),
        recipient: 'individual',
        counterparty: { ...freshCounterparty('individual'), inn: '0' },
        purpose: 'individual inn',
      });
      const res = await submit(op, request, "recipient inn '0'");
      await expectRuleAccepted(t, op, res, () => control(t, op, 'individual', false));
    });

    requirementTest('BUS-PAY-008', { row: 'a tax payment without recipientCorrAccountNumber is refused, with it accepted' }, async (t) => {
      const op = pick('recipientCorrAccountNumber');
      const site = needSite(op, 'recipientCorrAccountNumber');
      const withIt = base(op, 'legal', true, 'with corr account');
      const acceptedRes = await submit(op, withIt, 'a tax payment with recipientCorrAccountNumber');
      await expectRuleAccepted(t, op, acceptedRes, () => control(t, op, 'legal', true), 'a tax payment with recipientCorrAccountNumber');
      const without = base(op, 'legal', true, 'without corr account');
      removeAt(without.body, site.path);
      const refusedRes = await submit(op, without, 'the same tax payment without recipientCorrAccountNumber');
      t.expectNone(refused(refusedRes, t.id), refusedRes, 'the same tax payment without recipientCorrAccountNumber');
    });

    for (const recipient of ['individual', 'legal'] as const) {
      requirementTest(
        'BUS-PAY-009',
        {
          row: `collectionAmount on a payment to ${recipient === 'individual' ? 'an individual is accepted' : 'a legal entity is refused'}`,
        },
        async (t) => {
          const { op, res } = await withField(t.id, ['collectionAmount'], 150.5, { recipient, purpose: `collection amount ${recipient}` });
          const note = `collectionAmount 150.5, recipient inn of ${recipient === 'individual' ? '12' : '10'} digits`;
          if (recipient === 'individual') return expectRuleAccepted(t, op, res, () => control(t, op, 'individual', false), note);
          await expectRuleRefused(t, res, () => control(t, op, 'legal', false), note, refusedByPractice);
        },
      );
    }
  },
);

rulesBlock(plan, 'business rules: one payment per client payment id (vendor)', ['BUS-PAY-010'], [RUBLE_TRANSFER], ([transfer]) => {
  requirementTest('BUS-PAY-010', { row: `${RUBLE_TRANSFER} sent twice with one id` }, async (t) => {
    const request = payment(transfer, { payer: payerAccount(PAYER_ROLES.other), amount: 10, purpose: 'control' });
    if (typeof request.body.id !== 'string') request.body.id = uniqueId('pay');
    const first = await submit(transfer, request, 'a ruble transfer');
    t.expectNone(accepted(transfer, first, t.id), first, 'the first transfer');
    const second = await submit(transfer, request, 'the same transfer again, same id');
    if (second.status === 409) return;
    t.expectNone(accepted(transfer, second, t.id), second, 'the same transfer again');
    const idOf = (json: unknown) => (isJsonObject(json) ? json.paymentId : undefined);
    const [a, b] = [idOf(first.json), idOf(second.json)];
    t.expectNone(
      a !== undefined && a === b
        ? []
        : [
            failure(
              t.id,
              `the second answer names the first payment (paymentId ${JSON.stringify(a)}), or a 409`,
              `paymentId ${JSON.stringify(b)}: a second payment`,
            ),
          ],
      second,
    );
  });
});
