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
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FaultSet } from '../../../faults/types.ts';
import { requestIdOf, sendBusinessError } from '../errors.ts';
import { ifMatchOf, ifMatchProblem, jsonBodyOf, sendJson, type Guard } from './guard.ts';
import { WORKFLOW, type State, type Transition } from './machine.ts';
import type { Ndfl3Store, TaxRequestRecord } from './store.ts';
import { transitionBody } from './validate.ts';

export const WORKFLOW_PREFIX = '/api/private/ndfl3/requests/:taxRequestId/declaration/workflow';

const result = (r: TaxRequestRecord) => ({ taxRequestId: r.taxRequestId, status: r.status, version: r.version });

/** The machine as this sandbox runs it, faults included. */
function sources(t: Transition, faults: FaultSet): State[] {
  if (t.operation === 'payment-done' && faults.has('ndf-payment-done-from-acknowledge')) return [...t.from, 'Acknowledge'];
  if (t.operation === 'cancel' && faults.has('ndf-cancel-after-payment')) return [...t.from, 'PaymentDone'];
  return t.from;
}

function landing(t: Transition, faults: FaultSet): State {
  if (t.operation === 'ready' && faults.has('ndf-ready-lands-in-acknowledge')) return 'Acknowledge';
  if (t.operation === 'decline' && faults.has('ndf-decline-lands-in-cancelled')) return 'Cancelled';
  return t.target;
}

function refuse(request: FastifyRequest, reply: FastifyReply, from: State, t: Transition, faults: FaultSet) {
  const message = `${t.operation} is not allowed from state ${from}`;
  if (faults.has('ndf-refusal-plain-text')) {
    return reply.code(422).header('x-request-id', requestIdOf(request)).type('text/plain; charset=utf-8').send(message);
  }
  return sendBusinessError(request, reply, 422, 'TRANSITION_NOT_ALLOWED', message, { currentState: from, operation: t.operation, targetState: t.target });
}

export function registerWorkflow(app: FastifyInstance, guard: Guard, store: Ndfl3Store, faults: FaultSet): void {
  for (const t of WORKFLOW) {
    app.post(`${WORKFLOW_PREFIX}/${t.operation}`, async (request, reply) => {
      const record = guard.enter(request, reply);
      if (!record) return reply;
      const body = jsonBodyOf(request);
      if (!body.ok) return sendBusinessError(request, reply, 400, 'VALIDATION_ERROR', body.message);
      const broken = transitionBody(body.value);
      if (broken) return sendBusinessError(request, reply, 400, 'VALIDATION_ERROR', `${broken.field} ${broken.message}`, { [broken.field]: broken.message });
      const tooLong = ifMatchProblem(request);
      if (tooLong) return sendBusinessError(request, reply, 400, 'VALIDATION_ERROR', `If-Match ${tooLong}`, { 'If-Match': tooLong });
      const ifMatch = ifMatchOf(request);
      if (ifMatch === undefined && !faults.has('ndf-if-match-optional')) {
        return sendBusinessError(request, reply, 400, 'VALIDATION_ERROR', 'If-Match with the request version is required', { 'If-Match': 'required' });
      }

      if (record.status === t.target) {
        if (faults.has('ndf-repeat-refused')) return refuse(request, reply, record.status, t, faults);
        if (faults.has('ndf-repeat-bumps-version')) store.touch(record);
        return sendJson(request, reply, 200, result(record), record.version);
      }
      if (ifMatch !== undefined && ifMatch !== record.version && !faults.has('ndf-if-match-ignored')) {
        return sendBusinessError(request, reply, 422, 'VERSION_MISMATCH', 'If-Match does not match the current version of the request', { 'If-Match': ifMatch, currentVersion: record.version });
      }
      if (!sources(t, faults).includes(record.status)) {
        const from = record.status;
        if (faults.has('ndf-refused-call-moves-state')) {
          record.status = t.target;
          store.touch(record);
        }
        return refuse(request, reply, from, t, faults);
      }
      const next = landing(t, faults);
      if (t.operation === 'start-work' && faults.has('ndf-state-not-stored')) {
        return sendJson(request, reply, 200, { ...result(record), status: next }, record.version);
      }
      record.status = next;
      store.touch(record);
      return sendJson(request, reply, 200, result(record), record.version);
    });
  }
}
