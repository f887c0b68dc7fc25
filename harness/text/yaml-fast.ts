/**
 * js-yaml reads a document about ten times faster than `yaml`, and for plain YAML both give the same
 * value. They part on rare constructs (a `0b11` or `-0x1F` scalar, a `null:` key, complex keys, tags,
 * anchors and aliases with yaml's alias limit, directives, several documents, tabs, long implicit keys),
 * so js-yaml answers only for a text in which a textual guard finds none of them; the guard is
 * generous, since a false alarm only costs the slow parse. js-yaml's errors (duplicate keys included)
 * are never reported: such a text goes to `yaml`, which says where and what.
 */
import { CORE_SCHEMA, load } from 'js-yaml';
import { parse } from 'yaml';

/** Where a token can start: the line start, after white space or a flow indicator. */
const AT = String.raw`(?:^|[\s\[\]{},])`;

/** Each names a construct on which the two parsers may differ (or yaml refuses what js-yaml reads). */
const RISKY: readonly RegExp[] = [
  new RegExp(`${AT}(?:[&*](?:\\S|$)|!)|(?:^|\\s)[|>][-+]?[0-9]`, 'm'), // anchor, alias, tag, a block scalar's indentation indicator
  new RegExp(`${AT}\\?(?:\\s|$)|^%`, 'm'), // complex key, directive
  /(?:^|[\s[{,])(?:null|Null|NULL|~)?[ ]*:(?:\s|$)/m, // a null or empty key
  // +.5, -.inf, -0, -0x1F, 0b11, 0o7 (a whole token: a UUID such as 0b66a7e3-… is a string to both)
  new RegExp(`${AT}[-+]\\.|${AT}[-+]0(?=[boxBOX\\s,\\]}]|$)|${AT}0(?:[bB][0-9_]+|[oO][0-9_]+|[xX][0-9a-fA-F_]+)(?=[\\s,:\\]}]|$)`, 'm'),
  new RegExp(`${AT}[-+]?[0-9.]+[eE][-+]?[0-9]{3,}(?=[\\s,:\\]}]|$)|[0-9]{300}`, 'm'), // a number beyond the largest double
  new RegExp(`${AT}[-+]?[0-9][0-9_]*_`, 'm'), // 1_000
  /(?:^[ ]*(?:-[ ]+)*|[[{,:][ ]*)[[{][^\n]*[\]}][ ]*:(?:\s|$)/m, // a flow collection as a key
  /\n(?:---|\.\.\.)(?:\s|$)|^\.\.\./, // a second document or a document end
  /^[ ]*-[ ]+-(?:[ ]|$)|^[ ]*-[ ]*(?:#.*)?$/m, // an empty sequence entry or a nested compact sequence, whose ends js-yaml misplaces
  /__proto__|<</, // prototype keys, merge keys
  /[\]}]#/, // a comment not separated from a flow collection
  /\t|\r(?!\n)|[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\uFEFF\u2028\u2029\uFFFE\uFFFF]/, // tabs, odd breaks, non-printables, byte order marks
];

/** A quote or a flow indicator opens a token after these. */
const SEPARATOR = new Set([' ', '[', '{', ',', ':']);

/** Where the quoted scalar opened at `at` closes on its line, or -1. */
function closingQuote(line: string, at: number): number {
  const quote = line[at];
  for (let i = at + 1; i < line.length; i++) {
    if (quote === '"' && line[i] === '\\') i++;
    else if (line[i] === quote && quote === "'" && line[i + 1] === "'") i++;
    else if (line[i] === quote) return i;
  }
  return -1;
}

/**
 * What, line by line, js-yaml reads otherwise than yaml, or undefined:
 * - a root that starts indented, or a line back at an indentation no earlier line opened (a sequence
 *   entry's `- ` opens the column after it): js-yaml reads some of those, yaml refuses them;
 * - a quoted scalar or a flow collection that goes on past its line: js-yaml reads the later lines at
 *   any indentation, yaml requires them indented under the parent (a text that is flow from its root,
 *   such as JSON, has no parent);
 * - a long line whose key may pass yaml's limit of 1024 characters.
 */
function lineRisk(text: string, flowRoot: boolean): string | undefined {
  const levels: number[] = [];
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(start, end);
    start = end + 1;
    let indent = 0;
    while (line[indent] === ' ') indent++;
    if (line.trim() === '') continue;
    if (levels.length === 0) {
      if (indent > 0) return 'an indented root';
      levels.push(0);
    }
    let dedented = false;
    while (indent < levels[levels.length - 1]) {
      levels.pop();
      dedented = true;
    }
    if (indent > levels[levels.length - 1]) {
      if (dedented) return 'a line back at an indentation no earlier line opened';
      levels.push(indent);
    }
    let column = indent;
    while (line[column] === '-' && line[column + 1] === ' ') {
      column += 1;
      while (line[column] === ' ') column++;
      levels.push(column);
    }
    if (line.length > 900) {
      const colon = line.search(/:(?:\s|$)/);
      if (colon === -1 || colon > 900) return 'a long line with a late or no key';
    }
    let depth = 0;
    for (let i = indent; i < line.length; i++) {
      const c = line[i];
      if (c === '"' || c === "'") {
        if (i > 0 && !SEPARATOR.has(line[i - 1])) continue;
        const close = closingQuote(line, i);
        if (close === -1) return 'a quoted scalar over several lines';
        if (line[close + 1] === '#') return 'a comment not separated from a quoted scalar';
        i = close;
      } else if (c === '[' || c === '{') depth++;
      else if (c === ']' || c === '}') depth--;
    }
    if (depth !== 0 && !flowRoot) return 'a flow collection over several lines';
  }
  return undefined;
}

/**
 * Lines longer than this go to yaml: some patterns of RISKY take time in proportion to a line's length
 * times the brackets on it (a value nested 100,000 levels deep on one line took minutes).
 */
const LONGEST_LINE = 4096;

function hasLongLine(text: string): boolean {
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    if (end - start > LONGEST_LINE) return true;
    start = end + 1;
  }
  return false;
}

/** Why js-yaml may not answer for this text, or undefined when it may. */
export function riskIn(text: string): string | undefined {
  if (hasLongLine(text)) return `a line longer than ${LONGEST_LINE} characters`;
  const uncommented = text.replace(/^[ ]*#.*$/gm, '');
  for (const re of RISKY) {
    const found = re.exec(uncommented);
    if (found) return `${JSON.stringify(found[0])} (${re.source})`;
  }
  const flowRoot = /^\s*[[{]/.test(uncommented);
  // Flow from the root: every line holds JSON-like tokens, nothing a block could start with.
  if (flowRoot && /^[ ]*[^\s[\]{}",:\d\-tfn]/m.test(uncommented.replace(/"(?:[^"\\\n]|\\.)*"/g, '""')))
    return 'a flow root with other lines';
  return lineRisk(uncommented, flowRoot);
}

/** js-yaml's value where the guard lets it answer and it reads the text; undefined otherwise. */
export function fastYaml(text: string): { value: unknown } | undefined {
  if (riskIn(text) !== undefined) return undefined;
  try {
    const value = load(text, { schema: CORE_SCHEMA, json: false });
    return value === undefined ? undefined : { value };
  } catch {
    return undefined;
  }
}

/** What `parse` from 'yaml' gives for the text (it throws where yaml does), faster where it can be. */
export function parseYamlFast(text: string): unknown {
  const fast = fastYaml(text);
  return fast ? fast.value : parse(text);
}
