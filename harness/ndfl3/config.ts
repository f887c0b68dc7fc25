/**
 * The 3-NDFL keys of a target file, under services.business.ndfl3 (all optional):
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
 * A malformed value fails the test that reads it, naming the key and the file.
 */
import { ToolError } from '../errors.ts';
import { serviceOf, type Target } from '../target.ts';
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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function invalid(target: Target, key: string, message: string): ToolError {
  return new ToolError('TARGET_FILE_INVALID', `${target.file}: key "services.business.ndfl3.${key}": ${message}`);
}

function tableOf(target: Target, value: unknown): Machine | undefined {
  if (value === undefined) return undefined;
  const wf = workflow();
  if (!isObject(value)) throw invalid(target, 'sourceStates', 'must map each workflow operation to a list of states');
  const sources = new Map<string, ReadonlySet<State>>();
  for (const [name, states] of Object.entries(value)) {
    if (!wf.byName.has(name)) throw invalid(target, `sourceStates.${name}`, `is not a workflow operation of 3.1 (${[...wf.byName.keys()].join(', ')})`);
    if (!Array.isArray(states) || states.some((s) => typeof s !== 'string' || !wf.states.includes(s))) {
      throw invalid(target, `sourceStates.${name}`, `must be a list of states of 3.1 (${wf.states.join(', ')})`);
    }
    sources.set(name, new Set(states as string[]));
  }
  const missing = wf.operations.filter((op) => !sources.has(op.name)).map((op) => op.name);
  if (missing.length) throw invalid(target, 'sourceStates', `names no source states for ${missing.join(', ')} (write [] for an operation allowed from no state)`);
  return new Machine(wf, sources);
}

export function ndfl3Config(target: Target): Ndfl3Config {
  const section = serviceOf(target, 'business').ndfl3;
  const raw = section === undefined ? {} : section;
  if (!isObject(raw)) throw invalid(target, '', 'must be a mapping');
  const pool = raw.requestPool ?? [];
  if (!Array.isArray(pool) || pool.some((id) => typeof id !== 'string' || id === '')) throw invalid(target, 'requestPool', 'must be a list of tax request ids');
  if (raw.stateField !== undefined && (typeof raw.stateField !== 'string' || raw.stateField === '')) throw invalid(target, 'stateField', 'must be a dotted path such as "status"');
  const versionFrom = raw.versionFrom ?? 'header';
  if (versionFrom !== 'header' && versionFrom !== 'body') throw invalid(target, 'versionFrom', 'must be header or body');
  const versionField = raw.versionField ?? 'version';
  if (typeof versionField !== 'string' || versionField === '') throw invalid(target, 'versionField', 'must be a dotted path');
  const provisioning = raw.provisioning;
  if (provisioning !== undefined && typeof provisioning !== 'boolean' && !(typeof provisioning === 'string' && provisioning.startsWith('/'))) {
    throw invalid(target, 'provisioning', 'must be true, false or a path starting with /');
  }
  const provisioningPath = target.kind !== 'sandbox' || !provisioning ? undefined : provisioning === true ? DEFAULT_PROVISIONING_PATH : (provisioning as string);
  return {
    provisioningPath,
    pool: pool as string[],
    stateField: raw.stateField as string | undefined,
    versionFrom,
    versionField,
    machine: tableOf(target, raw.sourceStates),
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
  throw new ToolError('CREDENTIAL_MISSING', `the target file ${target.name} has no services.business.ndfl3.stateField (where GET request data carries the state; the spec does not name the field)`);
}

/** The value at a dotted path of a JSON body. */
export function valueAt(body: unknown, path: string): unknown {
  let node = body;
  for (const key of path.split('.')) node = isObject(node) ? node[key] : undefined;
  return node;
}
