/**
 * Spec 5.5 and 7, vendor facts: 3-NDFL calls need the business bearer token, and a request that does
 * not exist is refused. A workflow call refused for its credentials must change nothing, so it is
 * sent on a real request, from a state that would allow it.
 *
 * Every refusal counts only next to its control: GET request data of a request that exists, with the
 * target file's token, answered 200 with its JSON state in this run. A workflow call the safety gate refuses on this
 * target is skipped (SAFETY_REFUSED) before anything is sent.
 */
import { randomUUID } from 'node:crypto';
import { describe } from 'vitest';
import { refused } from '../../../harness/checks/answer.ts';
import type { Failure } from '../../../harness/checks/failure.ts';
import { statusIn } from '../../../harness/checks/status.ts';
import { ToolError } from '../../../harness/errors.ts';
import type { CapturedResponse } from '../../../harness/request/http.ts';
import { NDFL3 } from '../../../harness/business/ndfl3/api.ts';
import { isJsonAnswer } from '../../../harness/request/media-type.ts';
import { businessErrorBody, refusedUnchanged } from '../../../harness/business/ndfl3/checks.ts';
import { anyState, type Goal } from '../../../harness/business/ndfl3/requests.ts';
import type { WorkflowOperation } from '../../../harness/business/ndfl3/workflow.ts';
import { requirementTest, type RequirementContext } from '../../../harness/test/suite.ts';
import { ndfl3 } from '../../../harness/business/ndfl3/client.ts';

const CREDENTIALS: Array<[string, () => string | null]> = [
  ['without a bearer token', () => null],
  ['with an invalid bearer token', () => `pc-invalid-${randomUUID()}`],
];

/**
 * A call the current state allows (so that serving it would show), or any usable one without a table;
 * SAFETY_REFUSED when the safety gate lets no workflow call through on this target (kind production).
 */
function servableCall(t: RequirementContext, state: string): WorkflowOperation {
  const { source } = ndfl3(t, 'access', { stateless: true });
  const usable = source.usable();
  if (!usable.length)
    throw new ToolError('SAFETY_REFUSED', `the safety gate refuses every 3-NDFL workflow call on target kind ${t.target.kind}`);
  return source.machine?.allowedFrom(state, usable)[0] ?? usable.find((op) => op.target !== state) ?? usable[0];
}

/** The control of every refusal here: GET request data of an existing request with the target file's token, 200. */
async function readControl(t: RequirementContext): Promise<CapturedResponse> {
  const { api, source } = ndfl3(t, 'access', { stateless: true });
  const id = await source.someId();
  return t.control(
    'ndfl3 GET request data',
    () => api.call(NDFL3.request, id),
    (res) => res.status === 200 && isJsonAnswer(res) && (api.config.stateField === undefined || api.stateOf(res) !== undefined),
  );
}

/**
 * A refusal: served (2xx) or a server error fails whatever the control; any other answer is judged only
 * next to the control, for a target that refuses valid requests too says nothing by refusing.
 */
async function expectRefusal(t: RequirementContext, res: CapturedResponse, failures: Failure[], note?: string): Promise<void> {
  if (res.status < 300 || res.status >= 500) t.expectNone(failures, res, note);
  await readControl(t);
  t.expectNone(failures, res, note);
}

function withAllowedCall(t: RequirementContext): Goal {
  const { source } = ndfl3(t, 'access');
  const machine = source.machine;
  return machine
    ? { describe: 'a state with an allowed call', accepts: (s) => machine.allowedFrom(s, source.usable()).length > 0 }
    : anyState;
}

describe('3-NDFL: unknown requests', () => {
  const cases: Array<[string, (t: RequirementContext, id: string) => Promise<CapturedResponse>]> = [
    ['GET request data', (t, id) => ndfl3(t, 'access', { stateless: true }).api.call(NDFL3.request, id)],
    ['GET declaration', (t, id) => ndfl3(t, 'access', { stateless: true }).api.call(NDFL3.declaration, id)],
    ['a workflow call', (t, id) => ndfl3(t, 'access', { stateless: true }).api.transition(id, servableCall(t, ''), '"1"')],
  ];
  for (const [what, send] of cases) {
    requirementTest('NDF-ERR-001', { row: `${what} for a taxRequestId that does not exist is refused` }, async (t) => {
      const res = await send(t, randomUUID());
      await expectRefusal(t, res, refused(res, t.id));
    });
  }

  requirementTest('NDF-ERR-002', async (t) => {
    const op = servableCall(t, '');
    const res = await ndfl3(t, 'access', { stateless: true }).api.transition(randomUUID(), op, '"1"');
    await expectRefusal(
      t,
      res,
      [...statusIn(res, [400], t.id), ...businessErrorBody(t.id, res)],
      `${op.name} for a request that does not exist`,
    );
  });
});

describe('3-NDFL: bearer token', () => {
  for (const [what, token] of CREDENTIALS) {
    requirementTest('NDF-AUT-001', { row: `GET request data ${what} is refused` }, async (t) => {
      const { api, source } = ndfl3(t, 'access', { stateless: true });
      const res = await api.call(NDFL3.request, await source.someId(), { token: token() });
      await expectRefusal(t, res, refused(res, t.id));
    });

    requirementTest('NDF-AUT-001', { row: `a workflow call ${what} is refused and changes nothing` }, async (t) => {
      servableCall(t, '');
      const { api, source } = ndfl3(t, 'access');
      await source.with(withAllowedCall(t), async (h) => {
        const op = servableCall(t, h.state);
        const { res, before, after } = await api.step(h, op, h.version ?? null, { token: token() });
        await expectRefusal(t, res, refusedUnchanged(t.id, `${op.name} from ${before.state} ${what}`, before, res, after, 'any'));
      });
    });

    requirementTest('NDF-AUT-002', { row: `GET request data ${what} answers 401 with the business error body` }, async (t) => {
      const { api, source } = ndfl3(t, 'access', { stateless: true });
      const res = await api.call(NDFL3.request, await source.someId(), { token: token() });
      await expectRefusal(t, res, [...statusIn(res, [401], t.id), ...(res.status === 401 ? businessErrorBody(t.id, res) : [])]);
    });
  }
});
