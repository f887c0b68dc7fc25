/**
 * Spec 3.1: each workflow operation lands in exactly its target state, and repeating it there changes
 * nothing. The operations run in an order where each one's usual source state is where the previous
 * one left the request, so one request travels through most of the machine; each test still starts
 * from the request's state as read with GET, and walks there along the configured table if needed.
 */
import { describe } from 'vitest';
import { ToolError } from '../../../harness/errors.ts';
import { isWorkflowRefusal, landedIn, repeatChangesNothing } from '../../../harness/business/ndfl3/checks.ts';
import { anyState, inState, type Goal } from '../../../harness/business/ndfl3/requests.ts';
import { workflow, type WorkflowOperation } from '../../../harness/business/ndfl3/workflow.ts';
import { requirementTest, type RequirementContext } from '../../../harness/test/suite.ts';
import { gateAllows, ndfl3 } from '../../../harness/business/ndfl3/client.ts';

const TOUR = [
  'start-work',
  'resume-work',
  'ready',
  'acknowledge',
  'pending-payment',
  'payment-done',
  'clarification',
  'start-review',
  'decline',
  'cancel',
];
const wf = workflow();
const ordered = [...TOUR.map((name) => wf.byName.get(name)!), ...wf.operations.filter((op) => !TOUR.includes(op.name))];

function allowedSource(t: RequirementContext, op: WorkflowOperation): Goal {
  const machine = ndfl3(t, 'transitions').api.config.machine;
  if (!machine) return anyState;
  const from = wf.states.filter((s) => machine.expectation(s, op) === 'allowed');
  if (!from.length)
    throw new ToolError(
      'CREDENTIAL_MISSING',
      `services.business.ndfl3.sourceStates allows ${op.name} from no state, so there is nothing to call it from`,
    );
  return { describe: `a state ${op.name} is allowed from (${from.join(', ')})`, accepts: (s) => from.includes(s) };
}

describe('3-NDFL workflow: target states (3.1)', () => {
  for (const op of ordered) {
    requirementTest('NDF-WF-001', { row: `${op.name} from an allowed state lands in ${op.target}` }, async (t) => {
      gateAllows(t, op);
      const { api, source } = ndfl3(t, 'transitions');
      await source.with(allowedSource(t, op), async (h) => {
        const from = h.state;
        const { res, after } = await api.step(h, op);
        if (!api.config.machine && isWorkflowRefusal(res.status)) {
          throw new ToolError(
            'CREDENTIAL_MISSING',
            `without services.business.ndfl3.sourceStates the suite can only try ${op.name} from the state a request is in, and ${from} refused it (HTTP ${res.status})`,
          );
        }
        t.expectNone(landedIn(t.id, op, from, res, after), res, `request ${h.id}, ${op.name} from ${from}`);
      });
    });

    requirementTest('NDF-WF-002', { row: `${op.name} repeated in ${op.target} answers 200 and changes nothing` }, async (t) => {
      gateAllows(t, op);
      const { api, source } = ndfl3(t, 'transitions');
      await source.with(inState(op.target), async (h) => {
        const { res, before, after } = await api.step(h, op);
        t.expectNone(repeatChangesNothing(t.id, op, before, res, after), res, `request ${h.id} in ${before.state}`);
      });
    });
  }
});
