/**
 * The declaration workflow of spec 3.1 as data (specs/workflows/declaration.yaml): the ten states and,
 * per operation, its target state. Each operation's side-effect class comes from the business catalog
 * (specs/catalog/business-operations.yaml), so the table and the safety gate cannot disagree; loading
 * fails loudly when an operation is missing there or the table is malformed.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseYamlFast } from '../../text/yaml-fast.ts';
import { parsedOnce } from '../../text/parsed-once.ts';
import { catalogOperations } from '../openapi/catalog.ts';
import { operationKey } from '../openapi/paths.ts';
import type { SideEffect } from '../../request/safety.ts';

export type State = string;

export interface WorkflowOperation {
  /** The last path segment: start-review, start-work, ... */
  name: string;
  method: 'POST';
  path: string;
  /** "POST /api/private/ndfl3/requests/{taxRequestId}/declaration/workflow/<name>" */
  operation: string;
  target: State;
  sideEffect: SideEffect;
}

export interface Workflow {
  section: string;
  states: State[];
  operations: WorkflowOperation[];
  byName: ReadonlyMap<string, WorkflowOperation>;
}

const FILE = fileURLToPath(new URL('../../../specs/workflows/declaration.yaml', import.meta.url));
let cached: Workflow | undefined;

export function workflow(): Workflow {
  if (cached) return cached;
  const data = parsedOnce(readFileSync(FILE, 'utf8'), parseYamlFast, 'yaml') as {
    section?: unknown;
    states?: unknown;
    operations?: unknown;
  };
  const where = 'specs/workflows/declaration.yaml';
  if (!Array.isArray(data.states) || data.states.some((s) => typeof s !== 'string'))
    throw new Error(`${where}: states must be a list of names`);
  if (!Array.isArray(data.operations)) throw new Error(`${where}: operations must be a list`);
  const states = data.states as string[];
  const catalog = new Map(catalogOperations().map((row) => [operationKey(row.method, row.path), row]));
  const operations = (data.operations as Array<Record<string, unknown>>).map((row, i) => {
    const { name, method, path, target } = row;
    if (typeof name !== 'string' || method !== 'POST' || typeof path !== 'string' || !path.endsWith(`/${name}`))
      throw new Error(`${where}: operations[${i}] needs name, method POST and a path ending in /<name>`);
    if (typeof target !== 'string' || !states.includes(target))
      throw new Error(`${where}: ${name} has target "${String(target)}", which is not one of the states`);
    const row4 = catalog.get(operationKey(method, path));
    if (!row4) throw new Error(`${where}: ${method} ${path} is not in specs/catalog/business-operations.yaml`);
    return { name, method, path, operation: `${method} ${path}`, target, sideEffect: row4.sideEffect } as WorkflowOperation;
  });
  const byName = new Map(operations.map((op) => [op.name, op]));
  if (byName.size !== operations.length) throw new Error(`${where}: an operation is listed twice`);
  cached = { section: String(data.section ?? '3.1'), states, operations, byName };
  return cached;
}
