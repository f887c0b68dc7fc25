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
  new RegExp(`${AT}[-+]\\.|${AT}[-+]0(?=[boxBOX\\s,\\]}]|$)|${AT}0[boxBOX]`, 'm'), // +.5, -.inf, -0, -0x1F, 0b11, 0o7
  new RegExp(`${AT}[-+]?[0-9.]+[eE][-+]?[0-9]{3,}(?=[\\s,:\\]}]|$)|[0-9]{300}`, 'm'), // a number beyond the largest double
  new RegExp(`${AT}[-+]?[0-9][0-9_]*_`, 'm'), // 1_000
  /(?:^[ ]*(?:-[ ]+)*|[[{,:][ ]*)[[{][^\n]*[\]}][ ]*:(?:\s|$)/m, // a flow collection as a key
  /\n(?:---|\.\.\.)(?:\s|$)|^\.\.\./, // a second document or a document end
  /^[ ]*-[ ]+-(?:[ ]|$)(?:[^\n]*[-:])?[ ]*$/m, // a nested compact sequence whose last entry is empty
  /__proto__|<</, // prototype keys, merge keys
  /\S["'\]}]#/, // a comment not separated from a quoted scalar or a flow collection
  /\t|\r(?!\n)|[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\uFEFF\u2028\u2029\uFFFE\uFFFF]/, // tabs, odd breaks, non-printables, byte order marks
];

/** A text whose lines are short enough that no implicit key can pass yaml's limit of 1024 characters. */
function shortKeys(text: string): boolean {
  if (text.length < 1000) return true;
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    const stop = end === -1 ? text.length : end;
    if (stop - start > 900) {
      const colon = text.slice(start, stop).search(/:(?:\s|$)/);
      if (colon === -1 || colon > 900) return false;
    }
    start = stop + 1;
  }
  return true;
}

/** A flow collection that continues on a later line, in a text that is not JSON-like flow from its root. */
function multiLineFlow(text: string): boolean {
  if (/^\s*[[{]/.test(text)) return /^[ ]*[^\s[\]{}",:\d\-tfn]/m.test(text.replace(/"(?:[^"\\\n]|\\.)*"/g, '""'));
  for (const line of text.split('\n')) {
    let depth = 0;
    for (const c of line.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\n]|'')*'/g, '')) {
      if (c === '[' || c === '{') depth++;
      else if (c === ']' || c === '}') depth--;
    }
    if (depth !== 0) return true;
  }
  return false;
}

/**
 * A quoted scalar that goes on past its line: js-yaml reads its later lines at any indentation, yaml
 * requires them indented under the parent. A quote that opens a token counts when no like quote
 * follows it on the line.
 */
function multiLineQuote(text: string): boolean {
  for (const line of text.split('\n')) {
    for (let i = 0; i < line.length; i++) {
      if ((line[i] !== '"' && line[i] !== "'") || (i > 0 && !/[\s[{,:]/.test(line[i - 1]))) continue;
      const close = closingQuote(line, i);
      if (close === -1) return true;
      i = close;
    }
  }
  return false;
}

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
 * A line that returns to an indentation no earlier line opened: js-yaml reads some of those, yaml
 * refuses them. A sequence entry's `- ` opens the column after it too.
 */
function oddDedent(text: string): boolean {
  const levels = [0];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const indent = /^ */.exec(line)![0].length;
    let dedented = false;
    while (indent < levels[levels.length - 1]) {
      levels.pop();
      dedented = true;
    }
    if (indent > levels[levels.length - 1]) {
      if (dedented) return true;
      levels.push(indent);
    }
    let column = indent;
    for (const dash of /^(?:-[ ]+)*/.exec(line.slice(indent))![0].matchAll(/-[ ]+/g)) levels.push((column += dash[0].length));
  }
  return false;
}

/** Why js-yaml may not answer for this text, or undefined when it may. */
export function riskIn(text: string): string | undefined {
  const uncommented = text.replace(/^[ ]*#.*$/gm, '');
  for (const re of RISKY) {
    const found = re.exec(uncommented);
    if (found) return `${JSON.stringify(found[0])} (${re.source})`;
  }
  if (/^\s/.test(uncommented.split('\n').find((l) => l.trim() !== '') ?? ''))
    return 'an indented root, which js-yaml lets a later line leave';
  if (!shortKeys(uncommented)) return 'a long line with a late or no key';
  if (multiLineFlow(uncommented)) return 'a flow collection over several lines';
  if (oddDedent(uncommented)) return 'a line back at an indentation no earlier line opened';
  if (multiLineQuote(uncommented)) return 'a quoted scalar over several lines';
  return undefined;
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
