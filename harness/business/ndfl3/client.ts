/**
 * How the 3-NDFL suites reach the target: one Ndfl3Api per target, and one RequestSource per pool
 * user (a test file's share of the request pool, or the sandbox's provisioning). See harness/business/ndfl3/.
 */
import type { CapturedResponse } from '../../request/http.ts';
import { isSuccess } from '../../checks/answer.ts';
import { Ndfl3Api } from './api.ts';
import { requireMachine, requireStateField } from './config.ts';
import { RequestSource, type PoolUser } from './requests.ts';
import type { WorkflowOperation } from './workflow.ts';
import { assertAllowed } from '../../request/safety.ts';
import type { RequirementContext } from '../../test/suite.ts';
import { perScope } from '../../runner/run-scope.ts';

/** Per target: the API, and each pool user's request source. */
const state = perScope((): { api?: Ndfl3Api; sources: Map<PoolUser, RequestSource> } => ({ sources: new Map() }));

/**
 * The API and this file's request source; skips when the target file cannot say where the state is,
 * unless the test does not depend on any state.
 */
export function ndfl3(
  t: RequirementContext,
  user: PoolUser,
  options: { stateless?: boolean } = {},
): { api: Ndfl3Api; source: RequestSource } {
  const { sources } = state();
  const api = (state().api ??= new Ndfl3Api(t.target, t.client));
  if (!options.stateless) requireStateField(t.target, api.config);
  let source = sources.get(user);
  if (!source) sources.set(user, (source = new RequestSource(api, user)));
  return { api, source };
}

/** Skips (before any request is spent) when the safety gate would refuse the workflow call. */
export function gateAllows(t: RequirementContext, op: WorkflowOperation): void {
  assertAllowed(t.target, op.sideEffect, op.operation);
}

/**
 * The control of a workflow refusal: a call the configured table allows, sent from a state that allows
 * it, accepted (2xx) in this run. Made once per worker; a refusal proves nothing when allowed calls are
 * refused too.
 */
export function workflowControl(t: RequirementContext, user: PoolUser): Promise<CapturedResponse> {
  return t.control(
    'ndfl3 an allowed workflow call',
    async () => {
      const { api, source } = ndfl3(t, user);
      const machine = requireMachine(t.target, api.config);
      const usable = source.usable();
      return source.with(
        { describe: 'a state with an allowed call', accepts: (s) => machine.allowedFrom(s, usable).length > 0 },
        async (h) => {
          const op = machine.allowedFrom(h.state, usable)[0];
          return (await api.step(h, op)).res;
        },
      );
    },
    (res) => isSuccess(res.status),
  );
}
