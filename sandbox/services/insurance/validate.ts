/**
 * The sandbox's own reading of spec 2.5 and 4.4 (independent of specs/: a real staging does not share
 * the suite's schemas), as named rules in the order they are checked: reading the body (400), its
 * shape (400), then what the sandbox cannot process (422). A rule ignores an absent field unless it is
 * the field's `required` rule; the rule makers are exported so that a fault can build a variant.
 */
import type { BodyRead } from '../../exchange.ts';
import { namedRules } from '../../faults/modifiers.ts';
import { badRequest, invalid, problem, type Problem, type Refusal } from './answers.ts';
import { isCalendarDate, isDateTime } from './dates.ts';
import { isJsonObject } from '../../json.ts';

export const CURRENCIES = ['RUB', 'USD', 'EUR', 'CNY', 'HKD', 'GBP', 'CHF', 'CAD', 'DKK'];
export const PRODUCT_TYPES = ['investment', 'universal'];
export const MAX_CONTRACT_ID = 128;
export const MAX_ITEMS = 1000;

type Node = Record<string, unknown>;
const isObject = (v: unknown): v is Node => isJsonObject<Node>(v);

export const BODY_RULES = namedRules<(read: BodyRead) => Refusal | undefined>()({
  'body.content-type': ({ request }) =>
    request.contentType !== 'application/json' ? badRequest('the body must be application/json') : undefined,
  'body.json': ({ json }) => ('error' in json ? badRequest(`the body is not valid JSON: ${json.error}`) : undefined),
  'body.object': ({ json }) =>
    'value' in json && !isObject(json.value) ? invalid(problem('(body)', 'type', 'must be a JSON object')) : undefined,
});

type ShapeRule = (body: Node) => Problem | undefined;

/** A rule on one field of the body, broken when `broken` says so of a value that is there. */
export const onField =
  (key: string, rule: string, message: string, broken: (value: unknown) => boolean): ShapeRule =>
  (body) =>
    body[key] !== undefined && broken(body[key]) ? problem(key, rule, message) : undefined;

const required =
  (key: string): ShapeRule =>
  (body) =>
    body[key] === undefined ? problem(key, 'required', 'is required') : undefined;

/** A rule on every surrender item that is an object; the first item that breaks it is reported. */
export const onItems =
  (check: (item: Node, at: string) => Problem | undefined): ShapeRule =>
  (body) => {
    const items = Array.isArray(body.surrender) ? body.surrender : [];
    for (let i = 0; i < items.length; i++) {
      const found = isObject(items[i]) ? check(items[i] as Node, `surrender[${i}]`) : undefined;
      if (found) return found;
    }
    return undefined;
  };

/** A rule on one field of every surrender item, broken when `broken` says so of a value that is there. */
export const onItemField = (key: string, rule: string, message: string, broken: (value: unknown) => boolean): ShapeRule =>
  onItems((item, at) => (item[key] !== undefined && broken(item[key]) ? problem(`${at}.${key}`, rule, message) : undefined));

const itemRequired = (key: string): ShapeRule =>
  onItems((item, at) => (item[key] === undefined ? problem(`${at}.${key}`, 'required', 'is required') : undefined));
const characters = (v: unknown) => [...String(v)].length;
const notFinite = (v: unknown) => typeof v !== 'number' || !Number.isFinite(v);

export const contractIdAtMost = (max: number) =>
  onField('contractId', 'maxLength', `must be at most ${max} characters`, (v) => characters(v) > max);
export const productTypeIn = (types: string[]) =>
  onField('productType', 'enum', `must be one of ${types.join(', ')}`, (v) => !types.includes(v as string));
export const surrenderAtMost = (max: number) =>
  onField('surrender', 'maxItems', `must have at most ${max} items`, (v) => (v as unknown[]).length > max);
export const currencyIn = (codes: string[]) =>
  onItemField('currency', 'enum', `must be one of ${codes.join(', ')}`, (v) => !codes.includes(v as string));
export const periodDate = (key: 'calcPeriodFrom' | 'calcPeriodTo', isDate: (v: string) => boolean) =>
  onItemField(key, 'format', 'must be a date yyyy-mm-dd', (v) => typeof v !== 'string' || !isDate(v));
export const updateDateFormat = (isDate: (v: string) => boolean) =>
  onField('updateDate', 'format', 'must be an RFC 3339 date-time', (v) => typeof v !== 'string' || !isDate(v));
export const finiteNumber = (key: 'surrenderPercent' | 'surrenderValue', alsoAccepted: (v: unknown) => boolean = () => false) =>
  onItemField(key, 'type', 'must be a finite number', (v) => notFinite(v) && !alsoAccepted(v));

/** 400: the shape of the request (2.5, 4.4). */
export const SHAPE_RULES = namedRules<ShapeRule>()({
  'contractId.required': required('contractId'),
  'contractId.type': onField('contractId', 'type', 'must be a string', (v) => typeof v !== 'string'),
  'contractId.minLength': onField('contractId', 'minLength', 'must not be empty', (v) => characters(v) < 1),
  'contractId.maxLength': contractIdAtMost(MAX_CONTRACT_ID),
  'productType.required': required('productType'),
  'productType.type': onField('productType', 'type', 'must be a string', (v) => typeof v !== 'string'),
  'productType.enum': productTypeIn(PRODUCT_TYPES),
  'surrender.required': required('surrender'),
  'surrender.type': onField('surrender', 'type', 'must be an array', (v) => !Array.isArray(v)),
  'surrender.minItems': onField('surrender', 'minItems', 'must have at least 1 item', (v) => (v as unknown[]).length < 1),
  'surrender.maxItems': surrenderAtMost(MAX_ITEMS),
  'surrender[].type': (body) => {
    const items = Array.isArray(body.surrender) ? body.surrender : [];
    const at = items.findIndex((item) => !isObject(item));
    return at < 0 ? undefined : problem(`surrender[${at}]`, 'type', 'must be an object');
  },
  'surrender[].calcPeriodFrom.required': itemRequired('calcPeriodFrom'),
  'surrender[].calcPeriodFrom.format': periodDate('calcPeriodFrom', isCalendarDate),
  'surrender[].calcPeriodTo.required': itemRequired('calcPeriodTo'),
  'surrender[].calcPeriodTo.format': periodDate('calcPeriodTo', isCalendarDate),
  'surrender[].currency.required': itemRequired('currency'),
  'surrender[].currency.type': onItemField('currency', 'type', 'must be a string', (v) => typeof v !== 'string'),
  'surrender[].currency.enum': currencyIn(CURRENCIES),
  'surrender[].surrenderPercent.required': itemRequired('surrenderPercent'),
  'surrender[].surrenderPercent.type': finiteNumber('surrenderPercent'),
  'surrender[].surrenderValue.required': itemRequired('surrenderValue'),
  'surrender[].surrenderValue.type': finiteNumber('surrenderValue'),
  'updateDate.required': required('updateDate'),
  'updateDate.format': updateDateFormat((v) => isDateTime(v)),
});

const dayNumber = (date: unknown) => Date.parse(`${String(date)}T00:00:00Z`) / 86_400_000;

/**
 * Refuses two items of which one's period starts at most `gapDays` days after the other's ends (0:
 * periods that overlap or share a day; 1: periods that touch too), as data that cannot be processed.
 * A latitude and a fault are written with it.
 */
export const periodsApart =
  (gapDays: number): ShapeRule =>
  (body) => {
    const items = Array.isArray(body.surrender) ? body.surrender : [];
    const periods = items
      .map((item, at) => (isObject(item) ? { at, from: dayNumber(item.calcPeriodFrom), to: dayNumber(item.calcPeriodTo) } : undefined))
      .filter((p) => p !== undefined)
      .sort((a, b) => a.from - b.from);
    // Sorted by start, some neighbours overlap whenever any two periods do.
    for (let k = 1; k < periods.length; k++) {
      const [before, after] = [periods[k - 1], periods[k]];
      if (after.from - before.to <= gapDays)
        return problem(`surrender[${after.at}].calcPeriodFrom`, 'periodsApart', `must not overlap the period of surrender[${before.at}]`);
    }
    return undefined;
  };

/** 422: data the sandbox cannot process: periods out of order, percent outside 0..100, a negative value. */
export const PROCESSING_RULES = namedRules<ShapeRule>()({
  'surrender[].periodOrder': onItems((item, at) =>
    (item.calcPeriodFrom as string) > (item.calcPeriodTo as string)
      ? problem(`${at}.calcPeriodFrom`, 'periodOrder', 'must not be after calcPeriodTo')
      : undefined,
  ),
  // 2.5 says nothing of two items' periods: the sandbox stores periods that overlap, each as sent.
  'surrender[].periodsApart': () => undefined,
  'surrender[].surrenderPercent.range': onItems((item, at) => {
    const percent = item.surrenderPercent as number;
    return percent < 0 || percent > 100 ? problem(`${at}.surrenderPercent`, 'range', 'must be between 0 and 100') : undefined;
  }),
  'surrender[].surrenderValue.range': onItems((item, at) =>
    (item.surrenderValue as number) < 0 ? problem(`${at}.surrenderValue`, 'range', 'must not be negative') : undefined,
  ),
});
