/**
 * schemaArbitrary: a fast-check arbitrary of values valid against a JSON Schema of the registry.
 * Covers type, enum, const, lengths, pattern, formats (date, date-time, their ISO 8601 forms, uuid, email), numeric bounds,
 * array sizes, required and optional properties, $ref and allOf; oneOf/anyOf pick a branch.
 * `x-generate` hints narrow values to what a backend would accept (percent 0..100, two decimals).
 */
import fc from 'fast-check';
import { schemaRegistry, type SchemaRegistry } from '../harness/spec/schemas.ts';
import { flatten, hintsOf, mergeSchemas, typeOf, type Located, type Schema } from './_internals/resolve.ts';
import { realistic } from './realistic.ts';

export interface SchemaArbitraryConstraints {
  registry?: SchemaRegistry;
  /** Upper bound on generated array sizes where the schema allows more (default 5). */
  maxItems?: number;
  /** Upper bound on generated free-text lengths where the schema allows more (default 24). */
  maxLength?: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function calendarDate(): fc.Arbitrary<string> {
  return fc
    .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));
}

export function dateTime(): fc.Arbitrary<string> {
  return fc
    .record({
      instant: fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true }),
      offsetMinutes: fc.constantFrom(0, 0, 180, -300, 330),
      millis: fc.boolean(),
    })
    .map(({ instant, offsetMinutes, millis }) => {
      const local = new Date(instant.getTime() + offsetMinutes * 60_000);
      const iso = local.toISOString();
      const body = millis ? iso.slice(0, 23) : iso.slice(0, 19);
      if (offsetMinutes === 0) return `${body}Z`;
      const sign = offsetMinutes > 0 ? '+' : '-';
      const abs = Math.abs(offsetMinutes);
      return `${body}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
    });
}

/**
 * Arbitraries of strings, made once per process by what they depend on. fast-check builds a string
 * arbitrary whose characters come from another arbitrary (every `stringMatching` with a repetition) by
 * testing a dictionary of sample strings against it: about 10 ms each, paid again for every request
 * schema that has such a field, at every generation. An arbitrary keeps no state of its own between
 * samples, so one made once gives the very values a new one would (selftest/generators/arbitrary-reuse.test.ts).
 */
const strings = new Map<string, fc.Arbitrary<string>>();
function memo(key: string, make: () => fc.Arbitrary<string>): fc.Arbitrary<string> {
  let arb = strings.get(key);
  if (!arb) strings.set(key, (arb = make()));
  return arb;
}

function emailAddress(): fc.Arbitrary<string> {
  return memo('email', () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9]{1,9}$/);
    return fc.tuple(word, word, fc.constantFrom('ru', 'com', 'org', 'net')).map(([l, d, t]) => `${l}@${d}.${t}`);
  });
}

function stringArbitrary(schema: Schema, c: Required<Omit<SchemaArbitraryConstraints, 'registry'>>): fc.Arbitrary<string> {
  const hints = hintsOf(schema);
  if (hints.faker) return realistic(hints.faker);
  switch (schema.format) {
    case 'date':
    case 'iso8601-date':
      return calendarDate();
    case 'date-time':
    case 'iso8601-date-time':
      return dateTime();
    case 'uuid':
      return fc.uuid();
    case 'email':
      return emailAddress();
  }
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = Math.max(
    minLength,
    Math.min((schema.maxLength as number | undefined) ?? Infinity, hints.maxLength ?? Math.max(c.maxLength, minLength)),
  );
  if (typeof schema.pattern === 'string') {
    const pattern = schema.pattern;
    const longest = (schema.maxLength as number | undefined) ?? Infinity;
    return memo(`pattern\0${pattern}\0${minLength}\0${longest}`, () =>
      fc.stringMatching(new RegExp(pattern, 'u')).filter((s) => [...s].length >= minLength && [...s].length <= longest),
    );
  }
  return memo(`text\0${minLength}\0${maxLength}`, () => fc.string({ minLength, maxLength, unit: 'grapheme-ascii' }));
}

function numberArbitrary(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const hints = hintsOf(schema);
  let min = hints.minimum ?? (schema.minimum as number | undefined) ?? (integer ? -1_000_000 : -1e9);
  let max = hints.maximum ?? (schema.maximum as number | undefined) ?? (integer ? 1_000_000 : 1e9);
  if (typeof schema.exclusiveMinimum === 'number') min = Math.max(min, schema.exclusiveMinimum + (integer ? 1 : 1e-6));
  if (typeof schema.exclusiveMaximum === 'number') max = Math.min(max, schema.exclusiveMaximum - (integer ? 1 : 1e-6));
  if (integer) return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  const decimals = hints.decimals ?? 2;
  const scale = 10 ** decimals;
  return fc.integer({ min: Math.ceil(min * scale), max: Math.floor(max * scale) }).map((n) => n / scale);
}

function build(
  located: Located,
  c: Required<Omit<SchemaArbitraryConstraints, 'registry'>>,
  registry: SchemaRegistry,
): fc.Arbitrary<unknown> {
  const { schema, base } = flatten(registry, located);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (!Array.isArray(schema[key])) continue;
    // A branch may only add constraints to the schema around it (anyOf: [{ required: [jti] }, …]):
    // generate from the surrounding schema merged with the branch.
    const { [key]: branches, ...around } = schema;
    return fc.oneof(
      ...(branches as Schema[]).map((branch) =>
        build({ schema: mergeSchemas(around, flatten(registry, { schema: branch, base }).schema), base }, c, registry),
      ),
    );
  }
  const type = typeOf(schema);
  const nullable = Array.isArray(schema.type) && schema.type.includes('null');
  let arb: fc.Arbitrary<unknown>;
  switch (type) {
    case 'object': {
      const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, sub] of Object.entries(properties)) model[name] = build({ schema: sub, base }, c, registry);
      const required = ((schema.required as string[] | undefined) ?? []).filter((r) => r in model);
      arb = fc.record(model, { requiredKeys: required });
      break;
    }
    case 'array': {
      const hints = hintsOf(schema);
      const minLength = (schema.minItems as number | undefined) ?? 0;
      const maxLength = Math.max(minLength, Math.min((schema.maxItems as number | undefined) ?? Infinity, hints.maxItems ?? c.maxItems));
      const items = schema.items ? build({ schema: schema.items as Schema, base }, c, registry) : fc.string();
      arb = fc.array(items, { minLength, maxLength });
      break;
    }
    case 'string':
      arb = stringArbitrary(schema, c);
      break;
    case 'integer':
      arb = numberArbitrary(schema, true);
      break;
    case 'number':
      arb = numberArbitrary(schema, false);
      break;
    case 'boolean':
      arb = fc.boolean();
      break;
    case 'null':
      arb = fc.constant(null);
      break;
    default:
      arb = fc.oneof(fc.string(), fc.integer(), fc.boolean());
  }
  return nullable ? fc.option(arb, { nil: null, freq: 5 }) : arb;
}

export function schemaArbitrary<T = unknown>(schemaId: string, constraints: SchemaArbitraryConstraints = {}): fc.Arbitrary<T> {
  const registry = constraints.registry ?? schemaRegistry();
  const c = { maxItems: constraints.maxItems ?? 5, maxLength: constraints.maxLength ?? 24 };
  return build({ schema: registry.schema(schemaId), base: schemaId }, c, registry) as fc.Arbitrary<T>;
}
