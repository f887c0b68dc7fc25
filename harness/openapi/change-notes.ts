/**
 * The change-note evaluator: one assertion of specs/catalog/change-notes.yaml against a dereferenced
 * document. Three outcomes, never more, never fewer:
 *   holds        located, and every expectation holds
 *   broken       located, and an expectation fails (a property that must exist is missing from a
 *                located parent counts here)
 *   not-located  the operation, body, parameter or a parent step is missing, or the parent declares
 *                no properties at all (a free-form object says nothing either way); this is a failure
 *                of its own, so an absence check can never pass because its schema was not found
 * Composition: allOf members are merged; oneOf/anyOf members are alternatives, and only those that
 * declare the property are considered (enum checks use the union of their enums, `required: true`
 * must hold in each, other keywords must agree).
 */
import type { ChangeNote, Expectations } from './catalog.ts';
import { followed, locateRoot, NotLocated, type Root, type Schema } from './locate.ts';
import type { OperationIndex } from './paths.ts';

export interface Problem {
  expected: string;
  received: string;
}

export type Outcome =
  | { kind: 'holds'; located: string }
  | { kind: 'broken'; located: string; problems: Problem[] }
  | { kind: 'not-located'; reason: string };

/** One value: schemas that all apply (allOf parts). A step's result is a list of alternatives. */
type Conj = Schema[];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v));
const MAX_DEPTH = 12;
const MAX_ALTERNATIVES = 256;

/** allOf merged, oneOf/anyOf expanded into alternatives. */
function expand(schema: unknown, what: string, depth = 0): Conj[] {
  followed(schema, what);
  if (!isObject(schema) || depth > MAX_DEPTH) return [[]];
  let alternatives: Conj[] = [[schema]];
  // Nested oneOfs multiply; past MAX_ALTERNATIVES a document is pathological and the rest is not read.
  const cross = (options: Conj[]) => (alternatives = alternatives.flatMap((a) => options.map((o) => [...a, ...o])).slice(0, MAX_ALTERNATIVES));
  if (Array.isArray(schema.allOf)) for (const member of schema.allOf) cross(expand(member, what, depth + 1));
  for (const key of ['oneOf', 'anyOf']) {
    if (Array.isArray(schema[key]) && schema[key].length) cross((schema[key] as unknown[]).flatMap((m) => expand(m, what, depth + 1)));
  }
  return alternatives;
}

const stepLabel = (steps: string[]) => steps.reduce((acc, s) => (s === '[]' ? `${acc}[]` : acc ? `${acc}.${s}` : s), '');

interface Located {
  alternatives: Conj[];
  /** For a property: whether each declaring parent alternative lists it as required. */
  requiredIn?: boolean[];
}

function step(current: Located, name: string, root: Root, done: string[], last: boolean): Located | 'absent' {
  const here = done.length ? `${stepLabel(done)} in ${root.describe}` : root.describe;
  if (name === '[]') {
    const items = current.alternatives.flatMap((conj) => conj.map((s) => s.items).filter(isObject));
    if (!items.length) throw new NotLocated(`${here} is not an array (no items)`);
    return { alternatives: items.flatMap((i) => expand(i, `the items of ${here}`)) };
  }
  const declaresAny = current.alternatives.some((conj) => conj.some((s) => isObject(s.properties) && Object.keys(s.properties).length > 0));
  if (!declaresAny) throw new NotLocated(`${here} declares no properties, so ${name} can be neither found nor ruled out`);
  const alternatives: Conj[] = [];
  const requiredIn: boolean[] = [];
  for (const conj of current.alternatives) {
    const declaring = conj.filter((s) => isObject(s.properties) && Object.prototype.hasOwnProperty.call(s.properties, name));
    if (!declaring.length) continue;
    requiredIn.push(conj.some((s) => Array.isArray(s.required) && s.required.includes(name)));
    let child: Conj[] = [[]];
    for (const parent of declaring) {
      const options = expand((parent.properties as Record<string, unknown>)[name], `${stepLabel([...done, name])} in ${root.describe}`);
      child = child.flatMap((a) => options.map((o) => [...a, ...o]));
    }
    alternatives.push(...child);
  }
  if (!alternatives.length) {
    if (last) return 'absent';
    throw new NotLocated(`could not find ${stepLabel([...done, name])} in ${root.describe}`);
  }
  return { alternatives, requiredIn };
}

/** The keyword's value across alternatives, or a note that they disagree. */
function keyword(located: Located, key: string): { value?: unknown; conflict?: string } {
  const values = located.alternatives.map((conj) => {
    const defined = [...new Set(conj.map((s) => s[key]).filter((v) => v !== undefined).map((v) => JSON.stringify(v)))];
    return defined.length === 1 ? defined[0] : defined.length ? `conflict:${defined.join(' vs ')}` : undefined;
  });
  const distinct = [...new Set(values)];
  if (distinct.length === 1 && distinct[0] === undefined) return {};
  if (distinct.length === 1 && !distinct[0]!.startsWith('conflict:')) return { value: JSON.parse(distinct[0]!) };
  return { conflict: `${key} differs between the schemas that describe it: ${distinct.map((d) => d ?? 'none').join(' / ')}` };
}

function enumOf(located: Located): unknown[] | undefined {
  const enums = located.alternatives.flatMap((conj) => conj.map((s) => s.enum).filter(Array.isArray)) as unknown[][];
  return enums.length ? [...new Set(enums.flat().map((v) => JSON.stringify(v)))].map((v) => JSON.parse(v)) : undefined;
}

function typeMatches(actual: unknown, expected: string): boolean {
  if (actual === expected) return true;
  return Array.isArray(actual) && actual.includes(expected) && actual.every((t) => t === expected || t === 'null');
}

function checkExpectations(expect: Expectations, located: Located, root: Root, required: boolean | undefined, deprecatedHere: boolean | undefined): Problem[] {
  const problems: Problem[] = [];
  if (expect.required !== undefined && required !== expect.required) {
    problems.push({ expected: expect.required ? 'required' : 'optional (not required)', received: required ? 'required' : 'optional' });
  }
  if (expect.deprecated !== undefined) {
    const marked = deprecatedHere ?? located.alternatives.every((conj) => conj.some((s) => s.deprecated === true));
    if (marked !== expect.deprecated) problems.push({ expected: expect.deprecated ? 'deprecated: true' : 'not deprecated', received: marked ? 'deprecated: true' : 'no deprecated: true' });
  }
  for (const key of ['type', 'format', 'pattern', 'default', 'minimum', 'maximum'] as const) {
    if (expect[key] === undefined) continue;
    if (root.kind === 'parameter' && !root.schema) {
      problems.push({ expected: `${key} ${show(expect[key])}`, received: 'the parameter has no schema' });
      continue;
    }
    const { value, conflict } = keyword(located, key);
    if (conflict) problems.push({ expected: `${key} ${show(expect[key])}`, received: conflict });
    else if (key === 'type' ? !typeMatches(value, expect.type!) : JSON.stringify(value) !== JSON.stringify(expect[key])) {
      problems.push({ expected: `${key} ${show(expect[key])}`, received: value === undefined ? `no ${key}` : `${key} ${show(value)}` });
    }
  }
  if (expect.enumIncludes || expect.enumExcludes) {
    const values = enumOf(located);
    const has = (v: unknown) => values?.some((x) => JSON.stringify(x) === JSON.stringify(v));
    if (!values) {
      problems.push({ expected: `an enum${expect.enumIncludes ? ` with ${show(expect.enumIncludes)}` : ''}${expect.enumExcludes ? ` without ${show(expect.enumExcludes)}` : ''}`, received: 'no enum: any value is accepted' });
    } else {
      const missing = (expect.enumIncludes ?? []).filter((v) => !has(v));
      const present = (expect.enumExcludes ?? []).filter((v) => has(v));
      if (missing.length) problems.push({ expected: `enum including ${show(expect.enumIncludes)}`, received: `enum ${show(values)}, missing ${show(missing)}` });
      if (present.length) problems.push({ expected: `enum without ${show(expect.enumExcludes)}`, received: `enum ${show(values)}, which has ${show(present)}` });
    }
  }
  return problems;
}

export function evaluateChangeNote(index: OperationIndex, note: ChangeNote): Outcome {
  try {
    const root = locateRoot(index, note.operation, note.in, note.status);
    if (root.kind === 'operation') {
      const located = note.operation;
      const problems = checkExpectations(note.expect, { alternatives: [[]] }, root, undefined, root.operation.operation.deprecated === true);
      return problems.length ? { kind: 'broken', located, problems } : { kind: 'holds', located };
    }
    if (root.kind === 'absent-parameter') {
      const located = root.describe;
      if (note.path.length) throw new NotLocated(`could not find ${root.describe}`);
      if (note.expect.present === false) return { kind: 'holds', located };
      return { kind: 'broken', located, problems: [{ expected: `${root.describe} present`, received: `${root.operation} has no such parameter` }] };
    }
    let current: Located = { alternatives: root.schema ? expand(root.schema, root.describe) : [[]] };
    const steps = note.path;
    for (let i = 0; i < steps.length; i++) {
      const next = step(current, steps[i], root, steps.slice(0, i), i === steps.length - 1);
      const located = `${stepLabel(steps)} in ${root.describe}`;
      if (next === 'absent') {
        if (note.expect.present === false) return { kind: 'holds', located };
        return { kind: 'broken', located, problems: [{ expected: `${stepLabel(steps)} present`, received: `${root.describe} has no ${stepLabel(steps)}` }] };
      }
      current = next;
    }
    const located = steps.length ? `${stepLabel(steps)} in ${root.describe}` : root.describe;
    if (note.expect.present === false) {
      return { kind: 'broken', located, problems: [{ expected: `no ${stepLabel(steps) || 'such element'}`, received: `${located} is declared` }] };
    }
    let required: boolean | undefined;
    let deprecatedHere: boolean | undefined;
    if (!steps.length && root.kind === 'parameter') {
      required = root.parameter.required === true;
      deprecatedHere = root.parameter.deprecated === true || root.schema?.deprecated === true;
    } else if (!steps.length) {
      required = root.kind === 'body' ? root.required : undefined;
    } else if (steps[steps.length - 1] !== '[]') {
      const inEach = current.requiredIn ?? [];
      required = note.expect.required === false ? inEach.some(Boolean) : inEach.every(Boolean);
    }
    const problems = checkExpectations(note.expect, current, root, required, deprecatedHere);
    return problems.length ? { kind: 'broken', located, problems } : { kind: 'holds', located };
  } catch (error) {
    if (error instanceof NotLocated) return { kind: 'not-located', reason: error.message };
    throw error;
  }
}
