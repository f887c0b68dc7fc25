/**
 * The 3-NDFL part of a target file, services.business.ndfl3 (all optional; described with every other
 * key in specs/schemas/common/target-file.json, read typed by harness/business/config.ts):
 *   requestPool    [taxRequestId, ...]  requests the suite may use; the spec has no call that creates one
 *   provisioning   true, or a path relative to services.business.url: a call outside the contract that
 *                  makes a fresh request (POST, answers its id as taxRequestId). Used only when the
 *                  target is of kind sandbox; true means the sandbox's /_sandbox/ndfl3/requests
 *   stateField     where GET request data carries the state, a dotted path such as "status"
 *   versionFrom    header (ETag, the default) or body
 *   versionField   with versionFrom: body, the dotted path of the version (default "version")
 *   sourceStates   { <operation>: [state, ...] } for every operation of 3.1: the states it is allowed
 *                  from. The spec does not give them; without this table the tests of disallowed pairs
 *                  and the model-based test are skipped with that reason
 * The schema checks every value (operations and states included) when the file is loaded.
 */
import { ToolError } from '../../errors.ts';
import { isJsonObject } from '../../text/json.ts';
import { ndfl3Section } from '../config.ts';
import type { Target } from '../../config/target.ts';
import { Machine } from './machine.ts';
import { workflow, type State } from './workflow.ts';

export const DEFAULT_PROVISIONING_PATH = '/_sandbox/ndfl3/requests';

export interface Ndfl3Config {
  /** Path of the provisioning call when the suite may use it (kind sandbox and configured). */
  provisioningPath?: string;
  pool: string[];
  stateField?: string;
  versionFrom: 'header' | 'body';
  versionField: string;
  machine?: Machine;
}

function machineOf(sourceStates: Record<string, string[]> | undefined): Machine | undefined {
  if (sourceStates === undefined) return undefined;
  const sources = new Map<string, ReadonlySet<State>>(Object.entries(sourceStates).map(([name, states]) => [name, new Set(states)]));
  return new Machine(workflow(), sources);
}

export function ndfl3Config(target: Target): Ndfl3Config {
  const section = ndfl3Section(target);
  const provisioning = section.provisioning;
  const provisioningPath =
    target.kind !== 'sandbox' || !provisioning ? undefined : provisioning === true ? DEFAULT_PROVISIONING_PATH : provisioning;
  return {
    provisioningPath,
    pool: section.requestPool,
    stateField: section.stateField,
    versionFrom: section.versionFrom,
    versionField: section.versionField,
    machine: machineOf(section.sourceStates),
  };
}

/** The configured machine, or a skip saying that the table is missing. */
export function requireMachine(target: Target, config: Ndfl3Config): Machine {
  if (config.machine) return config.machine;
  throw new ToolError(
    'CREDENTIAL_MISSING',
    `the target file ${target.name} has no services.business.ndfl3.sourceStates: spec 3.1 gives no source states, so which (state, operation) pairs must be refused is configuration`,
  );
}

export function requireStateField(target: Target, config: Ndfl3Config): string {
  if (config.stateField) return config.stateField;
  throw new ToolError(
    'CREDENTIAL_MISSING',
    `the target file ${target.name} has no services.business.ndfl3.stateField (where GET request data carries the state; the spec does not name the field)`,
  );
}

/** The value at a dotted path of a JSON body. */
export function valueAt(body: unknown, path: string): unknown {
  let node = body;
  for (const key of path.split('.')) node = isJsonObject(node) ? node[key] : undefined;
  return node;
}
