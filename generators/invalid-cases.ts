/**
 * invalidCases: from a valid value, every case that breaks exactly one rule of its schema, each saying
 * which rule and where ("contractId of 129 characters (maxLength 128)"). Every case is checked with ajv
 * before it is returned: the value must fail, and fail on the rule it names at the place it names
 * (follow-on errors of the same cause are allowed). So a case cannot be valid by accident, and
 * shrinking, which only ever re-derives cases from a smaller valid value, keeps it invalid.
 */
import fc from 'fast-check';
import type { ErrorObject } from 'ajv';
import { pointerOf } from '../harness/text/json.ts';
import { schemaRegistry, type SchemaRegistry } from '../harness/spec/schemas.ts';
import { flatten, typeOf, type Schema } from './_internals/resolve.ts';

export interface InvalidCase<T = unknown> {
  /** The JSON Schema keyword the case breaks: required, type, enum, minLength, maxLength, pattern, format, minimum, maximum, minItems, maxItems, additionalProperties. */
  rule: string;
  /** JSON pointer of the broken value ('' for the root; for `required`, the parent object). */
  path: string;
  description: string;
  value: T;
}

/**
 * Values that break a format in every reading of it: a date that names no day of the calendar, not a
 * day in another notation (01.02.2024 names one; refusing it is a policy, INS-TYP-003).
 */
const FORMAT_BREAKERS: Record<string, Array<[string, string]>> = {
  date: [
    ['2024-02-30', 'an impossible calendar date'],
    ['2023-02-29', '29 February of a common year'],
    ['2024-13-01', 'month 13'],
  ],
  'date-time': [
    ['2024-01-01', 'a date without a time'],
    ['2024-02-30T10:00:00Z', 'an impossible calendar date'],
    ['yesterday', 'a word'],
  ],
  uuid: [['123e4567-e89b-12d3-a456-42661417400', 'a uuid one character short']],
  email: [
    ['a@b.', 'an address ending in a dot'],
    ['no-at-sign.example.com', 'an address without @'],
  ],
};

function wrongTypeValue(type: string | undefined): [unknown, string] {
  switch (type) {
    case 'string':
      return [{ unexpected: 'object' }, 'an object instead of a string'];
    case 'number':
    case 'integer':
      return ['not-a-number', 'a non-numeric string instead of a number'];
    case 'boolean':
      return ['maybe', 'a string instead of a boolean'];
    case 'array':
      return [{ unexpected: 'object' }, 'an object instead of an array'];
    case 'object':
      return [['unexpected', 'array'], 'an array instead of an object'];
    default:
      return [{ unexpected: 'object' }, 'an object'];
  }
}

/**
 * A copy of the root with the value at the path (the root itself is left as it is: every case is
 * derived from the same valid value); `remove` leaves the last key out instead.
 */
function copyWithValueAt(root: unknown, path: string[], value: unknown, remove = false): unknown {
  if (path.length === 0) return value;
  const clone = Array.isArray(root) ? [...root] : { ...(root as Record<string, unknown>) };
  const [head, ...rest] = path;
  if (rest.length === 0 && remove) {
    delete (clone as Record<string, unknown>)[head];
    return clone;
  }
  (clone as Record<string, unknown>)[head] = copyWithValueAt((root as Record<string, unknown>)[head], rest, value, remove);
  return clone;
}

/** A copy of the root without the last key of the path. */
const copyWithoutKeyAt = (root: unknown, path: string[]): unknown => copyWithValueAt(root, path, undefined, true);

const label = (path: string[]) => (path.length ? path.join('.').replace(/\.(\d+)(?=\.|$)/g, '[$1]') : 'the body');

function candidates(
  registry: SchemaRegistry,
  schema: Schema,
  base: string,
  value: unknown,
  path: string[],
  root: unknown,
  out: InvalidCase[],
): void {
  const flat = flatten(registry, { schema, base });
  const s = flat.schema;
  const type = typeOf(s);
  const add = (rule: string, description: string, mutated: unknown, at = path) =>
    out.push({ rule, path: pointerOf(at), description, value: mutated });
  const name = label(path);

  if (path.length > 0 && type) {
    const [wrong, what] = wrongTypeValue(type);
    add('type', `${name}: ${what}`, copyWithValueAt(root, path, wrong));
  }
  if (Array.isArray(s.enum)) {
    const outside = ['NOT_IN_ENUM', 'zzz', 0].find((v) => !(s.enum as unknown[]).includes(v));
    add('enum', `${name}: ${JSON.stringify(outside)}, outside the enumeration`, copyWithValueAt(root, path, outside));
  }
  if (type === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const req of (s.required as string[] | undefined) ?? []) {
      if (req in obj) add('required', `${label([...path, req])} missing`, copyWithoutKeyAt(root, [...path, req]));
    }
    if (s.additionalProperties === false)
      add('additionalProperties', `${name}: an undeclared property`, copyWithValueAt(root, [...path, 'undeclaredProperty'], 'x'));
    const props = (s.properties as Record<string, Schema> | undefined) ?? {};
    for (const [key, sub] of Object.entries(props))
      if (key in obj) candidates(registry, sub, flat.base, obj[key], [...path, key], root, out);
  }
  if (type === 'array' && Array.isArray(value)) {
    const min = s.minItems as number | undefined;
    const max = s.maxItems as number | undefined;
    if (min !== undefined && min > 0)
      add('minItems', `${name} of ${min - 1} items (minItems ${min})`, copyWithValueAt(root, path, value.slice(0, min - 1)));
    if (max !== undefined && max <= 5000 && value.length > 0) {
      const longer = Array.from({ length: max + 1 }, (_, i) => value[i % value.length]);
      add('maxItems', `${name} of ${max + 1} items (maxItems ${max})`, copyWithValueAt(root, path, longer));
    }
    if (value.length > 0 && s.items) candidates(registry, s.items as Schema, flat.base, value[0], [...path, '0'], root, out);
  }
  if (type === 'string' && typeof value === 'string') {
    const min = s.minLength as number | undefined;
    const max = s.maxLength as number | undefined;
    if (min !== undefined && min > 0)
      add('minLength', `${name} of ${min - 1} characters (minLength ${min})`, copyWithValueAt(root, path, 'x'.repeat(min - 1)));
    if (max !== undefined)
      add('maxLength', `${name} of ${max + 1} characters (maxLength ${max})`, copyWithValueAt(root, path, 'x'.repeat(max + 1)));
    if (typeof s.pattern === 'string') {
      const re = new RegExp(s.pattern, 'u');
      const breaker = ['!', '', ' ', `${value}!`, '@@@@'].find((v) => !re.test(v));
      if (breaker !== undefined)
        add('pattern', `${name}: ${JSON.stringify(breaker)} does not match ${s.pattern}`, copyWithValueAt(root, path, breaker));
    }
    for (const [bad, what] of FORMAT_BREAKERS[s.format as string] ?? [])
      add('format', `${name}: ${what} (${JSON.stringify(bad)})`, copyWithValueAt(root, path, bad));
  }
  if ((type === 'number' || type === 'integer') && typeof value === 'number') {
    if (typeof s.minimum === 'number')
      add('minimum', `${name} of ${s.minimum - 1} (minimum ${s.minimum})`, copyWithValueAt(root, path, s.minimum - 1));
    if (typeof s.maximum === 'number')
      add('maximum', `${name} of ${s.maximum + 1} (maximum ${s.maximum})`, copyWithValueAt(root, path, s.maximum + 1));
    if (typeof s.exclusiveMinimum === 'number')
      add('exclusiveMinimum', `${name} of ${s.exclusiveMinimum} (exclusive minimum)`, copyWithValueAt(root, path, s.exclusiveMinimum));
    if (typeof s.exclusiveMaximum === 'number')
      add('exclusiveMaximum', `${name} of ${s.exclusiveMaximum} (exclusive maximum)`, copyWithValueAt(root, path, s.exclusiveMaximum));
    if (type === 'integer') add('type', `${name}: 1.5 instead of an integer`, copyWithValueAt(root, path, 1.5));
  }
}

/** Whether ajv's errors include the named rule at the named place. */
export function failsOnRule(errors: ErrorObject[] | null | undefined, c: Pick<InvalidCase, 'rule' | 'path'>): boolean {
  return (errors ?? []).some((e) => e.keyword === c.rule && e.instancePath === c.path);
}

export function invalidCases<T>(schemaId: string, valid: T, registry: SchemaRegistry = schemaRegistry()): InvalidCase<T>[] {
  const raw: InvalidCase[] = [];
  candidates(registry, registry.schema(schemaId), schemaId, valid, [], valid, raw);
  const validate = registry.validator(schemaId);
  return raw.filter((c) => !validate(c.value) && failsOnRule(validate.errors, c)) as InvalidCase<T>[];
}

/** An arbitrary of invalid cases derived from an arbitrary of valid values. */
export function invalidCaseArbitrary<T>(
  schemaId: string,
  valid: fc.Arbitrary<T>,
  registry: SchemaRegistry = schemaRegistry(),
): fc.Arbitrary<InvalidCase<T>> {
  return valid.chain((value) => {
    const cases = invalidCases(schemaId, value, registry);
    if (cases.length === 0)
      throw new Error(`invalidCaseArbitrary: no invalid case derives from ${JSON.stringify(value).slice(0, 200)} under ${schemaId}`);
    return fc.constantFrom(...cases);
  });
}
