/**
 * Requests of the generic runtime suites (create-then-read, delete-then-read) that must be accepted to
 * be useful: for the operations whose business rules of 2.6 this project knows, a generated request is
 * replaced by one that meets them (a beneficiary of some type, a checkout order, a small payment from a
 * fresh payer account). Any other operation's request, or one the builders cannot fit, is left as it is.
 */
import { isSkip } from '../../errors.ts';
import type { GeneratedRequest } from './request.ts';
import { BENEFICIARY_CREATE, beneficiary } from '../rules/beneficiaries.ts';
import { order } from '../rules/checkout.ts';
import { PAYMENT_DRAFT, RUBLE_TRANSFER, payment } from '../rules/payments.ts';
import type { OperationPlan } from './plan.ts';
import { PAYER_ROLES, payerAccount } from '../rules/rules.ts';

const TYPES = ['UL_RESIDENT', 'FL_RESIDENT', 'UL_NONRESIDENT', 'IP_RESIDENT'];

export function meetingRules(op: OperationPlan, request: GeneratedRequest, index: number): GeneratedRequest {
  try {
    if (op.row === BENEFICIARY_CREATE) return { ...request, body: beneficiary(TYPES[index % TYPES.length]) };
    if (op.row === 'POST /api/v2/checkout/order') return order(op, `fitted order ${index}`);
    if (op.row === PAYMENT_DRAFT || op.row === RUBLE_TRANSFER)
      return payment(op, { payer: payerAccount(PAYER_ROLES.other), amount: 10, purpose: `fitted payment ${index}` });
  } catch (error) {
    if (!isSkip(error)) throw error;
  }
  return request;
}
