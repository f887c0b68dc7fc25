/**
 * js-yaml answers for `yaml` only where it gives the same value (harness/text/yaml-fast.ts): for the served
 * document and every variant the sandbox serves, for the constructs on which the two parsers part, and
 * for random mappings and random YAML-ish texts. Wherever js-yaml answers, `yaml` must read the text
 * without an error and give a deep-equal value (0 and -0 apart); elsewhere the guard or js-yaml declines.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { CORE_SCHEMA, dump } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { parseOpenApiText, parseOpenApiTextSlowly } from '../../harness/business/openapi/parse.ts';
import { fastYaml, parseYamlFast, riskIn } from '../../harness/text/yaml-fast.ts';
import { loadVariations } from '../../sandbox/faults/index.ts';
import { FaultSet } from '../../sandbox/faults/types.ts';
import { servedDocument } from '../../sandbox/services/business/document.ts';
import { DOCUMENT_VARIATIONS } from '../../sandbox/services/business/index.ts';
import { ROOT } from '../helpers.ts';

/** What `yaml` gives, or the error it throws. */
function slow(text: string): { value: unknown } | { error: string } {
  try {
    return { value: parse(text) };
  } catch (error) {
    return { error: (error as Error).message.split('\n')[0] };
  }
}

/** Undefined when the paths agree (or js-yaml declines), else what differs. */
function disagreement(text: string): string | undefined {
  const fast = fastYaml(text);
  if (!fast) return undefined;
  const expected = slow(text);
  if ('error' in expected) return `js-yaml answered ${JSON.stringify(fast.value)}, yaml failed: ${expected.error}`;
  if (!isDeepStrictEqual(fast.value, expected.value)) {
    return `js-yaml gave ${JSON.stringify(fast.value)}, yaml ${JSON.stringify(expected.value)}`;
  }
  return undefined;
}

const FILE = join(ROOT, 'sandbox', 'services', 'business', 'openapi.yaml');

describe('the served business document', () => {
  it('is read by js-yaml, with the value and the result that yaml gives', () => {
    const text = readFileSync(FILE, 'utf8');
    expect(riskIn(text)).toBeUndefined();
    const fast = parseOpenApiText(text);
    expect(fast.ok).toBe(true);
    expect(fast).toEqual(parseOpenApiTextSlowly(text));
  });

  it('takes the texts the sandbox serves (each latitude, a sample of the document faults), and gives what yaml gives', async () => {
    const variations = new Map((await loadVariations()).map((v) => [v.id, v]));
    // Serving a variant and yaml's reading of it, the reference, cost about half a second a text: this takes
    // every latitude, every variation that edits the text itself, and one in forty of the others (the random
    // documents below cover the constructs; selftest/business/sandbox-document.test.ts reads every one).
    let counted = 0;
    const referenced = (v: (typeof DOCUMENT_VARIATIONS)[number]) => v.id.includes('-lat-') || v.text !== undefined || counted++ % 40 === 0;
    const texts = new Map<string, string[]>();
    for (const { id } of DOCUMENT_VARIATIONS.filter(referenced)) {
      const served = servedDocument(new FaultSet(variations, [id]), DOCUMENT_VARIATIONS);
      if (!('text' in served)) continue;
      const hash = createHash('sha256').update(served.text).digest('hex');
      const entry = texts.get(hash) ?? [served.text];
      entry.push(id);
      texts.set(hash, entry);
    }
    expect(texts.size).toBeGreaterThan(12);
    const declined: string[] = [];
    const withAnchors: string[] = [];
    for (const [text, ...ids] of texts.values()) {
      const expected = parseOpenApiTextSlowly(text);
      expect(parseOpenApiText(text), ids.join(',')).toEqual(expected);
      if (fastYaml(text) || !expected.ok || expected.problems.length > 0) continue;
      // Anchors and aliases are yaml's alone to read (it limits them), so those variants stay slow.
      if (/(?:^[ ]*|: |- )&a\d*(?: |$)/m.test(text)) withAnchors.push(ids.join(','));
      else declined.push(`${ids.join(',')}: ${riskIn(text)}`);
    }
    // The speed is the point: every other text yaml reads without a problem is read by js-yaml.
    expect(declined).toEqual([]);
    expect(withAnchors.length).toBeLessThan(5);
  });
});

/** Texts on which the two parsers part or might: the guard must decline each. */
const RISKY = [
  'a: 0b11',
  'a: +.5',
  'a: -.5',
  'a: -0x1F',
  'a: +0o7',
  'a: -0',
  'a: [-0]',
  'null: 1',
  'Null: 1',
  'NULL: 1',
  '~: 1',
  ': 1',
  '{null: 1}',
  '? [a, b]\n: c',
  '[a, b]: c',
  '{a: 1}: c',
  '%YAML 1.1\n---\na: 1',
  'a: !custom x',
  'a: !!float 1',
  'a: !!null ""',
  'a: !!binary aGVsbG8=',
  'a: &x 1\nb: *x',
  'a: [*x]',
  'a: 1_000',
  'a: 1e400',
  `a: ${'9'.repeat(400)}`,
  'a: b\n---\nc: d',
  'a: 1\n...\n',
  'a: "b"#c',
  'a: [b]#c',
  'a:\tb',
  'a:\n\t- b',
  'a: 1\rb: 2',
  '\uFEFFa: 1',
  'a: "x\u0085y"',
  'a: |2\n   x\n',
  'a: [1,\n2]',
  'a:\n  - [1,\n  2]',
  '__proto__: {a: 1}',
  '<<: {a: 1}',
  `${'k'.repeat(1100)}: v`,
  "a: 'x\nb'",
  'a:\n  b: "x\n c"',
  '  - a\n- b',
  'k:\n    - a\n  - b',
  '- - \n- ',
  '- - #\n- ',
  'key: \n  - \n- ',
  "': '#",
];

/** Texts both parsers read alike (or one refuses): quoted and block scalars, escapes, numbers, dates, unicode, JSON. */
const PLAIN = [
  'a: "q\\"uoted\\\\ \\t\\n \\x41 \\u00e9 \\U0001F600 \\/ \\e \\_ \\N \\L \\P \\0"',
  "a: 'single ''quoted'' \\n'",
  'a: "folded\n  line\n\n  para"',
  "a: 'folded\n  line'",
  'a: plain\n  folded\n\n  lines',
  'a: |\n  literal\n   kept\n\n',
  'a: |-\n  strip\n',
  'a: |+\n  keep\n\n',
  'a: >\n  folded\n  text\n\n  more\n',
  'a: >-\n  x\n',
  'a: |\n\n\n  leading blanks\n',
  'a: 1\nb: -1\nc: +1\nd: 1.5\ne: -2.5e-3\nf: 1e3\ng: .5\nh: 1.\ni: 010\nj: 09\nk: 0o17\nl: 0x1f\nm: 12345678901234567890',
  'a: .inf\nb: -.inf\nc: .nan\nd: .NaN\ne: +.inf',
  'a: 00\nb: -00\nc: -0.0\nd: +0\ne: 0.',
  'a: true\nb: True\nc: TRUE\nd: false\ne: yes\nf: no\ng: on\nh: y',
  'a: null\nb: ~\nc:\nd: ""\ne: Null\nf: NULL\ng: nil',
  'a: 2024-01-01\nb: 2024-01-01T10:00:00Z\nc: 10:30\nd: 1:20:30',
  'a: é中文\nb: "😀"\nc: Ωmega: no\n',
  'x: é中文 😀',
  `a: ${'long value '.repeat(500)}`,
  `a: "${'x'.repeat(5000)}"`,
  '{"a": {"b": [1, 2.5, -3e-2, true, null, "x"]}, "c": ""}',
  '{\n  "a": {\n    "b": [\n      1,\n      "x"\n    ]\n  }\n}\n',
  '[1, 2, {"a": 3}]',
  'a: b # comment\n# full line\nc: d#e',
  'a: http://x/#y\nb: "#z"',
  'a: 1\r\nb: 2\r\n',
  '---\na: 1',
  '- a: 1\n  b: 2\n- c',
  'a:\n- 1\n- 2',
  'a: {b: c, d: [e, f]}',
  'a: [b, c, ]',
  'a: x:y\nb: x :y\nc: a - b\nd: a | b',
  'a: "1"\nb: \'true\'\n"200": ok\n200: again',
  '1.0: a\n.inf: b\n0o7: c\ntrue: d',
  'a: 1\na: 2',
  'a: {b: c, b: d}',
  'a: b: c',
  'a: "unterminated',
  'a: @x',
  'a: `x',
  'a: "\\q"',
  '',
  '# only a comment',
  '- just\n- a list',
  'scalar',
  '<html><body>Login</body></html>',
];

describe('the edge cases', () => {
  it.each(RISKY)('declines %j', (text) => {
    expect(riskIn(text)).toBeDefined();
    expect(fastYaml(text)).toBeUndefined();
  });

  it.each(PLAIN)('agrees on %j', (text) => {
    expect(disagreement(text)).toBeUndefined();
    expect(parseOpenApiText(text)).toEqual(parseOpenApiTextSlowly(text));
    const expected = slow(text);
    if ('error' in expected) expect(() => parseYamlFast(text)).toThrow();
    else expect(parseYamlFast(text)).toStrictEqual(expected.value);
  });

  it('answers fast for most of the plain ones', () => {
    expect(PLAIN.filter((t) => fastYaml(t)).length).toBeGreaterThan(25);
  });
});

/** Scalars chosen where the two parsers' readings of plain scalars border each other. */
const TRICKY = [
  'null',
  'Null',
  'NULL',
  '~',
  'true',
  'True',
  'FALSE',
  'yes',
  '0b11',
  '+.5',
  '-.5',
  '.5',
  '-0x1F',
  '0x1F',
  '+0o7',
  '0o7',
  '-0',
  '+0',
  '-00',
  '1_000',
  '1e400',
  '1e3',
  '-1.5e-3',
  '.inf',
  '-.inf',
  '.nan',
  '010',
  '09',
  '1.',
  '12345678901234567890',
  '2024-01-01',
  '10:30',
  '<<',
  '__proto__',
  '',
  ' ',
  '#',
  'a #b',
  'a#b',
  '- x',
  ': x',
  '? x',
  '&a',
  '*a',
  '!a',
  '|',
  '>',
  '%',
  '@',
  '`',
  '"',
  "'",
  '[',
  ']',
  '{',
  '}',
  ',',
  '\\',
  '\t',
  '\n',
  'é',
  '😀',
  '\u0085',
  '\u2028',
];

const scalar = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const key = fc.oneof(fc.constantFrom(...TRICKY), fc.string({ maxLength: 8 }), fc.integer({ min: -5, max: 300 }).map(String));
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('list'), tie('map')),
  list: fc.array(tie('value'), { maxLength: 4 }),
  map: fc.dictionary(key, tie('value'), { maxKeys: 5, noNullPrototype: true }),
}));
const document = fc.dictionary(key, value, { minKeys: 1, maxKeys: 6, noNullPrototype: true });

/** Lines of YAML-ish text built from characters where the grammar is subtle. */
const piece = fc.string({
  unit: fc.constantFrom(
    ...'0129-+.eExob_: #"\'[]{},&*!|>?%@`~nulNtrTf\\\t\n'.split(''),
    'null',
    'true',
    '0x',
    '0b',
    '.inf',
    '- ',
    ': ',
    '  ',
  ),
  maxLength: 14,
});
const line = fc.tuple(fc.constantFrom('', '  ', '    ', '- ', '  - '), fc.constantFrom('', 'k: ', 'key: ', '"q": ', '- ', 'k: - '), piece);
const text = fc.array(line, { minLength: 1, maxLength: 6 }).map((lines) => lines.map(([a, b, c]) => a + b + c).join('\n'));

describe('random documents', () => {
  it('never disagree when dumped by yaml', () => {
    fc.assert(
      fc.property(document, (doc) => disagreement(stringify(doc)) === undefined),
      { numRuns: 1500 },
    );
  });

  it('never disagree when dumped by js-yaml', () => {
    const dumped = (doc: object) => dump(doc, { schema: CORE_SCHEMA, skipInvalid: true, lineWidth: 40 });
    fc.assert(
      fc.property(document, (doc) => disagreement(dumped(doc)) === undefined),
      { numRuns: 1500 },
    );
  });

  it('never disagree on YAML-ish texts', () => {
    fc.assert(
      fc.property(text, (t) => disagreement(t) === undefined),
      { numRuns: 6000 },
    );
  });

  it('never disagree on a mapping of tricky scalars', () => {
    const entries = fc.array(fc.tuple(fc.constantFrom(...TRICKY), fc.constantFrom(...TRICKY)), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(entries, (pairs) => disagreement(pairs.map(([k, v]) => `k${k}: ${v}\n${k}: x`).join('\n')) === undefined),
      { numRuns: 3000 },
    );
  });
});
