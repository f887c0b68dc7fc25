/**
 * How the 3-NDFL suites reach the target: one Ndfl3Api per worker, and one RequestSource per test
 * file (its share of the request pool, or the sandbox's provisioning). See harness/ndfl3/.
 */
import { Ndfl3Api } from '../../../harness/ndfl3/api.ts';
import { requireStateField } from '../../../harness/ndfl3/config.ts';
import { RequestSource, type PoolUser } from '../../../harness/ndfl3/requests.ts';
import type { WorkflowOperation } from '../../../harness/ndfl3/workflow.ts';
import { assertAllowed } from '../../../harness/safety.ts';
import type { RequirementContext } from '../../../harness/suite.ts';

let api: Ndfl3Api | undefined;
const sources = new Map<PoolUser, RequestSource>();

/**
 * The API and this file's request source; skips when the target file cannot say where the state is,
 * unless the test does not depend on any state.
 */
export function ndfl3(t: RequirementContext, user: PoolUser, options: { stateless?: boolean } = {}): { api: Ndfl3Api; source: RequestSource } {
  api ??= new Ndfl3Api(t.target, t.client);
  if (!options.stateless) requireStateField(t.target, api.config);
  let source = sources.get(user);
  if (!source) sources.set(user, (source = new RequestSource(api, user)));
  return { api, source };
}

/** Skips (before any request is spent) when the safety gate would refuse the workflow call. */
export function gateAllows(t: RequirementContext, op: WorkflowOperation): void {
  assertAllowed(t.target, op.sideEffect, op.operation);
}
