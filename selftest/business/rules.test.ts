/**
 * The business rules of 2.6 and the limits of 8: the suite's body helpers and taxpayer numbers, and
 * the sandbox's rule checks and commission arithmetic, each against hand-worked cases.
 */
import { describe, expect, it } from 'vitest';
import { FaultSet } from '../../sandbox/faults/types.ts';
import { runtimeModifiers } from '../../sandbox/services/business/runtime/fault-modifiers.ts';
import { faults as runtimeFaults } from '../../sandbox/services/business/runtime/index.ts';
import { operationByKey } from '../../sandbox/services/business/runtime/operations.ts';
import { sbpCommission } from '../../sandbox/services/business/runtime/payments.ts';
import { normalised, ruleRefusal } from '../../sandbox/services/business/runtime/rules.ts';
import { innIndividual, innLegal } from '../../harness/business/rules/inn.ts';
import { getAt, removeAt, setAt } from '../../harness/text/json.ts';

const catalog = new Map(runtimeFaults.map((f) => [f.id, f]));
/** The handler's rules and settings with the faults `ids` on. */
const on = (...ids: string[]) => runtimeModifiers(new FaultSet(catalog, ids));
const none = on();

/** Check digits by the tax service's published weights, written out independently of the generator. */
function innValid(inn: string): boolean {
  const d = [...inn].map(Number);
  const check = (weights: number[]) => (weights.reduce((s, w, i) => s + w * d[i], 0) % 11) % 10;
  if (inn.length === 10) return check([2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[9];
  if (inn.length === 12) return check([7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[10] && check([3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[11];
  return false;
}

describe('rule suites: body helpers and taxpayer numbers', () => {
  it('sets, reads and removes along paths, "*" stepping through every item', () => {
    const body: Record<string, unknown> = { items: [{ name: 'a' }, { name: 'b' }] };
    setAt(body, ['items', '*', 'weight'], 1200);
    setAt(body, ['to', 'inn'], '0');
    expect(body).toEqual({
      items: [
        { name: 'a', weight: 1200 },
        { name: 'b', weight: 1200 },
      ],
      to: { inn: '0' },
    });
    expect(getAt(body, ['items', '*', 'weight'])).toBe(1200);
    removeAt(body, ['items', '*', 'weight']);
    removeAt(body, ['absent', 'field']);
    expect(body).toEqual({ items: [{ name: 'a' }, { name: 'b' }], to: { inn: '0' } });
  });

  it('makes inns with valid check digits (known real inns pass the same check)', () => {
    expect(innValid('7707083893')).toBe(true);
    expect(innValid('500100732259')).toBe(true);
    expect(innValid('7707083894')).toBe(false);
    for (let i = 0; i < 200; i++) {
      expect(innValid(innLegal())).toBe(true);
      expect(innValid(innIndividual())).toBe(true);
    }
  });
});

describe('sandbox: the instant-payment commission (8)', () => {
  it('charges nothing inside the free limit of 10 000 rubles', () => {
    expect(sbpCommission(0, 10_000, none.settings)).toBe(0);
    expect(sbpCommission(5_000_00, 4_999.99, none.settings)).toBe(0);
  });
  it('charges 1 % + 25 rubles in kopecks after it, half up', () => {
    expect(sbpCommission(10_000_00, 1234, none.settings)).toBe(1234 + 2500);
    expect(sbpCommission(10_000_00, 1000.5, none.settings)).toBe(1001 + 2500);
    expect(sbpCommission(10_000_00, 1000.49, none.settings)).toBe(1000 + 2500);
    expect(sbpCommission(10_000_00, 99.99, none.settings)).toBe(100 + 2500);
  });
  it('charges only the part above the limit of a payment that crosses it', () => {
    expect(sbpCommission(9_000_00, 3000, none.settings)).toBe(2000 + 2500);
  });
  it('the faults round to whole rubles, or charge inside the limit', () => {
    expect(sbpCommission(10_000_00, 1234, on('bus-lim-sbp-commission-rounded').settings)).toBe(1200 + 2500);
    expect(sbpCommission(0, 1000, on('bus-lim-sbp-commission-within-free').settings)).toBe(1000 + 2500);
  });
});

describe('sandbox: rules of 2.6 a schema cannot state', () => {
  const draft = operationByKey('POST /api/v1/payment/create');
  const beneficiaries = operationByKey('POST /api/v1/nominal-accounts/beneficiaries');
  const checkout = operationByKey('POST /api/v2/checkout/order');
  const refusedRule = (op: typeof draft, body: unknown, faults = none) => ruleRefusal(faults.checks, op, body)?.answer.error?.details;

  it('a tax payment needs recipientCorrAccountNumber', () => {
    expect(refusedRule(draft, { taxPayerStatus: '01', inn: '7707083893' })).toHaveProperty('recipientCorrAccountNumber');
    expect(refusedRule(draft, { taxPayerStatus: '01', recipientCorrAccountNumber: '40102810545370000003' })).toBeUndefined();
    expect(refusedRule(draft, { inn: '7707083893' })).toBeUndefined();
  });
  it('collectionAmount is for individuals only', () => {
    expect(refusedRule(draft, { inn: '7707083893', collectionAmount: 10 })).toHaveProperty('collectionAmount');
    expect(refusedRule(draft, { inn: '500100732259', collectionAmount: 10 })).toBeUndefined();
    expect(refusedRule(draft, { inn: '0', collectionAmount: 10 })).toBeUndefined();
  });
  it('beneficiary documents, addresses, citizenship, contact and kio', () => {
    const ul = {
      type: 'UL_RESIDENT',
      inn: '7707083893',
      email: 'a@example.com',
      addresses: [{ type: 'LEGAL_ENTITY_ADDRESS', address: 'x' }],
    };
    expect(refusedRule(beneficiaries, ul)).toBeUndefined();
    expect(refusedRule(beneficiaries, { ...ul, addresses: [{ type: 'POSTAL_ADDRESS', address: 'x' }] })).toHaveProperty('addresses');
    expect(refusedRule(beneficiaries, { ...ul, email: undefined })).toHaveProperty('phoneNumber');
    expect(refusedRule(beneficiaries, { ...ul, type: 'UL_NONRESIDENT', inn: undefined })).toHaveProperty('kio');
    expect(refusedRule(beneficiaries, { ...ul, type: 'UL_NONRESIDENT', inn: undefined, kio: '12345' })).toBeUndefined();
    const fl = {
      type: 'FL_RESIDENT',
      citizenship: 'RUS',
      phoneNumber: '79991234567',
      documents: [{ type: 'PATENT', number: '1', date: '2020-01-01', expireDate: '2027-01-01' }],
    };
    expect(refusedRule(beneficiaries, fl)).toBeUndefined();
    expect(refusedRule(beneficiaries, { ...fl, citizenship: undefined })).toHaveProperty('citizenship');
    expect(refusedRule(beneficiaries, { ...fl, documents: [{ type: 'PATENT', number: '1', date: '2020-01-01' }] })).toHaveProperty([
      'documents[0].expireDate',
    ]);
    expect(refusedRule(beneficiaries, { ...fl, documents: [{ type: 'PASSPORT', number: '1', date: '2020-01-01' }] })).toHaveProperty([
      'documents[0].division',
    ]);
    expect(
      refusedRule(
        beneficiaries,
        { ...fl, documents: [{ type: 'PATENT', number: '1', date: '2020-01-01' }] },
        on('bus-ben-patent-no-expire'),
      ),
    ).toBeUndefined();
  });
  it('a v2 order: itemsAmount unless amount, weight and declaredValue with delivery services', () => {
    const items = [{ name: 'a', quantity: 1, price: 10 }];
    expect(refusedRule(checkout, { items })).toHaveProperty('itemsAmount');
    expect(refusedRule(checkout, { items, amount: 10 })).toBeUndefined();
    expect(normalised(checkout, { items, amount: 10 })).toMatchObject({ itemsAmount: 10 });
    expect(refusedRule(checkout, { items, itemsAmount: 10, shippingParameters: {} })).toHaveProperty(['items[0].weight']);
    expect(
      refusedRule(checkout, { items: [{ ...items[0], weight: 1, declaredValue: 10 }], itemsAmount: 10, shippingParameters: {} }),
    ).toBeUndefined();
  });
});
