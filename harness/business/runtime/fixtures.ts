/**
 * The target file's own test data for an operation: services.business.fixtures names sets per
 * operation (one parameter name can mean different things: the beneficiaryId of a beneficiary and of a
 * deal step's deponent), services.business.identifiers one value per name for every other operation.
 *
 * A destructive operation gets only a set the target file marks disposable, each set at most once per
 * run across the run's workers, and only after a read shows that it still exists (an earlier run
 * against the same target may have destroyed it): deleting anything else is not the suite's business.
 * Any other operation gets only sets that are not disposable, which no destructive call can remove
 * under it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { businessConfig, type IdentifierSet } from '../config.ts';
import { isJsonObject } from '../../text/json.ts';
import { operationKey, parseOperationName } from '../openapi/paths.ts';
import { currentScope, ScopedMap } from '../../runner/run-scope.ts';
import { removeOldRunFiles, runFile } from '../../runner/run-files.ts';
import { served } from './judge.ts';
import { commonPrefix, pathParams } from './links.ts';
import { validRequests, type OperationPlan, type RuntimePlan } from './plan.ts';
import { sendOperation } from './send.ts';

interface Fixture {
  sets: IdentifierSet[];
  disposable: boolean;
}

function fixtureOf(p: RuntimePlan, op: OperationPlan): Fixture | undefined {
  const key = operationKey(op.catalog.method, op.catalog.path);
  for (const [name, fixture] of Object.entries(businessConfig(p.run.target).fixtures ?? {})) {
    const { method, path } = parseOperationName(name);
    if (operationKey(method, path) !== key) continue;
    return {
      sets: Array.isArray(fixture.identifiers) ? fixture.identifiers : [fixture.identifiers],
      disposable: fixture.disposable === true,
    };
  }
  return undefined;
}

/**
 * The value the target file names for a parameter of an operation that destroys nothing: the first set
 * of its own fixture unless that is disposable, else services.business.identifiers.
 */
export function namedValue(p: RuntimePlan, op: OperationPlan, name: string): unknown {
  if (op.catalog.sideEffect === 'destructive') return undefined;
  const own = fixtureOf(p, op);
  if (own && !own.disposable && own.sets[0][name] !== undefined) return own.sets[0][name];
  const identifiers = businessConfig(p.run.target).identifiers;
  return isJsonObject(identifiers) ? identifiers[name] : undefined;
}

const claimedHere = new Set<string>();

/** Whether this worker is the first of the run to take `what`: one file per claim, created exclusively. */
function claim(thing: string): boolean {
  // A batch run's variants are separate targets, each with its own fixtures.
  const variant = currentScope().variant;
  const what = variant ? `${variant} ${thing}` : thing;
  if (claimedHere.has(what)) return false;
  claimedHere.add(what);
  const folder = runFile('fixtures');
  if (!folder) return true;
  if (claimedHere.size === 1) removeOldRunFiles('fixtures');
  mkdirSync(folder, { recursive: true });
  try {
    writeFileSync(join(folder, createHash('sha256').update(what).digest('hex').slice(0, 32)), what, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * The read that tells whether a set still exists: a GET that takes every path identifier of the
 * operation and no other the set lacks, the one sharing the longest path with it (the card read for a
 * card block, the deponent read for its delete, a deal's steps for the deal).
 */
function existenceRead(p: RuntimePlan, op: OperationPlan, set: IdentifierSet): OperationPlan | undefined {
  const own = pathParams(op);
  return p.operations
    .filter(
      (r) =>
        r.model.method === 'GET' &&
        r.catalog.sideEffect === 'read' &&
        own.every((n) => pathParams(r).includes(n)) &&
        pathParams(r).every((n) => set[n] !== undefined),
    )
    .sort((a, b) => commonPrefix(b.model.path, op.model.path) - commonPrefix(a.model.path, op.model.path))[0];
}

/** 'gone' only when the read answers 404 or 410; an answer that is neither that nor the read's success proves nothing either way. */
async function stillThere(p: RuntimePlan, op: OperationPlan, set: IdentifierSet): Promise<boolean> {
  const read = existenceRead(p, op, set);
  if (!read) return true;
  const [generated] = validRequests(p, read, read.seed, 1);
  const path = Object.fromEntries(pathParams(read).map((n) => [n, set[n]]));
  const { response } = await sendOperation(
    p,
    read,
    { ...generated, path: { ...generated.path, ...path } },
    'valid',
    `whether the disposable fixture ${JSON.stringify(set)} of ${op.row} still exists`,
  );
  if (served(p, read, response)) return true;
  return response === undefined || (response.status !== 404 && response.status !== 410);
}

export interface Disposable {
  set?: IdentifierSet;
  /** Why there is none, for an inconclusive verdict. */
  why: string;
}

const shortOf = new ScopedMap<string, string>();

/** Why a destructive operation went without a disposable set in this worker, if it did (for its inconclusive verdicts). */
export function disposableShortage(op: OperationPlan): string | undefined {
  return shortOf.get(op.row);
}

/** A disposable set of the target file for a destructive operation, taken for this run, that a read shows still exists. */
export async function disposableSet(p: RuntimePlan, op: OperationPlan): Promise<Disposable> {
  const out = await takeDisposable(p, op);
  if (!out.set) shortOf.set(op.row, out.why);
  return out;
}

async function takeDisposable(p: RuntimePlan, op: OperationPlan): Promise<Disposable> {
  const fixture = fixtureOf(p, op);
  const where = `services.business.fixtures["${op.row}"]`;
  if (!fixture) return { why: `the target file names nothing ${op.row} may destroy (${where})` };
  if (!fixture.disposable) return { why: `${where} is not marked disposable, so ${op.row} never acts on it` };
  let gone = 0;
  for (const set of fixture.sets) {
    if (!claim(`${op.row} ${JSON.stringify(set)}`)) continue;
    if (await stillThere(p, op, set)) return { set, why: '' };
    gone++;
  }
  return {
    why: `every disposable set of ${where} is taken by this run${gone ? ` or gone (${gone} no longer exist: an earlier run destroyed them)` : ''}; name fresh ones`,
  };
}
