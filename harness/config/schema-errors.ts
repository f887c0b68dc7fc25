/**
 * One short message for a target file that breaks its schema: the key path and what is wrong, with
 * "did you mean" for a near-miss key. Ajv reports every error it met (allErrors); its first is often
 * an unhelpful oneOf/anyOf summary, so the deepest, most specific error is chosen. Values are never
 * quoted: they may be credentials.
 */
import type { ErrorObject } from 'ajv';
import { pointerSteps } from '../text/json.ts';
import { formatPath, keysAt, kindAt, targetFileSchema, type SchemaNode } from './target-schema.ts';

/** Keywords that only summarise their branches' errors. */
const SUMMARIES = new Set(['oneOf', 'anyOf', 'if', 'not', 'allOf']);
/**
 * The most telling keyword first, among errors at the same depth. A type error comes last: beside a
 * oneOf/anyOf, the branch of the right type has the error that matters (a string of the wrong form).
 */
const RANK = [
  'additionalProperties',
  'required',
  'enum',
  'const',
  'pattern',
  'minLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'minItems',
  'uniqueItems',
  'minProperties',
  'type',
];

const pathOf = (error: ErrorObject): Array<string | number> =>
  pointerSteps(error.instancePath).map((s) => (/^\d+$/.test(s) ? Number(s) : s));

function depth(error: ErrorObject): number {
  const extra = error.keyword === 'additionalProperties' || error.keyword === 'required' ? 1 : 0;
  return pathOf(error).length + extra;
}

function rank(error: ErrorObject): number {
  const i = RANK.indexOf(error.keyword);
  return SUMMARIES.has(error.keyword) ? 1000 : i === -1 ? 500 : i;
}

/** The error a person can act on: not a summary, at the deepest key, of the most telling keyword. */
export function mostSpecific(errors: readonly ErrorObject[]): ErrorObject {
  const concrete = errors.filter((e) => !SUMMARIES.has(e.keyword));
  const pool = concrete.length ? concrete : [...errors];
  return pool.reduce((best, e) => (depth(e) > depth(best) || (depth(e) === depth(best) && rank(e) < rank(best)) ? e : best));
}

/** Edits between two names, an adjacent transposition counting as one ("depht" is one edit from "depth"). */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_r, i) =>
    Array.from({ length: b.length + 1 }, (_c, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The known key a misspelt one most likely meant: by edit distance, case, or as a prefix. */
export function didYouMean(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: { name: string; score: number } | undefined;
  for (const name of known) {
    const candidate = name.toLowerCase();
    const distance = editDistance(lower, candidate);
    const prefix = lower.length >= 3 && (candidate.startsWith(lower) || lower.startsWith(candidate));
    const close = distance <= Math.max(1, Math.floor(Math.max(key.length, name.length) / 4));
    if (!close && !prefix) continue;
    if (!best || distance < best.score) best = { name, score: distance };
  }
  return best?.name;
}

const quoteList = (values: readonly unknown[]) => values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');

const TYPE_NAMES: Record<string, string> = {
  object: 'a mapping',
  array: 'a list',
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
};

/** Every type the branches at the same path accept, for "must be a list or true/false" style messages. */
function acceptedTypes(errors: readonly ErrorObject[], at: string): string[] {
  const types = errors
    .filter((e) => e.instancePath === at && e.keyword === 'type')
    .flatMap((e) => [e.params.type as string | string[]].flat());
  return [...new Set(types)];
}

/** `key "<path>": <what is wrong>` for the most specific error. */
export function describeSchemaErrors(errors: readonly ErrorObject[], prefix: ReadonlyArray<string | number> = []): string {
  const error = mostSpecific(errors);
  const path = [...prefix, ...pathOf(error)];
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = (error.params as { additionalProperty: string }).additionalProperty;
      const known = keysAt(path) ?? [];
      const guess = didYouMean(key, known);
      const hint = guess ? `; did you mean "${guess}"?` : known.length ? ` (known here: ${known.join(', ')})` : '';
      return `key "${formatPath([...path, key])}": unknown key${hint}`;
    }
    case 'required':
      return `key "${formatPath([...path, (error.params as { missingProperty: string }).missingProperty])}": is required here`;
    case 'enum':
      return `key "${formatPath(path)}": must be one of ${quoteList((error.params as { allowedValues: unknown[] }).allowedValues)}`;
    case 'type': {
      const types = acceptedTypes(errors, error.instancePath).map((t) => TYPE_NAMES[t] ?? t);
      return `key "${formatPath(path)}": must be ${types.join(' or ')}`;
    }
    case 'pattern': {
      const kind = kindAt(path);
      const form = kind ? ((targetFileSchema().$defs as Record<string, SchemaNode>)[kind]?.description as string | undefined) : undefined;
      return `key "${formatPath(path)}": ${form ? `must be ${form}` : `must match the pattern ${(error.params as { pattern: string }).pattern}`}`;
    }
    case 'minProperties':
      return `key "${formatPath(path)}": must not be empty`;
    case 'minItems':
      return `key "${formatPath(path)}": must list at least ${(error.params as { limit: number }).limit}`;
    default:
      return `key "${formatPath(path)}": ${error.message ?? error.keyword}`;
  }
}
