/**
 * Faults of the business runtime: each breaks one requirement of the operations as served, the way a
 * real backend might. `catches` names the requirements whose tests must fail while it is on.
 */
import type { Fault } from '../../../faults/types.ts';

const fault = (id: string, catches: string[], description: string): Fault => ({ id, area: 'business', catches, description });

export const RUNTIME_FAULTS: Fault[] = [
  fault('bus-run-field-wrong-type', ['BUS-RUN-004'], 'GET /api/v1/company answers the company name as a number'),
  fault(
    'bus-run-transfer-off-schema',
    ['BUS-RUN-004'],
    'the ruble transfer answers its 201 with the status as a number: one defect, which the payment and limit rows take as given',
  ),
  fault(
    'bus-run-charset-key-wrong-type',
    ['BUS-RUN-004'],
    'every JSON media key of the document carries its charset (application/json;charset=UTF-8), and GET /api/v1/company answers the company name as a number',
  ),
  fault(
    'bus-run-undocumented-status',
    ['BUS-RUN-002'],
    'GET /api/v1/individual/subscription answers 202, which the document does not list',
  ),
  fault(
    'bus-run-html-400',
    ['BUS-NEG-001', 'BUS-RUN-003', 'BUS-ERR-002', 'BUS-RUN-004'],
    'validation errors are answered 400 with an HTML page instead of the JSON error body',
  ),
  fault('bus-run-500-on-valid', ['BUS-RUN-001'], 'POST /api/v1/invoice/send answers 500 to a valid request'),
  fault('bus-run-intermittent-500', ['BUS-RUN-001'], 'GET /api/v1/company answers every other valid request 500: a retry is served'),
  fault('bus-run-empty-success', ['BUS-RUN-003'], 'GET /api/v1/individual/passport answers 200 with no body and no Content-Type'),
  fault('bus-run-valid-token-refused', ['BUS-RUN-005'], 'GET /api/v1/individual/blacklist/status refuses the valid token with 401'),
  fault(
    'bus-run-identified-without-token',
    ['BUS-AUT-001'],
    'a request without a token to an operation with a path identifier is served (404 for an identifier that does not exist, the resource otherwise)',
  ),
  fault(
    'bus-run-valid-rejected',
    ['BUS-RUN-005', 'BUS-RUN-002'],
    'POST /api/v1/delivery/tasks, a documented method, refuses valid requests with 405 (Allow: GET)',
  ),
  fault('bus-run-wrong-content-type', ['BUS-RUN-003'], 'the cards lists answer JSON text labelled text/plain'),
  fault(
    'bus-run-error-body-shape',
    ['BUS-RUN-004', 'BUS-ERR-001'],
    '404 answers carry { message, code } instead of the business error body',
  ),
  fault(
    'bus-run-query-not-validated',
    ['BUS-NEG-001', 'BUS-CRD-004', 'BUS-RUN-004'],
    'query parameters are not validated: a broken one is ignored and the request served (a cards list filtered by a 19-digit account among them, and a list answering the out-of-range limit it was given)',
  ),
  fault(
    'bus-run-body-not-validated',
    ['BUS-NEG-001', 'BUS-PAY-002', 'BUS-PAY-003', 'BUS-PAY-006', 'BUS-BEN-005', 'BUS-CHK-005', 'BUS-RUN-004'],
    "request bodies are parsed but not checked against their schema, so the rules of 2.6 that the served schema states (uin's pattern, a document number's digits, revenueTypeCode's and DeliveryKind's values, a beneficiary document's number and date) go unchecked too, and an answer that echoes what was sent breaks the served schema; the business rules beyond the schema still hold",
  ),
  fault('bus-run-path-param-crash', ['BUS-NEG-001'], 'a path identifier of the wrong form makes the handler crash with 500'),
  fault('bus-run-missing-token-accepted', ['BUS-AUT-001', 'BUS-AUT-004'], 'the counterparty checks answer without a token'),
  fault('bus-run-any-token-accepted', ['BUS-AUT-002'], 'any bearer token is accepted, known or not'),
  fault('bus-run-scope-ignored', ['BUS-AUT-003'], 'token scopes are not checked: a token without the scope is served'),
  fault(
    'bus-run-no-token-403',
    ['BUS-AUT-004'],
    'a request without a token is answered 403 instead of 401 (a 403 that gives its reason, as the spec asks of a 403)',
  ),
  fault('bus-run-created-not-stored', ['BUS-STA-001'], 'POST /api/v1/rules answers the new rule but does not keep it'),
  fault(
    'bus-run-deleted-readable',
    ['BUS-STA-002'],
    'DELETE answers 204 but the deleted bank details, recipients and deponents stay readable',
  ),
  fault('bus-run-mtls-not-enforced', ['BUS-MTL-003', 'BUS-MTL-004'], 'operations that need a client certificate are served without one'),
  fault(
    'bus-run-mtls-none',
    ['BUS-MTL-002'],
    'no operation needs a client certificate: the document marks none, the target file lists none, and every operation is served without one',
  ),
  fault('bus-run-mtls-cert-refused', ['BUS-MTL-005'], "the secured operations refuse even the client certificate of the sandbox's own CA"),
  fault(
    'bus-run-cards-need-certificate',
    ['BUS-MTL-006'],
    'the cards lists (v1 and v3) and the single-card read demand a client certificate',
  ),
  fault('bus-run-cards-limit-5000', ['BUS-CRD-001'], 'the cards list accepts limit up to 5000'),
  fault('bus-run-cards-limit-1000-refused', ['BUS-CRD-002'], 'the cards list refuses limit 1000 (an exclusive maximum)'),
  fault('bus-run-cards-default-limit-100', ['BUS-CRD-003'], 'the cards list shows 100 cards when no limit is sent'),
  fault(
    'bus-run-applications-unpaged',
    ['BUS-PAG-001'],
    'the virtual card applications list ignores its page size and answers every application',
  ),
];

/** Faults of the business rules of 2.6 and the limits of 8 (issue 9): rules.ts, payments.ts, behaviours.ts. */
export const RULE_FAULTS: Fault[] = [
  fault('bus-rule-uin-loose', ['BUS-PAY-002'], 'uin is accepted as any 1 to 25 letters or digits, not by the pattern of 2.6'),
  fault('bus-rule-uin-cyrillic-refused', ['BUS-PAY-001'], 'a uin with Cyrillic letters is refused (the pattern allows them)'),
  fault('bus-rule-doc-number-7-digits', ['BUS-PAY-003'], 'a document number of 7 digits is accepted'),
  fault('bus-rule-tax-doc-letters-refused', ['BUS-PAY-004'], 'a tax document number of 2 letters and 13 digits is refused'),
  fault('bus-rule-kbk-zero-refused', ['BUS-PAY-005'], 'the budget classification code 0 is refused'),
  fault('bus-rule-revenue-type-any', ['BUS-PAY-006'], "revenueTypeCode accepts any one or two digits, not only '1', '2', '3'"),
  fault('bus-rule-inn-zero-refused', ['BUS-PAY-007'], "the recipient inn '0' of an individual with unknown tax number is refused"),
  fault('bus-rule-tax-corr-optional', ['BUS-PAY-008'], 'a tax payment without recipientCorrAccountNumber is accepted'),
  fault('bus-rule-collection-anyone', ['BUS-PAY-009'], 'collectionAmount is accepted on a payment to a legal entity'),
  fault(
    'bus-pay-duplicate-on-retry',
    ['BUS-PAY-010'],
    'a ruble transfer sent again with the same client payment id creates a second payment',
  ),
  fault(
    'bus-lim-single-inclusive',
    ['BUS-LIM-001'],
    'a ruble transfer of exactly 100 000 rubles is refused (the limit taken as exclusive)',
  ),
  fault(
    'bus-lim-kopecks-ignored',
    ['BUS-LIM-001', 'BUS-LIM-002', 'BUS-LIM-003'],
    'the single, day and month limits compare whole rubles: a single 100 000.01, a day of 100 000.01 and a month of 1 000 000.01 pass',
  ),
  fault('bus-lim-day-not-enforced', ['BUS-LIM-002'], "the day's total of ruble transfers is not limited"),
  fault(
    'bus-lim-day-inclusive',
    ['BUS-LIM-002', 'BUS-LIM-001'],
    "a day's total of exactly 100 000 rubles is refused: so is a single transfer of 100 000 from an account with nothing paid today",
  ),
  fault('bus-lim-month-not-enforced', ['BUS-LIM-003'], "the month's total of ruble transfers is not limited"),
  fault('bus-lim-counterparty-4th-accepted', ['BUS-LIM-004'], 'a fourth ruble transfer to one counterparty in a day is accepted'),
  fault('bus-lim-sbp-commission-rounded', ['BUS-LIM-005'], 'the instant-payment commission rounds 1 percent to whole rubles'),
  fault('bus-lim-sbp-commission-within-free', ['BUS-LIM-005'], 'the instant-payment commission is charged inside the free limit too'),
  fault('bus-ben-passport-no-division', ['BUS-BEN-002'], 'a PASSPORT without division is accepted'),
  fault(
    'bus-ben-migration-card-refused',
    ['BUS-BEN-001'],
    'a beneficiary with a MIGRATION_CARD document is refused, a document type 2.6 names',
  ),
  fault('bus-ben-diplomatic-no-organization', ['BUS-BEN-003'], 'a DIPLOMATIC_PASSPORT without organization is accepted'),
  fault('bus-ben-patent-no-expire', ['BUS-BEN-004'], 'a PATENT without expireDate is accepted'),
  fault('bus-ben-document-date-optional', ['BUS-BEN-005'], 'a beneficiary document without date is accepted'),
  fault('bus-ben-ul-address-not-checked', ['BUS-BEN-006'], 'a legal-entity beneficiary without a LEGAL_ENTITY_ADDRESS is accepted'),
  fault('bus-ben-citizenship-optional', ['BUS-BEN-007'], 'a resident individual or sole proprietor without citizenship is accepted'),
  fault('bus-ben-contact-optional', ['BUS-BEN-008'], 'a beneficiary with neither phoneNumber nor email is accepted'),
  fault('bus-ben-kio-optional', ['BUS-BEN-009'], 'a non-resident legal entity with neither inn nor kio is accepted'),
  fault('bus-ben-birthplace-required', ['BUS-BEN-010'], 'an individual beneficiary without birthPlace is refused'),
  fault(
    'bus-ben-idempotency-ignored',
    ['BUS-BEN-011'],
    'a beneficiary create repeated with the same Idempotency-Key creates a second beneficiary',
  ),
  fault('bus-chk-items-amount-optional', ['BUS-CHK-001'], 'a v2 order with neither itemsAmount nor amount is accepted'),
  fault('bus-chk-weight-optional', ['BUS-CHK-002'], 'items without weight or declaredValue are accepted when delivery services are used'),
  fault(
    'bus-chk-v1-create-200',
    ['BUS-CHK-003', 'BUS-RUN-002'],
    'the v1 order create answers 200 instead of 201, a status the served document does not list for it',
  ),
  fault(
    'bus-chk-v1-total-refused',
    ['BUS-CHK-003'],
    "the v1 order create refuses 422 an order whose amount is its items' total (it wants a delivery fee on top, even without delivery)",
  ),
  fault(
    'bus-chk-read-without-items-amount',
    ['BUS-RUN-004'],
    'the v2 order read leaves out itemsAmount, which its served schema requires (BUS-CHK-004, which takes the schema as given, is inconclusive)',
  ),
  fault(
    'bus-chk-read-items-amount-in-kopecks',
    ['BUS-CHK-004'],
    'the v2 order read answers itemsAmount in kopecks: a number, but not the one sent',
  ),
  fault(
    'bus-chk-read-items-changed',
    ['BUS-CHK-004'],
    'the v2 order read answers the itemsAmount sent, but another quantity of the first item than the order had',
  ),
  fault('bus-chk-russian-post-accepted', ['BUS-CHK-005'], 'the old DeliveryKind value russian_post is still accepted'),
  fault('bus-chk-post-office-refused', ['BUS-CHK-005'], 'the DeliveryKind value post_office is refused at runtime'),
  fault(
    'bus-se-receipt-new',
    ['BUS-SEL-001', 'BUS-SEL-002', 'BUS-RUN-004'],
    'receipts answer the removed status NEW, which the served ReceiptStatus enumeration does not hold',
  ),
  fault(
    'bus-se-error-message-not-string',
    ['BUS-SEL-003'],
    'the errorMessage of a failed receipt operation is an object { text } instead of a string',
  ),
  fault(
    'bus-se-registry-result-lost',
    ['BUS-SEL-004', 'BUS-RUN-005'],
    'the result of a payment-registry create is never found (404), though its correlationId comes from the create of this run',
  ),
  fault('bus-crd-account-22-refused', ['BUS-CRD-004'], 'the cards list refuses an accountNumber of 22 digits'),
  fault(
    'bus-err-malformed-json-text',
    ['BUS-ERR-002', 'BUS-RUN-003', 'BUS-RUN-004'],
    'a body that is not JSON is answered 400 with a text/plain page (where the served document gives the 400 a JSON error body)',
  ),
  fault(
    'bus-err-enum-format',
    ['BUS-ERR-003', 'BUS-RUN-004'],
    'enumeration errors of the nominal-account operations come in a format of their own: { code, message }, where every other error has errorId, errorCode and errorMessage (which the served error schema requires, so BUS-RUN-004 fails too)',
  ),
  fault('bus-err-403-bare', ['BUS-ERR-004'], 'a scope refusal answers 403 "Forbidden" without its reasons'),
  fault(
    'bus-err-403-courtesy',
    ['BUS-ERR-004'],
    'a scope refusal answers 403 "You have no access. Please try again later." with an empty errorDetails: words, but no reason',
  ),
  fault(
    'bus-err-certificate-403-bare',
    ['BUS-ERR-004'],
    'a request without the client certificate is answered 403 "Forbidden" without its reasons (the scope refusals keep theirs)',
  ),
  fault(
    'bus-err-path-400-text',
    ['BUS-ERR-002', 'BUS-RUN-003', 'BUS-RUN-004', 'BUS-NEG-001'],
    'a path identifier of the wrong form is answered 400 with a text/plain body (the body and query refusals stay JSON)',
  ),
  fault(
    'bus-err-enum-extra-field',
    ['BUS-ERR-003'],
    "the checkout create's validation errors carry a field invalidValue that the document does not declare and no other error carries",
  ),
];
