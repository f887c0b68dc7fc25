/**
 * YAML a user hands us (a target file, a waiver file), parsed without ever repeating its text. The
 * parser's own messages quote the source (an unresolved alias or tag by its name, the whole line under a
 * caret), and that line may hold a credential written inline: `token: *9fk…` is an alias to the parser.
 * A problem is named by its line, the key it is under, and what is wrong, in words of our own. Warnings
 * are problems too: an unknown tag turns `token: !9fk…` into an empty token without a word. Nothing is
 * printed by the parser itself.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type ErrorCode } from 'yaml';
import { fastYaml } from '../text/yaml-fast.ts';

export class YamlProblem extends Error {}

const QUOTE_IT = 'a value that starts with !, *, &, %, @ or another character YAML reserves must be quoted';

const WORDS: Record<ErrorCode, string> = {
  ALIAS_PROPS: `an alias (*) cannot carry a tag or an anchor; ${QUOTE_IT}`,
  BAD_ALIAS: `an alias (*) that is not valid; ${QUOTE_IT}`,
  BAD_DIRECTIVE: 'a directive (a line starting with %) YAML does not know',
  BAD_DQ_ESCAPE: 'a backslash escape in a double-quoted string that YAML does not know (single quotes take backslashes as they are)',
  BAD_INDENT: 'the indentation: the keys of one mapping must start at the same column',
  BAD_PROP_ORDER: `a tag (!) and an anchor (&) in the wrong order; ${QUOTE_IT}`,
  BAD_SCALAR_START: `a plain value starts with a reserved character; ${QUOTE_IT}`,
  BLOCK_AS_IMPLICIT_KEY: 'a nested block used as a key',
  BLOCK_IN_FLOW: 'a block inside a { } or [ ] collection',
  DUPLICATE_KEY: 'a key given twice in one mapping',
  IMPOSSIBLE: 'something the YAML parser cannot read',
  KEY_OVER_1024_CHARS: 'a key longer than 1024 characters (is a colon missing?)',
  MISSING_CHAR: 'a character is missing: an unclosed quote or bracket, or no space after a tag, an anchor or a colon',
  MULTILINE_IMPLICIT_KEY: 'a key that runs over more than one line (is a colon missing?)',
  MULTIPLE_ANCHORS: `more than one anchor (&) on one value; ${QUOTE_IT}`,
  MULTIPLE_DOCS: 'more than one YAML document (---) in one file',
  MULTIPLE_TAGS: `more than one tag (!) on one value; ${QUOTE_IT}`,
  NON_STRING_KEY: 'a key that is not a plain string',
  RESOURCE_EXHAUSTION: 'collections nested deeper than the parser can follow (hundreds of levels of [ ] or { } inside each other)',
  TAB_AS_INDENT: 'a tab used for indentation (YAML indents with spaces)',
  TAG_RESOLVE_FAILED: `a tag (!) YAML does not know; ${QUOTE_IT}`,
  UNEXPECTED_TOKEN: 'something the parser did not expect here (a stray character, or a missing colon or dash)',
  BAD_COLLECTION_TYPE: 'a collection its tag does not allow',
};
const UNRESOLVED_ALIAS = `an alias (*) to an anchor that is not defined; ${QUOTE_IT}`;
/** The most alias expansions a document may take (yaml's maxAliasCount). */
const MAX_ALIAS_EXPANSIONS = 100;
const ALIAS_EXPANSION = `aliases (*) that expand past the limit of ${MAX_ALIAS_EXPANSIONS} expansions, which keeps a file of aliases of aliases ("billion laughs") from filling memory; a target file needs no aliases like these`;
/** yaml's words when the expansions pass maxAliasCount (its other alias errors are ReferenceErrors too). */
const EXPANSION_LIMIT = /excessive alias count/i;
/** A key path longer than this many steps is shown by its first steps and its depth. */
const SHOWN_STEPS = 8;

type Path = Array<string | number>;

/** The keys down to the value at `pos`, as far as the parsed part of the document shows them. */
function keyPathAt(node: unknown, pos: number, path: Path = []): Path {
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = pair.key as { range?: [number, number, number]; value?: unknown } | null;
      const value = pair.value as { range?: [number, number, number] } | null;
      const start = key?.range?.[0] ?? value?.range?.[0];
      const end = value?.range?.[1] ?? key?.range?.[1];
      if (start === undefined || end === undefined || pos < start || pos > end) continue;
      return keyPathAt(pair.value, pos, [...path, isScalar(pair.key) ? String(pair.key.value) : '?']);
    }
  }
  if (isSeq(node)) {
    const i = node.items.findIndex((item) => {
      const range = (item as { range?: [number, number, number] } | null)?.range;
      return range !== undefined && pos >= range[0] && pos <= range[1];
    });
    if (i >= 0) return keyPathAt(node.items[i], pos, [...path, i]);
  }
  return path;
}

const formatSteps = (path: Path) => path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');
/** A key path as a message names it; a value nested hundreds of levels deep by its first steps and how deep it goes. */
const formatKey = (path: Path) =>
  path.length > SHOWN_STEPS
    ? `${formatSteps(path.slice(0, SHOWN_STEPS))}… (${path.length - SHOWN_STEPS} levels deeper)`
    : formatSteps(path);

function problem(doc: Document, lines: LineCounter, pos: number, words: string): YamlProblem {
  const path = keyPathAt(doc.contents, pos);
  const where = `at line ${lines.linePos(pos).line}${path.length ? `, key "${formatKey(path)}"` : ''}`;
  return new YamlProblem(`not valid YAML ${where}: ${words}`);
}

/** The first alias whose anchor is nowhere before it, by its position. */
function unresolvedAlias(doc: Document): number | undefined {
  let at: number | undefined;
  visit(doc, {
    Alias(_key, node) {
      if (node.resolve(doc) !== undefined) return undefined;
      at = node.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  return at;
}

/** The document's value; a YamlProblem naming the line and the key (never the text) when it is not clean YAML. */
export function parseYamlText(text: string): unknown {
  // Plain YAML (most target files) is read by js-yaml, ten times faster; anything else, and every problem, by yaml.
  const fast = fastYaml(text);
  if (fast) return fast.value;
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, logLevel: 'silent', uniqueKeys: true });
  const first = doc.errors[0] ?? doc.warnings[0];
  if (first) {
    if (first.code === 'DUPLICATE_KEY') {
      const path = keyPathAt(doc.contents, first.pos[0]);
      throw new YamlProblem(
        `not valid YAML at line ${lines.linePos(first.pos[0]).line}: key "${formatKey(path)}" is given twice in one mapping`,
      );
    }
    throw problem(doc, lines, first.pos[0], WORDS[first.code] ?? `a YAML error (${first.code})`);
  }
  const alias = unresolvedAlias(doc);
  if (alias !== undefined) throw problem(doc, lines, alias, UNRESOLVED_ALIAS);
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_EXPANSIONS });
  } catch (error) {
    // toJS may still refuse (aliases expanding past the count); its message can quote an alias, so it is never shown.
    const words = EXPANSION_LIMIT.test((error as Error).message)
      ? ALIAS_EXPANSION
      : error instanceof ReferenceError
        ? UNRESOLVED_ALIAS
        : WORDS.RESOURCE_EXHAUSTION;
    throw new YamlProblem(`not valid YAML: ${words}`);
  }
}
