/**
 * POST /api/private/ndfl3/requests/{taxRequestId}/declaration/workflow/<operation> (spec 3.1), one
 * route per operation. After the guard, in this order:
 *   400  a body that is not a JSON object with an optional comment; no If-Match, or one over 50 characters
 *   200  the request is already in the operation's target state: nothing changes (a retry whose
 *        first answer was lost succeeds, whatever version it carries)
 *   422  VERSION_MISMATCH when If-Match is not the current version
 *   422  TRANSITION_NOT_ALLOWED when the current state is not one of the operation's source states
 *   200  { taxRequestId, status, version } in the target state, the new version in ETag
 */
import { businessError } from '../errors.ts';
import { checkedBody, ifMatchOf, invalid, json, type Guard } from './guard.ts';
import { WORKFLOW, type State, type Transition } from './machine.ts';
import type { Ndfl3Answer, Ndfl3Request, Ndfl3RouteSpec, Ndfl3Rules } from './rules.ts';
import type { Ndfl3Store, TaxRequestRecord } from './store.ts';
import { transitionBody } from './validate.ts';

export const WORKFLOW_PREFIX = '/api/private/ndfl3/requests/:taxRequestId/declaration/workflow';

const result = (r: TaxRequestRecord) => ({ taxRequestId: r.taxRequestId, status: r.status, version: r.version });

/** TRANSITION_NOT_ALLOWED, named by the rule that refused the call. */
function refused(rule: string, from: State, t: Transition): Ndfl3Answer {
  const answer = businessError(422, 'TRANSITION_NOT_ALLOWED', `${t.operation} is not allowed from state ${from}`, {
    currentState: from,
    operation: t.operation,
    targetState: t.target,
  });
  return { ...answer, refusedBy: rule };
}

/** The handler of one workflow call. */
function workflowHandler(t: Transition, guard: Guard, store: Ndfl3Store, checks: Ndfl3Rules) {
  return (request: Ndfl3Request): Ndfl3Answer => {
    const entered = guard.enter(request);
    if ('answer' in entered) return entered.answer;
    const { record } = entered;
    const body = checkedBody(request, transitionBody, true);
    if ('answer' in body) return body.answer;
    const ifMatch = ifMatchOf(request);
    if (!checks['ifMatch.present'](ifMatch))
      return { ...invalid('If-Match with the request version is required', { 'If-Match': 'required' }), refusedBy: 'ifMatch.present' };

    if (record.status === t.target) {
      if (!checks['repeat.answered'](t, record, store)) return refused('repeat.answered', record.status, t);
      return json(200, result(record), record.version);
    }
    if (ifMatch !== undefined && !checks['version.matches'](ifMatch, record)) {
      return {
        ...businessError(422, 'VERSION_MISMATCH', 'If-Match does not match the current version of the request', {
          'If-Match': ifMatch,
          currentVersion: record.version,
        }),
        refusedBy: 'version.matches',
      };
    }
    const from = record.status;
    if (!checks['transition.allowed'](t, record, store)) return refused('transition.allowed', from, t);
    const next = checks['transition.target'](t);
    checks['transition.store'](t, record, next, store);
    // The state the call moved to, with the request's version (new once the state is kept).
    return json(200, { ...result(record), status: next }, record.version);
  };
}

/** The routes of the workflow: one per call of machine.ts. */
export function workflowRoutes(guard: Guard, store: Ndfl3Store, checks: Ndfl3Rules): Ndfl3RouteSpec[] {
  return WORKFLOW.map((t) => ({
    method: 'POST',
    path: `${WORKFLOW_PREFIX}/${t.operation}`,
    route: 'workflow',
    handle: workflowHandler(t, guard, store, checks),
  }));
}
