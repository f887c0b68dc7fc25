/**
 * What the declaration workflow must refuse: every (state, operation) pair the configured table does
 * not allow (configuration: the spec gives no source states), with the business error body (vendor),
 * and calls carrying a stale or no If-Match (vendor). A refused call changes nothing.
 *
 * A state's disallowed calls are first sent one after another on one request, with a single GET at the
 * end; only when that shows a problem is each call repeated on a fresh request with a GET after it,
 * so the failure names the first pair that is wrong and not one that merely followed it.
 */
import { describe } from 'vitest';
import { failure, type Failure } from '../../../harness/checks/failure.ts';
import { ToolError } from '../../../harness/errors.ts';
import { requireMachine } from '../../../harness/business/ndfl3/config.ts';
import { businessErrorBody, isWorkflowRefusal, REFUSAL, refusedUnchanged } from '../../../harness/business/ndfl3/checks.ts';
import { inState, type Goal, type Handle, type RequestSource } from '../../../harness/business/ndfl3/requests.ts';
import { workflow, type State, type WorkflowOperation } from '../../../harness/business/ndfl3/workflow.ts';
import type { CapturedResponse } from '../../../harness/request/http.ts';
import { requirementTest, type RequirementContext } from '../../../harness/test/suite.ts';
import { ndfl3, workflowControl } from '../../../harness/business/ndfl3/client.ts';

const wf = workflow();
// An order in which each state is usually one call away from the previous one (the sandbox's happy path first).
const TOUR = [
  'Preprocess',
  'PartnerGeneratingReportData',
  'PartnerInProgress',
  'Ready',
  'Acknowledge',
  'PendingPayment',
  'PaymentDone',
  'Clarification',
  'Declined',
  'Cancelled',
];
const states = [...TOUR.filter((s) => wf.states.includes(s)), ...wf.states.filter((s) => !TOUR.includes(s))];

/** Sends each call from the handle's state with the version read before; one GET at the end. */
async function quickPass(
  t: RequirementContext,
  h: Handle,
  calls: WorkflowOperation[],
): Promise<{ failures: Failure[]; last?: CapturedResponse }> {
  const { api } = ndfl3(t, 'refusals');
  const before = { state: h.state, version: h.version };
  const failures: Failure[] = [];
  let last: CapturedResponse | undefined;
  for (const op of calls) {
    last = await api.transition(h.id, op, before.version ?? null);
    if (!isWorkflowRefusal(last.status)) {
      failures.push(failure(t.id, `${op.name} from ${before.state} ${REFUSAL}`, `HTTP ${last.status}`));
      break;
    }
  }
  const after = await api.read(h.id, `reading request ${h.id} back after the calls refused from ${before.state}`);
  Object.assign(h, { state: after.state, version: after.version });
  if (after.state !== before.state)
    failures.push(failure(t.id, `the refused calls leave the state ${before.state}`, `state ${after.state ?? '(none)'}`));
  else if (before.version !== undefined && after.version !== before.version)
    failures.push(failure(t.id, `the refused calls leave the version ${before.version}`, `version ${after.version ?? '(none)'}`));
  return { failures, last };
}

/** One call at a time on a fresh request in `state`, read back after each: names the first wrong pair. */
async function carefulPass(
  t: RequirementContext,
  source: RequestSource,
  state: State,
  calls: WorkflowOperation[],
): Promise<{ failures: Failure[]; res?: CapturedResponse }> {
  const { api } = ndfl3(t, 'refusals');
  return source.with(inState(state), async (h) => {
    for (const op of calls) {
      if (h.state !== state) return { failures: [] };
      const { res, before, after } = await api.step(h, op);
      const failures = refusedUnchanged(t.id, `${op.name} from ${state}`, before, res, after);
      if (failures.length) return { failures, res };
    }
    return { failures: [] };
  });
}

describe('3-NDFL workflow: disallowed pairs (configured source states)', () => {
  for (const state of states) {
    requirementTest(
      'NDF-WF-003',
      { row: `from ${state}, every call the table does not allow is refused and changes nothing` },
      async (t) => {
        const { source } = ndfl3(t, 'refusals');
        const machine = requireMachine(t.target, source.api.config);
        const calls = machine.refusedFrom(state, source.usable());
        const gated = machine.refusedFrom(state).filter((op) => !calls.includes(op));
        if (!calls.length) {
          const why = gated.length
            ? `the safety gate refuses the calls that must be refused from ${state} (${gated.map((op) => op.name).join(', ')})`
            : `the configured table allows every call from ${state}`;
          throw new ToolError(gated.length ? 'SAFETY_REFUSED' : 'CREDENTIAL_MISSING', `nothing to check: ${why}`);
        }
        const quick = await source.with(inState(state), (h) => quickPass(t, h, calls));
        if (!quick.failures.length) return void (await workflowControl(t, 'refusals'));
        const careful = await carefulPass(t, source, state, calls);
        const note = `${calls.length} calls from ${state}: ${calls.map((op) => op.name).join(', ')}${gated.length ? `; not sent (safety gate): ${gated.map((op) => op.name).join(', ')}` : ''}`;
        if (careful.failures.length) t.expectNone(careful.failures, careful.res, note);
        t.expectNone(quick.failures, quick.last, `${note} (the one-at-a-time repetition on a fresh request found nothing wrong)`);
      },
    );
  }
});

/** A state from which some usable call is refused. */
function someRefusal(t: RequirementContext): Goal {
  const { source } = ndfl3(t, 'refusals');
  const machine = requireMachine(t.target, source.api.config);
  return { describe: 'a state that refuses some call', accepts: (s) => machine.refusedFrom(s, source.usable()).length > 0 };
}

/** A state with an allowed call X whose target state allows a call Y: the stale-version case needs both. */
function twoStepsAhead(t: RequirementContext): Goal {
  const { source } = ndfl3(t, 'refusals');
  const machine = requireMachine(t.target, source.api.config);
  const usable = source.usable();
  return {
    describe: 'a state with two allowed calls in a row',
    accepts: (s) => machine.allowedFrom(s, usable).some((x) => machine.allowedFrom(x.target, usable).length > 0),
  };
}

describe('3-NDFL workflow: refusals, versions (vendor conventions)', () => {
  requirementTest('NDF-WF-004', async (t) => {
    const { api, source } = ndfl3(t, 'refusals');
    const machine = requireMachine(t.target, api.config);
    await source.with(someRefusal(t), async (h) => {
      const op = machine.refusedFrom(h.state, source.usable())[0];
      const res = await api.transition(h.id, op, h.version ?? null);
      const status = isWorkflowRefusal(res.status) ? [] : [failure(t.id, `${op.name} from ${h.state} ${REFUSAL}`, `HTTP ${res.status}`)];
      t.expectNone([...status, ...businessErrorBody(t.id, res)], res, `${op.name} from ${h.state}`);
    });
    await workflowControl(t, 'refusals');
  });

  requirementTest('NDF-VER-001', async (t) => {
    const { api, source } = ndfl3(t, 'refusals');
    const machine = requireMachine(t.target, api.config);
    await source.with(twoStepsAhead(t), async (h) => {
      const usable = source.usable();
      const x = machine.allowedFrom(h.state, usable).find((op) => machine.allowedFrom(op.target, usable).length > 0)!;
      const stale = h.version;
      const { res: moved, after: now } = await api.step(h, x, stale ?? null);
      if (moved.status < 200 || moved.status > 299 || now.state !== x.target) {
        t.expectNone(
          [
            failure(
              t.id,
              `${x.name} from the configured source state accepted, to make the version stale`,
              `HTTP ${moved.status}, state ${now.state}`,
            ),
          ],
          moved,
        );
      }
      const y = machine.allowedFrom(now.state!, usable)[0];
      for (const [what, version] of [
        ['the version before the last change', stale],
        ['a version the target never issued', `"pc-never-issued-${Date.now().toString(36)}"`],
      ] as const) {
        const { res, before, after } = await api.step(h, y, version ?? null);
        t.expectNone(refusedUnchanged(t.id, `${y.name} from ${before.state} with If-Match = ${what}`, before, res, after, [422]), res);
      }
    });
  });

  requirementTest('NDF-VER-002', async (t) => {
    const { api, source } = ndfl3(t, 'refusals');
    const machine = requireMachine(t.target, api.config);
    const usable = source.usable();
    await source.with(
      { describe: 'a state with an allowed call', accepts: (s) => machine.allowedFrom(s, usable).length > 0 },
      async (h) => {
        const op = machine.allowedFrom(h.state, usable)[0];
        const { res, before, after } = await api.step(h, op, null);
        t.expectNone(
          refusedUnchanged(t.id, `${op.name} from ${before.state} without If-Match`, before, res, after, [400, 412, 422, 428]),
          res,
        );
      },
    );
    await workflowControl(t, 'refusals');
  });
});
