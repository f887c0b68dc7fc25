/**
 * The sandbox's own reading of spec 2.5 and 4.4 (independent of specs/: a real staging does not share
 * the suite's schemas). Returns the first problem as { field, rule, message } or undefined.
 */
import type { FaultSet } from '../../faults/types.ts';

export const CURRENCIES = ['RUB', 'USD', 'EUR', 'CNY', 'HKD', 'GBP', 'CHF', 'CAD', 'DKK'];
export const PRODUCT_TYPES = ['investment', 'universal'];

export interface Problem {
  field: string;
  rule: string;
  message: string;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

export function isCalendarDate(value: string, lenient = false): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (lenient) return mo >= 1 && mo <= 12 && d >= 1 && d <= 31;
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

export function isDateTime(value: string, lenient = false, zuluOnly = false): boolean {
  const m = DATE_TIME.exec(value);
  if (zuluOnly && m && m[6] !== 'Z' && m[6] !== 'z') return false;
  if (!m || !isCalendarDate(m[1], lenient)) return false;
  const [h, mi, s] = [Number(m[2]), Number(m[3]), Number(m[4])];
  const offsetOk = m[7] === undefined || (Number(m[7]) <= 23 && Number(m[8]) <= 59);
  return h <= 23 && mi <= 59 && s <= 60 && offsetOk;
}

const problem = (field: string, rule: string, message: string): Problem => ({ field, rule, message });
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkItem(item: unknown, at: string, faults: FaultSet): Problem | undefined {
  if (!isObject(item)) return problem(at, 'type', 'must be an object');
  const lenient = faults.has('ins-lenient-dates');
  for (const key of ['calcPeriodFrom', 'calcPeriodTo'] as const) {
    const v = item[key];
    if (v === undefined) return problem(`${at}.${key}`, 'required', 'is required');
    if (typeof v !== 'string' || !isCalendarDate(v, lenient)) return problem(`${at}.${key}`, 'format', 'must be a date yyyy-mm-dd');
  }
  const currencies = faults.has('ins-currency-dkk-missing') ? CURRENCIES.filter((c) => c !== 'DKK') : CURRENCIES;
  if (item.currency === undefined) return problem(`${at}.currency`, 'required', 'is required');
  if (typeof item.currency !== 'string') return problem(`${at}.currency`, 'type', 'must be a string');
  if (!faults.has('ins-currency-any') && !currencies.includes(item.currency)) return problem(`${at}.currency`, 'enum', `must be one of ${currencies.join(', ')}`);
  for (const key of ['surrenderPercent', 'surrenderValue'] as const) {
    const v = item[key];
    if (v === undefined) return problem(`${at}.${key}`, 'required', 'is required');
    if (key === 'surrenderValue' && typeof v === 'string' && faults.has('ins-value-string-coerced')) continue;
    if (typeof v !== 'number' || !Number.isFinite(v)) return problem(`${at}.${key}`, 'type', 'must be a finite number');
  }
  return undefined;
}

export function validateSurrenderRequest(body: unknown, faults: FaultSet): Problem | undefined {
  if (!isObject(body)) return problem('(body)', 'type', 'must be a JSON object');
  const { contractId, productType, surrender, updateDate } = body;
  if (contractId === undefined) return problem('contractId', 'required', 'is required');
  if (typeof contractId !== 'string' && !faults.has('ins-contract-id-coerced')) return problem('contractId', 'type', 'must be a string');
  const length = [...String(contractId)].length;
  const max = faults.has('ins-contract-id-max-127') ? 127 : 128;
  if (length < 1) return problem('contractId', 'minLength', 'must not be empty');
  if (length > max && !faults.has('ins-contract-id-unbounded')) return problem('contractId', 'maxLength', `must be at most ${max} characters`);
  if (productType === undefined) return problem('productType', 'required', 'is required');
  const productTypes = faults.has('ins-product-type-universal-missing') ? PRODUCT_TYPES.filter((p) => p !== 'universal') : PRODUCT_TYPES;
  if (typeof productType !== 'string' || (!faults.has('ins-product-type-any') && !productTypes.includes(productType))) {
    return problem('productType', 'enum', `must be one of ${productTypes.join(', ')}`);
  }
  if (surrender === undefined) return problem('surrender', 'required', 'is required');
  if (!Array.isArray(surrender)) return problem('surrender', 'type', 'must be an array');
  const maxItems = faults.has('ins-surrender-max-999') ? 999 : 1000;
  if (surrender.length < 1 && !faults.has('ins-empty-surrender-accepted')) return problem('surrender', 'minItems', 'must have at least 1 item');
  if (surrender.length > maxItems && !faults.has('ins-surrender-unbounded')) return problem('surrender', 'maxItems', `must have at most ${maxItems} items`);
  for (let i = 0; i < surrender.length; i++) {
    const found = checkItem(surrender[i], `surrender[${i}]`, faults);
    if (found) return found;
  }
  if (updateDate === undefined) {
    if (!faults.has('ins-update-date-optional')) return problem('updateDate', 'required', 'is required');
  } else if (typeof updateDate !== 'string' || !isDateTime(updateDate, faults.has('ins-lenient-dates'), faults.has('ins-datetime-offset-rejected'))) {
    return problem('updateDate', 'format', 'must be an RFC 3339 date-time');
  }
  return undefined;
}

/** Data the sandbox cannot process (422): periods out of order, percent outside 0..100, negative value. */
export function unprocessable(body: { surrender: Array<Record<string, unknown>> }, faults: FaultSet): Problem | undefined {
  for (let i = 0; i < body.surrender.length; i++) {
    const item = body.surrender[i] as { calcPeriodFrom: string; calcPeriodTo: string; surrenderPercent: number; surrenderValue: number };
    if (item.calcPeriodFrom > item.calcPeriodTo && !faults.has('ins-period-order-unchecked')) {
      return problem(`surrender[${i}].calcPeriodFrom`, 'periodOrder', 'must not be after calcPeriodTo');
    }
    if (item.surrenderPercent < 0 || item.surrenderPercent > 100) return problem(`surrender[${i}].surrenderPercent`, 'range', 'must be between 0 and 100');
    if (item.surrenderValue < 0) return problem(`surrender[${i}].surrenderValue`, 'range', 'must not be negative');
  }
  return undefined;
}
