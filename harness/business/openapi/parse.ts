/**
 * The served document's text to a JavaScript object, with YAML problems located by line and column.
 * YAML is a superset of JSON, so a JSON document parses too. Duplicate keys are a YAML error, but a
 * real document with one is still worth reading: it is reported and parsed again with the last key
 * winning; any other error leaves the document unreadable. A text that js-yaml reads as `yaml` would
 * (yaml-fast.ts) is read by js-yaml, ten times faster; any other goes to `yaml`.
 */
import { parseDocument, type YAMLError } from 'yaml';
import { fastYaml } from '../../text/yaml-fast.ts';

export interface YamlProblem {
  code: string;
  message: string;
  line?: number;
  column?: number;
}

export type ParseResult =
  | { ok: true; value: Record<string, unknown>; problems: YamlProblem[] }
  | { ok: false; problem: YamlProblem; problems: YamlProblem[] };

const RECOVERABLE = new Set(['DUPLICATE_KEY']);

function problemOf(error: YAMLError): YamlProblem {
  const pos = error.linePos?.[0];
  return { code: error.code, message: error.message.split('\n')[0], line: pos?.line, column: pos?.col };
}

/** "line 3, column 1: Flow sequence in block collection must ... [BAD_INDENT]"; with the text, the line itself too. */
export function describeProblem(p: YamlProblem, text?: string): string {
  const where = p.line !== undefined ? `line ${p.line}${p.column !== undefined ? `, column ${p.column}` : ''}: ` : '';
  const line = text !== undefined && p.line !== undefined ? text.split(/\r?\n/)[p.line - 1] : undefined;
  const excerpt =
    line !== undefined && line.trim() !== ''
      ? ` (line ${p.line} reads ${JSON.stringify(line.length > 120 ? `${line.slice(0, 120)}…` : line)})`
      : '';
  return `${where}${p.message.replace(/ at line \d+, column \d+:?$/, '')} [${p.code}]${excerpt}`;
}

export function parseOpenApiText(text: string): ParseResult {
  const fast = fastYaml(text);
  if (fast && typeof fast.value === 'object' && fast.value !== null && !Array.isArray(fast.value)) {
    return { ok: true, value: fast.value as Record<string, unknown>, problems: [] };
  }
  return parseOpenApiTextSlowly(text);
}

/** The parse by `yaml` alone, which locates every problem. */
export function parseOpenApiTextSlowly(text: string): ParseResult {
  const strict = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  const problems = strict.errors.map(problemOf);
  let doc = strict;
  if (problems.length && problems.every((p) => RECOVERABLE.has(p.code))) {
    doc = parseDocument(text, { uniqueKeys: false, prettyErrors: true });
  } else if (problems.length) {
    return { ok: false, problem: problems[0], problems };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 1000 });
  } catch (error) {
    const problem = { code: 'CONVERSION', message: (error as Error).message.split('\n')[0] };
    return { ok: false, problem, problems: [...problems, problem] };
  }
  if (value === null || value === undefined) {
    const problem = { code: 'EMPTY', message: 'the document is empty' };
    return { ok: false, problem, problems: [...problems, problem] };
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    const kind = Array.isArray(value) ? 'a sequence' : `a ${typeof value} scalar`;
    const problem = {
      code: 'NOT_A_MAPPING',
      message: `the document's root is ${kind}, not a mapping (is this an HTML page or an error text?)`,
      line: 1,
    };
    return { ok: false, problem, problems: [...problems, problem] };
  }
  return { ok: true, value: value as Record<string, unknown>, problems };
}
