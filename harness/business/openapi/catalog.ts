/**
 * The business catalog as data: the operations of spec 4.5 (specs/catalog/business-operations.yaml)
 * and the change notes of 2.6, 8 and 9 as assertions (specs/catalog/change-notes.yaml). Loaded once,
 * each entry checked for shape so that a typo in the data fails loudly instead of checking nothing.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseYamlFast } from '../../text/yaml-fast.ts';
import { parsedOnce } from '../../text/parsed-once.ts';
import type { SideEffect } from '../../request/safety.ts';
import { HTTP_METHODS, operationKey, parseOperationName } from './paths.ts';

export type OperationStatus = 'current' | 'deprecated' | 'removed';

export interface CatalogOperation {
  method: string;
  path: string;
  version: string;
  area: string;
  status: OperationStatus;
  replacedBy?: string;
  sideEffect: SideEffect;
  mtlsDefault: boolean;
  /**
   * The document need not describe it: the specification file itself (served at its path, which
   * BUS-DOC-001 judges; a document that lists its own URL is not asked for), or a row that only one
   * reading of 4.5 gives. Present, it is exercised like any other row; absent, nothing is missing.
   */
  optional?: boolean;
  reading?: string;
}

export type Location = 'requestBody' | 'response' | 'operation' | `query:${string}` | `path:${string}` | `header:${string}`;

export interface Expectations {
  present?: boolean;
  required?: boolean;
  type?: string;
  default?: unknown;
  enumIncludes?: unknown[];
  enumExcludes?: unknown[];
  /** Each string is part of some enum value, in any case (for values 2.6 names in words). */
  enumLike?: string[];
  /** Wire values the served schema must accept / refuse (judged by behaviour, not by a pattern's text). */
  accepts?: string[];
  rejects?: string[];
  /** The located object declares fields, and none of them is required. */
  noneRequired?: boolean;
  deprecated?: boolean;
  /** The note applies only where the document declares the element; elsewhere it is not applicable. */
  ifDeclared?: boolean;
}

export interface ChangeNote {
  id: string;
  section: string;
  text: string;
  /** Where the fact is checked: "METHOD /path", or several joined by " or " (see `operations`). */
  operation: string;
  /**
   * The operations the fact may sit on, for a fact 2.6 states without naming an operation (the fields of
   * "Payments:"): it holds where some of them declares the element and none breaks it.
   */
  operations: string[];
  in: Location;
  /** For `in: response`: the status whose body is meant (default: the lowest 2xx with a JSON body). */
  status?: string;
  path: string[];
  expect: Expectations;
  reading?: string;
}

const CATALOG_DIR = new URL('../../../specs/catalog/', import.meta.url);
const STATUSES = new Set(['current', 'deprecated', 'removed']);
const SIDE_EFFECTS = new Set(['read', 'write', 'destructive', 'money']);
const EXPECTATIONS = new Set([
  'present',
  'required',
  'type',
  'default',
  'enumIncludes',
  'enumExcludes',
  'enumLike',
  'accepts',
  'rejects',
  'noneRequired',
  'deprecated',
  'ifDeclared',
]);
const STRING_LISTS = ['enumLike', 'accepts', 'rejects'] as const;
const LOCATION = /^(requestBody|response|operation|(query|path|header):[^\s:]+)$/;

function read(name: string): unknown {
  return parsedOnce(readFileSync(fileURLToPath(new URL(name, CATALOG_DIR)), 'utf8'), parseYamlFast, 'yaml');
}

let operations: CatalogOperation[] | undefined;
let notes: ChangeNote[] | undefined;

export function catalogOperations(): CatalogOperation[] {
  if (operations) return operations;
  const rows = (read('business-operations.yaml') as { operations?: CatalogOperation[] }).operations ?? [];
  const keys = new Set<string>();
  for (const row of rows) {
    const where = `business-operations.yaml: ${row.method} ${row.path}`;
    if (!HTTP_METHODS.includes(String(row.method).toLowerCase() as (typeof HTTP_METHODS)[number]))
      throw new Error(`${where}: unknown method`);
    if (typeof row.path !== 'string' || !row.path.startsWith('/')) throw new Error(`${where}: path must start with /`);
    if (!STATUSES.has(row.status)) throw new Error(`${where}: status "${row.status}"`);
    if (!SIDE_EFFECTS.has(row.sideEffect)) throw new Error(`${where}: sideEffect "${row.sideEffect}"`);
    if (typeof row.mtlsDefault !== 'boolean') throw new Error(`${where}: mtlsDefault must be true or false`);
    if (row.optional !== undefined && (row.optional !== true || row.status !== 'current' || !row.reading))
      throw new Error(`${where}: optional is only "true", on a current row with a reading that says why`);
    const key = operationKey(row.method, row.path);
    if (keys.has(key)) throw new Error(`${where}: listed twice under the path-matching rule`);
    keys.add(key);
  }
  operations = rows;
  return rows;
}

export function changeNotes(): ChangeNote[] {
  if (notes) return notes;
  const list = (read('change-notes.yaml') as { assertions?: ChangeNote[] }).assertions ?? [];
  const ids = new Set<string>();
  for (const note of list) {
    const where = `change-notes.yaml: ${note.id}`;
    if (ids.has(note.id)) throw new Error(`${where}: id listed twice`);
    ids.add(note.id);
    const listed = note.operation as unknown;
    note.operations = Array.isArray(listed) ? listed.map(String) : [String(listed)];
    if (!note.operations.length) throw new Error(`${where}: names no operation`);
    for (const name of note.operations) parseOperationName(name);
    note.operation = note.operations.join(' or ');
    if (!LOCATION.test(note.in)) throw new Error(`${where}: unknown location "in: ${note.in}"`);
    if (!Array.isArray(note.path) || note.path.some((step) => typeof step !== 'string'))
      throw new Error(`${where}: path must be a list of strings`);
    const keys = Object.keys(note.expect ?? {});
    if (!keys.length) throw new Error(`${where}: expects nothing`);
    const unknown = keys.filter((k) => !EXPECTATIONS.has(k));
    if (unknown.length) throw new Error(`${where}: unknown expectation(s) ${unknown.join(', ')}`);
    for (const key of STRING_LISTS) {
      const list = note.expect[key];
      if (list !== undefined && (!Array.isArray(list) || !list.length || list.some((v) => typeof v !== 'string')))
        throw new Error(`${where}: ${key} must be a non-empty list of strings`);
    }
    for (const name of [...note.path, note.in.replace(/^(query|path|header):/, '')].filter((n) => n.startsWith('~'))) {
      try {
        new RegExp(name.slice(1), 'i');
      } catch {
        throw new Error(`${where}: "${name}" is not a regular expression`);
      }
    }
    note.section = String(note.section);
  }
  notes = list;
  return list;
}

export function changeNote(id: string): ChangeNote {
  const found = changeNotes().find((n) => n.id === id);
  if (!found) throw new Error(`no change note ${id} in specs/catalog/change-notes.yaml`);
  return found;
}
