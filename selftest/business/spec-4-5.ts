/**
 * Spec part 4.5 expanded by hand, independently of specs/catalog/business-operations.yaml, so the
 * catalog's row count and rows can be checked against a second reading. One operation per line,
 * `D` = deprecated (part 9), `R` = removed (2.6 / 4.5), `O` = optional (a document need not describe
 * it: the specification file itself, or a row only one reading gives). How the shorthand was read:
 *   - "..." continues the longest earlier full path of the same bullet that makes the fragment whole;
 *   - "POST and GET X", "POST/GET X", "GET/DELETE X" are one line per method;
 *   - "{a|b|c}" after counterparty/ and workflow/ are alternatives (one line each), not parameters;
 *   - "GET /api/v4/bank-accounts, /api/v3/..., /api/v2/..." and the individual documents list are one
 *     line per path; "the same four under .../demo/" repeats create, info, cancel and commit;
 *   - "(POST; PUT and GET .../issue/{issueRequestId}/certificate-request, /status, /certificate)" is
 *     POST issue, PUT certificate-request, GET status, GET certificate (a PUT of a status or of an
 *     issued certificate would make no sense), and, by the other reading of "PUT and GET", GET
 *     certificate-request too (optional);
 *   - "GET /api/v1/salary/payment-registry/" is taken as written, trailing slash and all;
 *   - "GET receipts/{receiptId}" sits under the taxpayer's receipts of the POST before it.
 * Count by bullet: checkout 4, 3-NDFL 20, nominal accounts 27, direct debits 7, accounts 6,
 * payments 7, self-employed 18, salary 2, invoices 2, cards 7, individual 15, company 11, loyalty 4,
 * other 30: 160 operations, 4 deprecated, 3 removed, 2 optional.
 */
export const SPEC_4_5 = `
POST /api/v2/checkout/order
GET /api/v2/checkout/order/{}/by/{}
POST /api/v1/checkout/order D
GET /api/v1/checkout/order/{}/by/{} D
GET /api/private/ndfl3/requests/{}
GET /api/private/ndfl3/requests/{}/declaration/structure
GET /api/private/ndfl3/requests/{}/declaration
PUT /api/private/ndfl3/requests/{}/declaration
GET /api/private/ndfl3/requests/{}/chat
POST /api/private/ndfl3/requests/{}/chat/send
POST /api/private/ndfl3/requests/{}/declaration/workflow/start-review
POST /api/private/ndfl3/requests/{}/declaration/workflow/start-work
POST /api/private/ndfl3/requests/{}/declaration/workflow/resume-work
POST /api/private/ndfl3/requests/{}/declaration/workflow/ready
POST /api/private/ndfl3/requests/{}/declaration/workflow/decline
POST /api/private/ndfl3/requests/{}/declaration/workflow/cancel
POST /api/private/ndfl3/requests/{}/declaration/workflow/acknowledge
POST /api/private/ndfl3/requests/{}/declaration/workflow/pending-payment
POST /api/private/ndfl3/requests/{}/declaration/workflow/payment-done
POST /api/private/ndfl3/requests/{}/declaration/workflow/clarification
GET /api/v1/ndfl-3/requests/{}/info/form
GET /api/v1/ndfl-3/requests/{}/info/form/attachments/{}
POST /api/v1/ndfl-3/requests/{}/info/document-data
POST /api/v1/ndfl-3/requests/{}/tax-form/upload
GET /api/v1/nominal-accounts/virtual-accounts/transfers
GET /api/v1/nominal-accounts/virtual-accounts/transfers/{}
POST /api/v1/nominal-accounts/virtual-accounts/transfers
GET /api/v1/nominal-accounts/virtual-accounts/holds
POST /api/v1/nominal-accounts/beneficiaries
PUT /api/v1/nominal-accounts/beneficiaries/{}
POST /api/v1/nominal-accounts/beneficiaries/{}/bank-details
POST /api/v1/nominal-accounts/beneficiaries/{}/bank-details/{}
GET /api/v1/nominal-accounts/beneficiaries/{}/bank-details/{}
GET /api/v1/nominal-accounts/beneficiaries/{}/bank-details
DELETE /api/v1/nominal-accounts/beneficiaries/{}/bank-details/{}
POST /api/v1/nominal-accounts/beneficiaries/{}/add-card-requests
GET /api/v1/nominal-accounts/beneficiaries/{}/add-card-requests/{}
GET /api/v1/nominal-accounts/deals
DELETE /api/v1/nominal-accounts/deals/{}
GET /api/v1/nominal-accounts/deals/{}/steps
DELETE /api/v1/nominal-accounts/deals/{}/steps/{}
POST /api/v1/nominal-accounts/deals/{}/steps/{}/recipients
GET /api/v1/nominal-accounts/deals/{}/steps/{}/recipients
GET /api/v1/nominal-accounts/deals/{}/steps/{}/recipients/{}
DELETE /api/v1/nominal-accounts/deals/{}/steps/{}/recipients/{}
GET /api/v1/nominal-accounts/deals/{}/steps/{}/deponents/{}
DELETE /api/v1/nominal-accounts/deals/{}/steps/{}/deponents/{}
POST /api/v1/nominal-accounts/payments
GET /api/v1/nominal-accounts/payments
GET /api/v1/nominal-accounts/payments/{}
GET /api/v1/nominal-accounts/incoming-transactions
GET /api/v2/rules
GET /api/v1/rules D
POST /api/v1/rules
GET /api/v1/rules/{}
PUT /api/v1/rules/{}
GET /api/v1/agreements/url
GET /api/v1/requests
GET /api/v1/statement
GET /api/v1/account-operations
GET /api/v1/bank-statement
GET /api/v4/bank-accounts
GET /api/v3/bank-accounts
GET /api/v2/bank-accounts D
POST /api/v1/payment/create
POST /api/v1/payment/ruble-transfer/pay
POST /api/v1/payment/card-transfer/pay
POST /api/v1/payment/sbp/pay
POST /api/v1/payment/payment-registry/pay
POST /api/v1/payment/status
GET /api/v1/payment/{}
GET /api/v2/self-employed/taxpayers/{}/status
GET /api/v1/self-employed/taxpayers/{}/status
POST /api/v1/self-employed/taxpayers/{}/bind
POST /api/v1/self-employed/taxpayers/{}/receipts
GET /api/v1/self-employed/taxpayers/{}/receipts/{}
POST /api/v1/self-employed/recipients/create
GET /api/v1/self-employed/recipients/create/result
POST /api/v1/self-employed/recipients/list
POST /api/v1/self-employed/payment-registry/create
GET /api/v1/self-employed/payment-registry/create/result
GET /api/v1/self-employed/payment-registry/{}
POST /api/v1/self-employed/payment-registry/submit
GET /api/v1/self-employed/payment-registry/submit/result
POST /api/v1/self-employed/payment-registry/receipts
GET /api/v1/self-employed/payment-registry/receipts/result
POST /api/v1/self-employed/payment-registry/pay
POST /api/v1/self-employed/payment-registry/fiscalize R
GET /api/v1/self-employed/payment-registry/fiscalize/result R
POST /api/v1/salary/payment-registry/create
GET /api/v1/salary/payment-registry/
POST /api/v1/invoice/send
GET /api/v1/openapi/invoice/{}/info
GET /api/v1/card
GET /api/v3/card
GET /api/v1/card/{}
POST /api/v1/card/{}/block
GET /api/v1/card/virtual/{}/requisites
GET /api/v3/card/virtual/issue/application
PUT /api/v3/card/limits/set_batch
GET /api/v1/individual/documents/passport
GET /api/v1/individual/documents/driver-licenses
GET /api/v1/individual/documents/inn
GET /api/v1/individual/documents/snils
GET /api/v1/individual/passport
GET /api/v1/individual/addresses
GET /api/v1/individual/identification/status
GET /api/v1/individual/self-employed/status
GET /api/v1/individual/blacklist/status
GET /api/v1/individual/pdl/status
GET /api/v1/individual/foreignagent/status
GET /api/v1/individual/subscription
POST /api/v1/individual/cobrand/{}
GET /api/v1/individual/detail-counters/{}
POST /api/v1/individual/detail-counters/{}
GET /api/v1/company
GET /api/v1/company/signer/status
GET /api/v1/counterparty/excerpt
GET /api/v1/counterparty/express/excerpt
GET /api/v1/counterparty/licenses
GET /api/v1/counterparty/history
GET /api/v1/counterparty/okved
GET /api/v1/counterparty/contracts
GET /api/v1/counterparty/related_companies
GET /api/v1/counterparty/related_companies_page
GET /api/v1/counterparty/traffic_light
GET /api/v1/loyalty/offers/active
POST /api/v1/loyalty/offers/by-phone
POST /api/v1/loyalty/receipt
POST /api/v1/loyalty/clients/cashback/history
GET /api/v1/special-accounts/arrest-etp
GET /api/v1/tacq/terminals
GET /api/v1/tacq/operations/terminal/{}
POST /api/v1/e-invoice
GET /api/v1/e-invoice/{}/status
POST /api/v1/e-invoice/{}/confirm
POST /api/v1/e-invoice/{}/cancel
POST /api/v1/safe-deal/beneficiaries
GET /api/v1/safe-deal/beneficiaries/result
GET /api/v1/delivery/tasks/{}
PUT /api/v1/delivery/tasks/{}
POST /api/v1/delivery/tasks
POST /api/v1/delivery/tasks/{}/cancel
POST /api/v1/delivery/meetings
POST /api/v1/delivery/intervals
POST /api/v1/cloudcc/applications/{}/contact R
POST /tls/api/v1/qualified-digital-signature/issue
PUT /tls/api/v1/qualified-digital-signature/issue/{}/certificate-request
GET /tls/api/v1/qualified-digital-signature/issue/{}/certificate-request O
GET /tls/api/v1/qualified-digital-signature/issue/{}/status
GET /tls/api/v1/qualified-digital-signature/issue/{}/certificate
POST /api/offline/partners/v1/create
GET /api/offline/partners/v1/orders/{}/info
POST /api/offline/partners/v1/orders/{}/cancel
POST /api/offline/partners/v1/orders/{}/commit
POST /api/offline/partners/v1/demo/create
GET /api/offline/partners/v1/demo/orders/{}/info
POST /api/offline/partners/v1/demo/orders/{}/cancel
POST /api/offline/partners/v1/demo/orders/{}/commit
GET /openapi/docs/openapi.yaml O
`;

export interface SpecOperation {
  key: string;
  status: 'current' | 'deprecated' | 'removed';
  optional: boolean;
}

export function specOperations(): SpecOperation[] {
  return SPEC_4_5.trim()
    .split('\n')
    .map((line) => {
      const [method, path, mark] = line.trim().split(/\s+/);
      return {
        key: `${method} ${path}`,
        status: mark === 'D' ? 'deprecated' : mark === 'R' ? 'removed' : 'current',
        optional: mark === 'O',
      };
    });
}
