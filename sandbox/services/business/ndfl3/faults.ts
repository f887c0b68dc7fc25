/**
 * Faults of the 3-NDFL part: each breaks one rule the way a real backend might, and names the
 * requirements whose tests must fail while it is on: the 3-NDFL rows, and the rows every business
 * operation is held to that the same defect breaks (an answer off the served schema, BUS-RUN-004; an
 * undocumented 415 to a valid request, BUS-RUN-002 and 005; a call without a token served, BUS-AUT-001).
 */
import type { Fault } from '../../../faults/types.ts';

const f = (id: string, catches: string[], description: string): Fault => ({ id, area: 'business', catches, description });

export const ndfl3Faults: Fault[] = [
  f('ndf-ready-lands-in-acknowledge', ['NDF-WF-001'], 'workflow/ready moves the request to Acknowledge instead of Ready'),
  f('ndf-decline-lands-in-cancelled', ['NDF-WF-001', 'NDF-WF-005'], 'workflow/decline moves the request to Cancelled instead of Declined'),
  f(
    'ndf-state-not-stored',
    ['NDF-WF-001', 'NDF-WF-005'],
    'workflow/start-work answers 200 with the new state, but the request keeps its old state',
  ),
  f('ndf-payment-done-from-acknowledge', ['NDF-WF-003'], 'workflow/payment-done is also allowed from Acknowledge, which the table forbids'),
  f('ndf-cancel-after-payment', ['NDF-WF-003'], 'workflow/cancel is also allowed from PaymentDone, which the table forbids'),
  f(
    'ndf-refused-call-moves-state',
    ['NDF-WF-003', 'NDF-WF-005'],
    'a call not allowed from the current state answers 422 but moves the request to its target state anyway',
  ),
  f('ndf-repeat-bumps-version', ['NDF-WF-002'], 'repeating a call in its target state answers 200 but gives the request a new version'),
  f('ndf-repeat-refused', ['NDF-WF-002'], 'repeating a call in its target state is refused with 422 instead of answering 200'),
  f(
    'ndf-refusal-plain-text',
    ['NDF-WF-004'],
    'a call not allowed from the current state is refused with a text/plain body instead of the business error body',
  ),
  f('ndf-if-match-ignored', ['NDF-VER-001'], 'a stale If-Match is not compared with the version: the transition goes through'),
  f('ndf-if-match-optional', ['NDF-VER-002'], 'a transition without If-Match goes through'),
  f(
    'ndf-state-outside-table',
    ['NDF-REQ-001', 'NDF-RSP-001', 'BUS-RUN-004'],
    'the request data reports a state 3.1 does not name (InReview) while the request is in Preprocess',
  ),
  f('ndf-structure-without-sections', ['NDF-RSP-001', 'BUS-RUN-004'], 'the questionnaire structure lacks its required sections list'),
  f(
    'ndf-declaration-not-stored',
    ['NDF-DEC-001'],
    'PUT declaration answers 200 with the edit, but the declaration keeps its earlier answers',
  ),
  f('ndf-declaration-first-answer-only', ['NDF-DEC-001'], 'PUT declaration stores only the first of the answers sent'),
  f('ndf-chat-message-lost', ['NDF-CHT-001'], 'chat/send answers 200, but the message never appears in the chat'),
  f('ndf-attachment-not-found', ['NDF-FRM-001', 'NDF-RSP-001'], 'the attachments the form lists answer 404'),
  f(
    'ndf-document-data-rejected',
    ['NDF-UPL-001', 'BUS-RUN-002', 'BUS-RUN-005'],
    'valid document data is refused with 415, as if JSON, its documented media type, were not accepted',
  ),
  f('ndf-upload-500', ['NDF-UPL-002'], 'the tax-form upload fails with 500'),
  f('ndf-unknown-request-500', ['NDF-ERR-001', 'NDF-ERR-002'], 'an unknown taxRequestId crashes the handler (500)'),
  f('ndf-unknown-request-404', ['NDF-ERR-002'], "an unknown taxRequestId is answered 404 instead of the vendor's 400"),
  f('ndf-no-auth', ['NDF-AUT-001', 'NDF-AUT-002', 'BUS-AUT-001'], '3-NDFL calls without a bearer token are served'),
  f('ndf-bad-token-403', ['NDF-AUT-002'], 'an invalid bearer token is answered 403 instead of 401'),
];
