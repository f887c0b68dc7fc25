/**
 * Faults of the business runtime: each breaks one requirement of the operations as served, the way a
 * real backend might. `catches` names the requirements whose tests must fail while it is on.
 */
import type { Fault } from '../../../faults/types.ts';

const fault = (id: string, catches: string[], description: string): Fault => ({ id, area: 'business', catches, description });

export const RUNTIME_FAULTS: Fault[] = [
  fault('bus-run-field-wrong-type', ['BUS-RUN-004'], 'GET /api/v1/company answers the company name as a number'),
  fault('bus-run-undocumented-status', ['BUS-RUN-002'], 'GET /api/v1/individual/subscription answers 202, which the document does not list'),
  fault('bus-run-html-400', ['BUS-NEG-001', 'BUS-RUN-003'], 'validation errors are answered 400 with an HTML page instead of the JSON error body'),
  fault('bus-run-500-on-valid', ['BUS-RUN-001'], 'POST /api/v1/invoice/send answers 500 to a valid request'),
  fault('bus-run-valid-rejected', ['BUS-RUN-005'], 'POST /api/v1/delivery/tasks refuses valid requests with 400, asking for an undocumented field'),
  fault('bus-run-wrong-content-type', ['BUS-RUN-003'], 'the cards lists answer JSON text labelled text/plain'),
  fault('bus-run-error-body-shape', ['BUS-RUN-004', 'BUS-ERR-001'], '404 answers carry { message, code } instead of the business error body'),
  fault('bus-run-query-not-validated', ['BUS-NEG-001'], 'query parameters are not validated: a broken one is ignored and the request served'),
  fault('bus-run-body-not-validated', ['BUS-NEG-001'], 'request bodies are parsed but not checked against their schema'),
  fault('bus-run-path-param-crash', ['BUS-NEG-001'], 'a path identifier of the wrong form makes the handler crash with 500'),
  fault('bus-run-missing-token-accepted', ['BUS-AUT-001', 'BUS-AUT-004'], 'the counterparty checks answer without a token'),
  fault('bus-run-any-token-accepted', ['BUS-AUT-002'], 'any bearer token is accepted, known or not'),
  fault('bus-run-scope-ignored', ['BUS-AUT-003'], 'token scopes are not checked: a token without the scope is served'),
  fault('bus-run-no-token-403', ['BUS-AUT-004'], 'a request without a token is answered 403 instead of 401'),
  fault('bus-run-created-not-stored', ['BUS-STA-001'], 'POST /api/v1/rules answers the new rule but does not keep it'),
  fault('bus-run-deleted-readable', ['BUS-STA-002'], 'DELETE answers 204 but the deleted bank details, recipients and deponents stay readable'),
  fault('bus-run-mtls-not-enforced', ['BUS-MTL-003', 'BUS-MTL-004'], 'operations that need a client certificate are served without one'),
  fault('bus-run-mtls-cert-refused', ['BUS-MTL-005'], "the secured operations refuse even the client certificate of the sandbox's own CA"),
  fault('bus-run-cards-need-certificate', ['BUS-MTL-006'], 'the cards list and the single-card read demand a client certificate'),
  fault('bus-run-cards-limit-5000', ['BUS-CRD-001'], 'the cards list accepts limit up to 5000'),
  fault('bus-run-cards-limit-1000-refused', ['BUS-CRD-002'], 'the cards list refuses limit 1000 (an exclusive maximum)'),
  fault('bus-run-cards-default-limit-100', ['BUS-CRD-003'], 'the cards list shows 100 cards when no limit is sent'),
];
