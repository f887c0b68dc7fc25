/**
 * What a served schema accepts, judged by behaviour rather than by its text: two patterns written
 * differently (`^(\d{20}|\d{22})$`, `^\d{20}(\d{2})?$`, a pattern plus minLength/maxLength) are the
 * same contract when they accept and refuse the same values. A sample is a wire value (a string); it
 * is read as a number where the schema's type is number or integer only, as a query parameter or a
 * JSON number would be. Only the keywords that decide whether a single value is valid count:
 * type, enum, const, pattern, minLength, maxLength, minimum, maximum, exclusiveMinimum,
 * exclusiveMaximum (OpenAPI 3.0 booleans or 3.1 numbers), multipleOf. `format` is advisory and is
 * not judged.
 */
export type Schema = Record<string, unknown>;

const NUMBER = /^-?\d+(\.\d+)?$/;

function compile(pattern: string): RegExp | undefined {
  // OpenAPI patterns are ECMA-262; with the u flag where the pattern allows it, as ajv does.
  for (const flags of ['u', '']) {
    try {
      return new RegExp(pattern, flags);
    } catch {
      // try the next reading
    }
  }
  return undefined;
}

const typesOf = (schema: Schema): string[] | undefined =>
  schema.type === undefined ? undefined : ([] as unknown[]).concat(schema.type).map(String);

/** Why one schema refuses the sample, or undefined when it accepts it. */
export function refusal(schema: Schema, sample: string): string | undefined {
  const types = typesOf(schema);
  let value: string | number = sample;
  if (types && !types.includes('string')) {
    if (!types.includes('number') && !types.includes('integer')) return `type ${types.join('/')}`;
    if (!NUMBER.test(sample)) return `type ${types.join('/')}`;
    value = Number(sample);
    if (!types.includes('number') && !Number.isInteger(value)) return 'type integer';
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => e === value || String(e) === sample))
    return `enum ${JSON.stringify(schema.enum)}`;
  if ('const' in schema && schema.const !== value && String(schema.const) !== sample) return `const ${JSON.stringify(schema.const)}`;
  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof schema.minLength === 'number' && length < schema.minLength) return `minLength ${schema.minLength}`;
    if (typeof schema.maxLength === 'number' && length > schema.maxLength) return `maxLength ${schema.maxLength}`;
    if (typeof schema.pattern === 'string') {
      const re = compile(schema.pattern);
      if (!re) return `pattern ${JSON.stringify(schema.pattern)}, which does not compile as an ECMA-262 regular expression`;
      if (!re.test(value)) return `pattern ${JSON.stringify(schema.pattern)}`;
    }
    return undefined;
  }
  const { minimum, maximum, exclusiveMinimum: exMin, exclusiveMaximum: exMax, multipleOf } = schema;
  if (typeof minimum === 'number' && (exMin === true ? value <= minimum : value < minimum))
    return `minimum ${minimum}${exMin === true ? ' (exclusive)' : ''}`;
  if (typeof maximum === 'number' && (exMax === true ? value >= maximum : value > maximum))
    return `maximum ${maximum}${exMax === true ? ' (exclusive)' : ''}`;
  if (typeof exMin === 'number' && value <= exMin) return `exclusiveMinimum ${exMin}`;
  if (typeof exMax === 'number' && value >= exMax) return `exclusiveMaximum ${exMax}`;
  if (typeof multipleOf === 'number' && multipleOf > 0 && !Number.isInteger(Number((value / multipleOf).toFixed(9))))
    return `multipleOf ${multipleOf}`;
  return undefined;
}

/**
 * Whether a located element accepts the sample: some alternative (oneOf/anyOf member) whose every
 * schema (allOf part) accepts it. With no alternative at all, anything is accepted.
 */
export function verdictOn(alternatives: Schema[][], sample: string): { accepted: true } | { accepted: false; because: string[] } {
  if (!alternatives.length) return { accepted: true };
  const because: string[] = [];
  for (const conj of alternatives) {
    const reasons = conj.map((s) => refusal(s, sample)).filter((r): r is string => r !== undefined);
    if (!reasons.length) return { accepted: true };
    because.push(...reasons);
  }
  return { accepted: false, because: [...new Set(because)] };
}
