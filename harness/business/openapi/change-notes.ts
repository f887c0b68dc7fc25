/**
 * The change-note evaluator: one assertion of specs/catalog/change-notes.yaml against a dereferenced
 * document. Four outcomes:
 *   holds         located, and every expectation holds
 *   broken        located, and an expectation fails (a property that must exist is missing from a
 *                 located parent counts here)
 *   not-located   the operation, body, parameter or a parent step is missing, or the parent declares
 *                 no properties at all (a free-form object says nothing either way): no evidence, so
 *                 an absence check can never pass because its schema was not found
 *   not-declared  the note applies only where the document declares the element (`ifDeclared`),
 *                 and it does not
 * Path steps: a property name; "[]" (the items of an array); "**" (this schema and every schema
 * below it, through properties, items and additionalProperties: for facts 2.6 states without a
 * parent); "~regex" (every property whose name matches, case-insensitively: for facts 2.6 states in
 * words rather than by name).
 * Composition: allOf members are merged; oneOf/anyOf members (and the sites "**" finds) are
 * alternatives, and only those that declare the property are considered (enum checks use the union
 * of their enums, `required: true` must hold in each, other keywords must agree). Samples
 * (`accepts`, `rejects`) are judged by behaviour (schema-behaviour.ts), never by a pattern's text, and
 * so are the values an element without an enum must be able to hold.
 */
import type { ChangeNote, Expectations } from './catalog.ts';
import { followed, locateRoot, NotLocated, type Root, type Schema } from './locate.ts';
import type { OperationIndex } from './paths.ts';
import { verdictOn } from './schema-behaviour.ts';
import { isJsonObject } from '../../text/json.ts';

export interface Problem {
  expected: string;
  received: string;
}

export type Outcome =
  | { kind: 'holds'; located: string }
  | { kind: 'broken'; located: string; problems: Problem[] }
  | { kind: 'not-located'; reason: string }
  | { kind: 'not-declared'; reason: string };

/** One operation's outcome, with whether a broken one is only the element missing from a located parent. */
type AtOperation = Outcome & { missing?: boolean };

/** One value: schemas that all apply (allOf parts). A step's result is a list of alternatives. */
type Conj = Schema[];

const show = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v));
const MAX_DEPTH = 12;
const MAX_ALTERNATIVES = 256;
/** Schemas "**" visits at most; a real document's largest body stays far below. */
const MAX_SITES = 4000;

/** allOf merged, oneOf/anyOf expanded into alternatives. */
function expand(schema: unknown, what: string, depth = 0): Conj[] {
  followed(schema, what);
  if (!isJsonObject(schema) || depth > MAX_DEPTH) return [[]];
  let alternatives: Conj[] = [[schema]];
  // Nested oneOfs multiply; past MAX_ALTERNATIVES a document is pathological and the rest is not read.
  const cross = (options: Conj[]) =>
    (alternatives = alternatives.flatMap((a) => options.map((o) => [...a, ...o])).slice(0, MAX_ALTERNATIVES));
  if (Array.isArray(schema.allOf)) for (const member of schema.allOf) cross(expand(member, what, depth + 1));
  for (const key of ['oneOf', 'anyOf']) {
    if (Array.isArray(schema[key]) && schema[key].length) cross((schema[key] as unknown[]).flatMap((m) => expand(m, what, depth + 1)));
  }
  return alternatives;
}

/** "a.b[].c", with "**" read as "at any depth" and "~re" as "a property named like /re/i". */
export function stepLabel(steps: string[]): string {
  const words = steps.map((s) => (s.startsWith('~') ? `<name like /${s.slice(1)}/i>` : s));
  const joined = words.reduce((acc, s) => (s === '[]' ? `${acc}[]` : s === '**' ? acc : acc ? `${acc}.${s}` : s), '');
  return steps.includes('**') ? `${joined || 'any schema'} (at any depth)` : joined;
}

interface Located {
  alternatives: Conj[];
  /** For a property: whether each declaring parent alternative lists it as required. */
  requiredIn?: boolean[];
  /** Schemas "**" could not read (an unresolved $ref): an absence is then not ruled out. */
  unread?: string[];
}

const declared = (conj: Conj): string[] => [...new Set(conj.flatMap((s) => (isJsonObject(s.properties) ? Object.keys(s.properties) : [])))];

/** Every schema at or below the current ones (breadth first, each object once). */
function descendants(current: Located, what: string): Located {
  const seen = new Set<object>();
  const unread: string[] = [];
  const out: Conj[] = [];
  const queue: Conj[] = [...current.alternatives];
  while (queue.length && out.length < MAX_SITES) {
    const conj = queue.shift()!;
    out.push(conj);
    for (const s of conj) {
      const children = [...(isJsonObject(s.properties) ? Object.values(s.properties) : []), s.items, s.additionalProperties];
      for (const child of children) {
        if (!isJsonObject(child) || seen.has(child)) continue;
        seen.add(child);
        try {
          queue.push(...expand(child, what));
        } catch (error) {
          if (!(error instanceof NotLocated)) throw error;
          unread.push(error.message);
        }
      }
    }
  }
  return { alternatives: out, unread };
}

function step(current: Located, name: string, root: Root, done: string[], last: boolean): Located | 'absent' {
  const here = done.length ? `${stepLabel(done)} in ${root.describe}` : root.describe;
  if (name === '**') return descendants(current, `the schemas below ${here}`);
  if (name === '[]') {
    const items = current.alternatives.flatMap((conj) => conj.map((s) => s.items).filter(isJsonObject));
    if (!items.length) throw new NotLocated(`${here} is not an array (no items)`);
    return { alternatives: items.flatMap((i) => expand(i, `the items of ${here}`)) };
  }
  if (!current.alternatives.some((conj) => declared(conj).length > 0))
    throw new NotLocated(`${here} declares no properties, so ${stepLabel([name])} can be neither found nor ruled out`);
  const matches = name.startsWith('~')
    ? (
        (re: RegExp) => (key: string) =>
          re.test(key)
      )(new RegExp(name.slice(1), 'i'))
    : (key: string) => key === name;
  const alternatives: Conj[] = [];
  const requiredIn: boolean[] = [];
  for (const conj of current.alternatives) {
    for (const key of declared(conj).filter(matches)) {
      const declaring = conj.filter((s) => isJsonObject(s.properties) && Object.hasOwn(s.properties, key));
      requiredIn.push(conj.some((s) => Array.isArray(s.required) && s.required.includes(key)));
      let child: Conj[] = [[]];
      for (const parent of declaring) {
        const options = expand((parent.properties as Record<string, unknown>)[key], `${stepLabel([...done, key])} in ${root.describe}`);
        child = child.flatMap((a) => options.map((o) => [...a, ...o]));
      }
      alternatives.push(...child);
    }
  }
  if (!alternatives.length) {
    if (current.unread?.length)
      throw new NotLocated(
        `${stepLabel([...done, name])} is not in what could be read of ${root.describe}; some schemas could not be read (${current.unread.slice(0, 3).join('; ')})`,
      );
    if (last) return 'absent';
    throw new NotLocated(`could not find ${stepLabel([...done, name])} in ${root.describe}`);
  }
  return { alternatives, requiredIn };
}

/** The keyword's value across alternatives, or a note that they disagree. */
function keyword(located: Located, key: string): { value?: unknown; conflict?: string } {
  const values = located.alternatives.map((conj) => {
    const defined = [
      ...new Set(
        conj
          .map((s) => s[key])
          .filter((v) => v !== undefined)
          .map((v) => JSON.stringify(v)),
      ),
    ];
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

/** An integer is a number; a nullable type still has its type. */
function typeMatches(actual: unknown, expected: string): boolean {
  const types = ([] as unknown[]).concat(actual ?? []).filter((t) => t !== 'null');
  return types.length > 0 && types.every((t) => t === expected || (expected === 'number' && t === 'integer'));
}

/** Defaults are values on the wire: 1000 and "1000" are the same default of a query parameter. */
const sameValue = (a: unknown, b: unknown) =>
  JSON.stringify(a) === JSON.stringify(b) ||
  (a !== undefined && b !== undefined && typeof a !== 'object' && typeof b !== 'object' && String(a) === String(b));

function checkEnums(expect: Expectations, located: Located): Problem[] {
  if (!expect.enumIncludes && !expect.enumExcludes && !expect.enumLike) return [];
  const values = enumOf(located);
  const wanted = [
    expect.enumIncludes && `with ${show(expect.enumIncludes)}`,
    expect.enumLike && `with values like ${show(expect.enumLike)}`,
    expect.enumExcludes && `without ${show(expect.enumExcludes)}`,
  ]
    .filter(Boolean)
    .join(', ');
  if (!values) return withoutEnum(expect, located, wanted);
  const has = (v: unknown) => values.some((x) => JSON.stringify(x) === JSON.stringify(v));
  const problems: Problem[] = [];
  const missing = (expect.enumIncludes ?? []).filter((v) => !has(v));
  const unlike = (expect.enumLike ?? []).filter((part) => !values.some((v) => String(v).toLowerCase().includes(part.toLowerCase())));
  const present = (expect.enumExcludes ?? []).filter((v) => has(v));
  if (missing.length)
    problems.push({ expected: `enum including ${show(expect.enumIncludes)}`, received: `enum ${show(values)}, missing ${show(missing)}` });
  if (unlike.length)
    problems.push({
      expected: `an enum value containing ${unlike.map((u) => `"${u}"`).join(', ')} (any case)`,
      received: `enum ${show(values)}`,
    });
  if (present.length)
    problems.push({ expected: `enum without ${show(expect.enumExcludes)}`, received: `enum ${show(values)}, which has ${show(present)}` });
  return problems;
}

/**
 * A located element without an enum holds every value its other keywords accept: a free string "may
 * hold `self`" and "can be CARD" (the values 2.6 names in words are taken as written). A value it must
 * not hold is not ruled out by a schema that accepts it.
 */
function withoutEnum(expect: Expectations, located: Located, wanted: string): Problem[] {
  const problems: Problem[] = [];
  const held = [...(expect.enumIncludes ?? []), ...(expect.enumLike ?? [])];
  const refused = held
    .map((value) => ({ value, verdict: verdictOn(located.alternatives, String(value)) }))
    .flatMap(({ value, verdict }) => (verdict.accepted ? [] : [`${show(value)} refused by ${verdict.because.join('; ')}`]));
  if (refused.length)
    problems.push({
      expected: `an element that can hold ${show(held)} (an enum ${wanted}, or a free value)`,
      received: `no enum, and ${refused.join(', ')}`,
    });
  if (expect.enumExcludes) problems.push({ expected: `an enum ${wanted}`, received: 'no enum: any value is accepted' });
  return problems;
}

function checkSamples(expect: Expectations, located: Located): Problem[] {
  const problems: Problem[] = [];
  for (const sample of expect.accepts ?? []) {
    const v = verdictOn(located.alternatives, sample);
    if (!v.accepted) problems.push({ expected: `${show(sample)} accepted`, received: `refused by ${v.because.join('; ')}` });
  }
  for (const sample of expect.rejects ?? []) {
    if (verdictOn(located.alternatives, sample).accepted)
      problems.push({ expected: `${show(sample)} refused`, received: 'accepted by the served schema' });
  }
  return problems;
}

/**
 * "default 0" stated in words, as documents often do ("По умолчанию offset = 0", "Default: 1000",
 * "defaults to 0"): the number after the word, past an optional "name =".
 */
const DEFAULT_IN_WORDS =
  /(?:\bdefaults?\b(?:\s+(?:value|is|to|of))*|по\s+умолчанию)[\s:=—–-]*(?:[a-z_][\w.]*\s*[:=]\s*)?(-?\d+(?:[.,]\d+)?)/iu;

/**
 * The default the document states: its `default` keyword, or where it has none, a default its
 * description names in words. A default the document does not state at all proves nothing about the
 * behaviour the spec gives (the runtime checks judge that): not located, unless another expectation
 * of the note is broken.
 */
function checkDefault(expected: unknown, located: Located, root: Root): Problem[] | NotLocated {
  const { value, conflict } =
    root.kind === 'parameter' && !root.schema ? { value: undefined, conflict: undefined } : keyword(located, 'default');
  if (conflict) return [{ expected: `default ${show(expected)}`, received: conflict }];
  if (value !== undefined)
    return sameValue(value, expected) ? [] : [{ expected: `default ${show(expected)}`, received: `default ${show(value)}` }];
  const texts = [
    root.kind === 'parameter' ? root.parameter.description : undefined,
    ...located.alternatives.flatMap((conj) => conj.map((schema) => schema.description)),
  ].filter((t): t is string => typeof t === 'string');
  const stated = texts.map((t) => DEFAULT_IN_WORDS.exec(t)?.[1]).find((v) => v !== undefined);
  if (stated === undefined) return new NotLocated(`${root.describe} states no default: no \`default\`, and no description names one`);
  return sameValue(stated.replace(',', '.'), expected)
    ? []
    : [{ expected: `default ${show(expected)}`, received: `a description that states the default ${stated}` }];
}

function checkExpectations(
  expect: Expectations,
  located: Located,
  root: Root,
  required: boolean | undefined,
  deprecatedHere: boolean | undefined,
): Problem[] {
  const problems: Problem[] = [];
  if (expect.required !== undefined && required !== expect.required) {
    problems.push({ expected: expect.required ? 'required' : 'optional (not required)', received: required ? 'required' : 'optional' });
  }
  if (expect.deprecated !== undefined) {
    const marked = deprecatedHere ?? located.alternatives.every((conj) => conj.some((s) => s.deprecated === true));
    if (marked !== expect.deprecated)
      problems.push({
        expected: expect.deprecated ? 'deprecated: true' : 'not deprecated',
        received: marked ? 'deprecated: true' : 'no deprecated: true',
      });
  }
  if (expect.type !== undefined) {
    const { value, conflict } =
      root.kind === 'parameter' && !root.schema ? { value: undefined, conflict: 'the parameter has no schema' } : keyword(located, 'type');
    if (conflict) problems.push({ expected: `type ${show(expect.type)}`, received: conflict });
    else if (!typeMatches(value, expect.type))
      problems.push({ expected: `type ${show(expect.type)}`, received: value === undefined ? 'no type' : `type ${show(value)}` });
  }
  const stated = expect.default === undefined ? [] : checkDefault(expect.default, located, root);
  if (Array.isArray(stated)) problems.push(...stated);
  if (expect.noneRequired) {
    const requiring = located.alternatives.flatMap((conj) => conj.flatMap((s) => (Array.isArray(s.required) ? s.required : [])));
    if (requiring.length)
      problems.push({ expected: 'every field optional (no required list)', received: `required ${show([...new Set(requiring)])}` });
  }
  const all = [...problems, ...checkEnums(expect, located), ...checkSamples(expect, located)];
  if (!all.length && stated instanceof NotLocated) throw stated;
  return all;
}

function absent(note: ChangeNote, located: string, what: string): AtOperation {
  if (note.expect.present === false) return { kind: 'holds', located };
  if (note.expect.ifDeclared) return { kind: 'not-declared', reason: `${what}, and the note applies only where it is declared` };
  return { kind: 'broken', located, problems: [{ expected: `${stepLabel(note.path) || located} present`, received: what }], missing: true };
}

/**
 * The note on the document. A note on several operations (a fact 2.6 states without naming one) holds
 * where some operation declares the element and none breaks it; an element missing from every
 * operation that could be located is broken (or not declared, for an `ifDeclared` note).
 */
export function evaluateChangeNote(index: OperationIndex, note: ChangeNote): Outcome {
  const outcomes = note.operations.map((operation) => ({ operation, outcome: evaluateAt(index, note, operation) }));
  if (outcomes.length === 1) {
    const { missing: _missing, ...outcome } = outcomes[0].outcome;
    return outcome as Outcome;
  }
  const of = (kind: Outcome['kind'], missing = false) =>
    outcomes.filter(({ outcome }) => outcome.kind === kind && Boolean(outcome.missing) === missing);
  const broken = of('broken');
  if (broken.length)
    return {
      kind: 'broken',
      located: broken.map(({ outcome }) => (outcome as { located: string }).located).join('; '),
      problems: broken.flatMap(({ operation, outcome }) =>
        (outcome as { problems: Problem[] }).problems.map((p) => ({ ...p, expected: `${p.expected} (${operation})` })),
      ),
    };
  const holds = of('holds');
  if (holds.length) return { kind: 'holds', located: holds.map(({ outcome }) => (outcome as { located: string }).located).join('; ') };
  const declared = of('not-declared');
  if (declared.length)
    return { kind: 'not-declared', reason: declared.map(({ outcome }) => (outcome as { reason: string }).reason).join('; ') };
  const missing = of('broken', true);
  if (missing.length) {
    return {
      kind: 'broken',
      located: missing.map(({ outcome }) => (outcome as { located: string }).located).join('; '),
      problems: [
        {
          expected: `${stepLabel(note.path)} present in one of ${note.operation}`,
          received: missing.map(({ outcome }) => (outcome as { problems: Problem[] }).problems[0].received).join('; '),
        },
      ],
    };
  }
  return {
    kind: 'not-located',
    reason: outcomes.map(({ operation, outcome }) => `${operation}: ${(outcome as { reason: string }).reason}`).join('; '),
  };
}

function evaluateAt(index: OperationIndex, note: ChangeNote, operation: string): AtOperation {
  try {
    const root = locateRoot(index, operation, note.in, note.status);
    if (root.kind === 'operation') {
      const located = operation;
      const problems = checkExpectations(
        note.expect,
        { alternatives: [[]] },
        root,
        undefined,
        root.operation.operation.deprecated === true,
      );
      return problems.length ? { kind: 'broken', located, problems } : { kind: 'holds', located };
    }
    if (root.kind === 'absent-parameter') {
      if (note.path.length) throw new NotLocated(`could not find ${root.describe}`);
      return absent(note, root.describe, `${root.operation} has no such parameter`);
    }
    let current: Located = { alternatives: root.schema ? expand(root.schema, root.describe) : [[]] };
    const steps = note.path;
    for (let i = 0; i < steps.length; i++) {
      const next = step(current, steps[i], root, steps.slice(0, i), i === steps.length - 1);
      if (next === 'absent') return absent(note, `${stepLabel(steps)} in ${root.describe}`, `${root.describe} has no ${stepLabel(steps)}`);
      current = next;
    }
    const located = steps.length ? `${stepLabel(steps)} in ${root.describe}` : root.describe;
    if (note.expect.present === false) {
      return {
        kind: 'broken',
        located,
        problems: [{ expected: `no ${stepLabel(steps) || 'such element'}`, received: `${located} is declared` }],
      };
    }
    if (note.expect.noneRequired && !current.alternatives.some((conj) => declared(conj).length > 0)) {
      throw new NotLocated(`${located} declares no fields, so whether they are optional can be neither found nor ruled out`);
    }
    let required: boolean | undefined;
    let deprecatedHere: boolean | undefined;
    if (!steps.length && root.kind === 'parameter') {
      required = root.parameter.required === true;
      deprecatedHere = root.parameter.deprecated === true || root.schema?.deprecated === true;
    } else if (!steps.length) {
      required = root.kind === 'body' ? root.required : undefined;
    } else if (!['[]', '**'].includes(steps[steps.length - 1])) {
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
