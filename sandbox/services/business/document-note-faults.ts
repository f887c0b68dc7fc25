/**
 * One document fault per fact of the business document that no other fault breaks: each is a single
 * careless edit of the served document (a field dropped, an optional field made required, a type
 * changed, an enum value dropped or brought back, a deprecation lost, a limit loosened), named after
 * the requirement it must break. The table is data: `edit` says what to do, `at` where, in this
 * sandbox's own document. An edit that finds nothing to change throws, so a fault can never silently
 * do nothing.
 */
import {
  add,
  addValue,
  all,
  at,
  drop,
  dropParam,
  dropValue,
  operation,
  param,
  properties,
  require,
  retype,
  schema,
  undeprecate,
  unrequire,
  type DocumentFault,
  type Edit,
  type Node,
} from './document-edits.ts';

const V2_ORDER = 'CheckoutOrderCreateV2';
const ORDER = 'CheckoutOrderV3';
const STATEMENT_OP = 'StatementOperation';

/** A field 2.6 says does not exist in v2, one level down in a `redirects` object of the schema. */
const nestedSuccessUrl =
  (name: string): Edit =>
  (doc) => {
    const props = properties(doc, name);
    if ('redirects' in props) throw new Error(`document fault: ${name} already has redirects`);
    props.redirects = { type: 'object', properties: { successUrl: { type: 'string', format: 'uri', maxLength: 2048 } } };
  };

/**
 * Each row: the requirement of the note, the fault's id tail, what the fault does, its edit, and where
 * the edit breaks more than the note (the service still answers as its own document says, which the
 * edited document no longer allows), the requirements it breaks besides.
 */
const TABLE: Array<[string, string, string, Edit, string[]?]> = [
  [
    'BUS-CHG-001',
    'force-redirect-required',
    'isForceRedirect of the v2 checkout order request is required',
    require(V2_ORDER, 'isForceRedirect'),
  ],
  ['BUS-CHG-003', 'items-amount-dropped', 'the v2 checkout order request has no itemsAmount', drop(V2_ORDER, 'itemsAmount')],
  ['BUS-CHG-004', 'item-price-required', 'the price of a v2 checkout order item is required', require('CheckoutItemV2', 'price')],
  [
    'BUS-CHG-005',
    'payment-type-dropped',
    'the delivery-payment options carry no paymentType',
    drop('DeliveryPaymentOption', 'paymentType'),
  ],
  [
    'BUS-CHG-006',
    'success-page-required',
    'successPageUrl of the v2 checkout order request is required',
    require(V2_ORDER, 'successPageUrl'),
  ],
  [
    'BUS-CHG-007',
    'cart-page-required',
    'shoppingCartPageUrl of the v2 checkout order request is required',
    require(V2_ORDER, 'shoppingCartPageUrl'),
  ],
  ['BUS-CHG-008', 'discount-required', 'discountInfo of the v2 checkout order request is required', require(V2_ORDER, 'discountInfo')],
  [
    'BUS-CHG-009',
    'metaship-shop-required',
    'metashipShopId of the shipping parameters is required',
    require('ShippingParametersInV2', 'metashipShopId'),
  ],
  [
    'BUS-CHG-010',
    'metaship-warehouse-dropped',
    'the shipping parameters have no metashipWarehouseId',
    drop('ShippingParametersInV2', 'metashipWarehouseId'),
  ],
  ['BUS-CHG-011', 'shipping-types-required', 'types of the shipping parameters is required', require('ShippingParametersInV2', 'types')],
  ['BUS-CHG-012', 'weight-dropped', 'the v2 checkout order items have no weight', drop('CheckoutItemV2', 'weight')],
  ['BUS-CHG-013', 'declared-value-dropped', 'the v2 checkout order items have no declaredValue', drop('CheckoutItemV2', 'declaredValue')],
  [
    'BUS-CHG-015',
    'order-amount-not-deprecated',
    'amount of the v2 checkout order response is no longer deprecated',
    (doc) => void delete at(properties(doc, ORDER), 'amount').deprecated,
  ],
  ['BUS-CHG-016', 'paid-amount-required', 'paidAmount of the v2 checkout order response is required', require(ORDER, 'paidAmount')],
  [
    'BUS-CHG-017',
    'statuses-not-a-list',
    'statuses of the v2 checkout order response is a string',
    retype(ORDER, 'statuses', { type: 'string', maxLength: 64 }),
    ['BUS-RUN-004'],
  ],
  ['BUS-CHG-018', 'order-force-redirect-dropped', 'the v2 checkout order response has no isForceRedirect', drop(ORDER, 'isForceRedirect')],
  ['BUS-CHG-021', 'success-url-back', 'the v2 checkout order request has successUrl again', add(V2_ORDER, 'successUrl')],
  [
    'BUS-CHG-021',
    'nested-success-url',
    'the v2 checkout order request has redirects.successUrl, one level down',
    nestedSuccessUrl(V2_ORDER),
  ],
  ['BUS-CHG-022', 'fail-url-back', 'the v2 checkout order request has failUrl again', add(V2_ORDER, 'failUrl')],
  ['BUS-CHG-023', 'icon-url-back', 'the v2 checkout order request has iconUrl again', add(V2_ORDER, 'iconUrl')],
  [
    'BUS-CHG-024',
    'delivery-point-back',
    'the v2 checkout order request has deliveryPointNumber again',
    add(V2_ORDER, 'deliveryPointNumber'),
  ],
  [
    'BUS-CHG-025',
    'delivery-service-code-back',
    'the v2 checkout order request has deliveryServiceCode again',
    add(V2_ORDER, 'deliveryServiceCode'),
  ],
  ['BUS-CHG-026', 'order-notification-url-back', 'the v2 checkout order response has notificationUrl again', add(ORDER, 'notificationUrl')],
  ['BUS-CHG-027', 'order-success-url-back', 'the v2 checkout order response has successUrl again', add(ORDER, 'successUrl')],
  [
    'BUS-CHG-027',
    'order-nested-success-url',
    'the v2 checkout order response has redirects.successUrl, one level down',
    nestedSuccessUrl(ORDER),
  ],
  ['BUS-CHG-028', 'order-fail-url-back', 'the v2 checkout order response has failUrl again', add(ORDER, 'failUrl')],
  ['BUS-CHG-029', 'order-icon-url-back', 'the v2 checkout order response has iconUrl again', add(ORDER, 'iconUrl')],
  [
    'BUS-CHG-030',
    'order-delivery-point-back',
    'the delivery of the v2 checkout order has deliveryPointNumber again',
    add('Delivery', 'deliveryPointNumber'),
  ],
  [
    'BUS-CHG-031',
    'order-delivery-service-code-back',
    'the delivery of the v2 checkout order has deliveryServiceCode again',
    add('Delivery', 'deliveryServiceCode'),
  ],
  [
    'BUS-CHG-032',
    'offset-operation-date-back',
    'the statement has offsetOperationDate again',
    add('Statement', 'offsetOperationDate', { type: 'string', format: 'date-time' }),
  ],
  [
    'BUS-CHG-033',
    'last-operation-date-back',
    'the statement has lastOperationDate again',
    add('Statement', 'lastOperationDate', { type: 'string', format: 'date-time' }),
  ],
  [
    'BUS-CHG-034',
    'cursor-required',
    'the statement cursor is a required parameter',
    param('/api/v1/statement', 'get', 'cursor', (p) => void (p.required = true)),
  ],
  ['BUS-CHG-035', 'next-cursor-required', 'nextCursor of the statement is required', require('Statement', 'nextCursor')],
  ['BUS-CHG-036', 'account-status-dropped', 'v4 accounts have no status', drop('AccountInfoV4', 'status')],
  ['BUS-CHG-037', 'tariff-code-dropped', 'v4 accounts have no tariffCode', drop('AccountInfoV4', 'tariffCode')],
  ['BUS-CHG-038', 'main-flag-dropped', 'v4 accounts have no mainFlag', drop('AccountInfoV4', 'mainFlag')],
  ['BUS-CHG-039', 'real-otb-dropped', 'the balance of v4 accounts has no realOtb', drop('AccountBalanceV4', 'realOtb')],
  ['BUS-CHG-041', 'bank-details-kpp-required', 'kpp of nominal-account bank details is required', require('BankDetailsCreate', 'kpp')],
  ['BUS-CHG-042', 'hold-deal-required', 'dealId of a hold is required', require('Hold', 'dealId')],
  ['BUS-CHG-043', 'document-type-visa-dropped', 'a beneficiary document cannot be a VISA', dropValue('BeneficiaryDocumentType', 'VISA')],
  [
    'BUS-CHG-044',
    'document-number-optional',
    'the number of a beneficiary document is optional',
    unrequire('BeneficiaryDocument', 'number'),
  ],
  ['BUS-CHG-045', 'ul-nonresident-dropped', 'a beneficiary cannot be UL_NONRESIDENT', dropValue('BeneficiaryType', 'UL_NONRESIDENT')],
  ['BUS-CHG-047', 'revenue-type-4', 'revenueTypeCode also takes "4"', addValue('RevenueTypeCode', '4')],
  [
    'BUS-CHG-048',
    'collection-amount-string',
    'collectionAmount of a payment is a string',
    retype('PaymentDraftCreate', 'collectionAmount', { type: 'string', pattern: '^\\d+(\\.\\d{1,2})?$' }),
  ],
  [
    'BUS-CHG-049',
    'corr-account-required',
    'recipientCorrAccountNumber of a payment is required',
    require('PaymentDraftCreate', 'recipientCorrAccountNumber'),
  ],
  [
    'BUS-CHG-051',
    'registration-offline-dropped',
    'a receipt operation cannot be REGISTRATION_OFFLINE',
    dropValue('ReceiptOperation', 'REGISTRATION_OFFLINE', 'type'),
  ],
  [
    'BUS-CHG-052',
    'permissions-mgmt-dropped',
    'taxpayer permissions have no PERMISSIONS_MGMT',
    dropValue('TaxpayerPermission', 'PERMISSIONS_MGMT'),
  ],
  [
    'BUS-CHG-053',
    'company-account-dropped',
    'the self-employed registry create request has no companyAccountNumber',
    drop('SelfEmployedPaymentRegistryCreate', 'companyAccountNumber'),
  ],
  [
    'BUS-CHG-054',
    'tax-holding-dropped',
    'the self-employed registry create request has no taxHolding',
    drop('SelfEmployedPaymentRegistryCreate', 'taxHolding'),
  ],
  [
    'BUS-CHG-055',
    'registry-create-type-dropped',
    'the self-employed registry create request has no registryCreateType',
    drop('SelfEmployedPaymentRegistryCreate', 'registryCreateType'),
  ],
  [
    'BUS-CHG-056',
    'income-type-dropped',
    'the self-employed registry create request has no incomeType',
    drop('SelfEmployedPaymentRegistryCreate', 'incomeType'),
  ],
  ['BUS-CHG-057', 'invoice-account-required', 'accountNumber of an invoice is required', require('InvoiceSend', 'accountNumber')],
  ['BUS-CHG-058', 'invoice-payer-required', 'the payer of an invoice is required', require('InvoiceSend', 'payer')],
  ['BUS-CHG-059', 'invoice-payer-kpp-required', 'kpp of an invoice payer is required', require('InvoicePayer', 'kpp')],
  ['BUS-CHG-060', 'invoice-id-dropped', 'the invoice send response has no invoiceId', drop('InvoiceSent', 'invoiceId')],
  ['BUS-CHG-061', 'taxation-scheme-required', 'taxationScheme of the company is required', require('CompanyInfo', 'taxationScheme')],
  [
    'BUS-CHG-062',
    'tranche-duration-back',
    'active offers have trancheDurationInMonths again',
    add('ActiveOffer', 'trancheDurationInMonths', { type: 'integer', minimum: 1 }),
  ],
  ['BUS-CHG-063', 'compact-image-required', 'compactImage of an active offer is required', require('ActiveOffer', 'compactImage')],
  [
    'BUS-CHG-065',
    'cards-offset-default-10',
    'the cards list offset defaults to 10',
    param('/api/v1/card', 'get', 'CardsOffset', (p) => void (at(p, 'schema').default = 10)),
  ],
  [
    'BUS-CHG-066',
    'agreement-number-dropped',
    'the cards list takes no agreementNumber',
    dropParam('/api/v1/card', 'get', 'CardsAgreementNumber'),
  ],
  [
    'BUS-CHG-067',
    'cards-account-21-digits',
    'the cards list accountNumber takes 20 to 22 digits',
    param('/api/v1/card', 'get', 'CardsAccountNumber', (p) => void (at(p, 'schema').pattern = '^\\d{20,22}$')),
  ],
  [
    'BUS-CHG-070',
    'checkout-v1-create-current',
    'POST /api/v1/checkout/order is no longer marked deprecated',
    undeprecate('/api/v1/checkout/order', 'post'),
    // Part 9's list of deprecated operations, which BUS-CAT-002 reads whole (so the next two).
    ['BUS-CAT-002'],
  ],
  [
    'BUS-CHG-071',
    'checkout-v1-read-current',
    'the v1 checkout order read is no longer marked deprecated',
    undeprecate('/api/v1/checkout/order/{shopId}/by/{orderId}', 'get'),
    ['BUS-CAT-002'],
  ],
  [
    'BUS-CHG-072',
    'bank-accounts-v2-current',
    'GET /api/v2/bank-accounts is no longer marked deprecated',
    undeprecate('/api/v2/bank-accounts', 'get'),
    ['BUS-CAT-002'],
  ],
  [
    'BUS-CHG-073',
    'free-delivery-renamed',
    'the delivery condition calls freeDelivery freeShipping',
    all(add('DeliveryCondition', 'freeShipping', { $ref: '#/components/schemas/FreeDelivery' }), drop('DeliveryCondition', 'freeDelivery')),
  ],
  ['BUS-CHG-074', 'article-dropped', 'the v2 checkout order items have no article', drop('CheckoutItemV2', 'article')],
  [
    'BUS-CHG-075',
    'delivery-payment-required',
    'deliveryPayment of the v2 checkout order request is required',
    require(V2_ORDER, 'deliveryPayment'),
  ],
  [
    'BUS-CHG-076',
    'installment-dropped',
    // Only the request's options: CheckoutPaymentType is also the order's answer, which the service still
    // fills with installment, so dropping it there would break BUS-RUN-004 whenever the answer drew it.
    "the v2 checkout order request's delivery-payment options have no installment payment type",
    (doc) => {
      const option = structuredClone(schema(doc, 'DeliveryPaymentOption'));
      const kinds = schema(doc, 'CheckoutPaymentType').enum as string[];
      at(option, 'properties').paymentType = { type: 'string', enum: kinds.filter((v) => v !== 'installment') };
      at(properties(doc, V2_ORDER), 'deliveryPayment').items = option;
    },
  ],
  ['BUS-CHG-077', 'order-payment-type-dropped', 'the v2 checkout order response has no paymentType', drop(ORDER, 'paymentType')],
  [
    'BUS-CHG-078',
    'order-delivery-payment-dropped',
    'the v2 checkout order response has no deliveryPayment',
    drop(ORDER, 'deliveryPayment'),
  ],
  ['BUS-CHG-079', 'order-success-page-dropped', 'the v2 checkout order response has no successPageUrl', drop(ORDER, 'successPageUrl')],
  [
    'BUS-CHG-080',
    'order-cart-page-dropped',
    'the v2 checkout order response has no shoppingCartPageUrl',
    drop(ORDER, 'shoppingCartPageUrl'),
  ],
  ['BUS-CHG-081', 'order-discount-dropped', 'the v2 checkout order response has no discountInfo', drop(ORDER, 'discountInfo')],
  ['BUS-CHG-082', 'order-recipient-dropped', 'the v2 checkout order response has no recipient', drop(ORDER, 'recipient')],
  ['BUS-CHG-083', 'taxation-self-dropped', 'the checkout taxation has no self value', dropValue('CheckoutTaxation', 'self')],
  [
    'BUS-CHG-083',
    'taxation-pattern-without-self',
    'the checkout taxation has no enum, and a pattern that refuses self (the edge of a free string)',
    (doc) => {
      const taxation = schema(doc, 'CheckoutTaxation');
      if (!Array.isArray(taxation.enum)) throw new Error('document fault: CheckoutTaxation has no enum to replace');
      delete taxation.enum;
      taxation.pattern = '^(osn|usn_income|usn_income_outcome|esn|patent)$';
    },
  ],
  [
    'BUS-CHG-084',
    'delivery-service-dropped',
    'the delivery of a checkout order has no deliveryService',
    drop('Delivery', 'deliveryService'),
  ],
  ['BUS-CHG-085', 'apartment-dropped', 'the delivery address has no apartment', drop('DeliveryAddress', 'apartment')],
  ['BUS-CHG-086', 'entrance-dropped', 'the delivery address has no entrance', drop('DeliveryAddress', 'entrance')],
  ['BUS-CHG-087', 'floor-dropped', 'the delivery address has no floor', drop('DeliveryAddress', 'floor')],
  ['BUS-CHG-088', 'intercom-dropped', 'the delivery address has no intercom code', drop('DeliveryAddress', 'intercomCode')],
  ['BUS-CHG-089', 'bic-swift-dropped', 'statement operations have no bicSwift', drop(STATEMENT_OP, 'bicSwift')],
  ['BUS-CHG-090', 'bank-name-dropped', 'statement operations have no bankName', drop(STATEMENT_OP, 'bankName')],
  ['BUS-CHG-091', 'operation-status-dropped', 'statement operations have no operationStatus', drop(STATEMENT_OP, 'operationStatus')],
  ['BUS-CHG-092', 'vo-dropped', 'statement operations have no vo', drop(STATEMENT_OP, 'vo')],
  ['BUS-CHG-093', 'doc-date-dropped', 'statement operations have no docDate', drop(STATEMENT_OP, 'docDate')],
  ['BUS-CHG-094', 'operation-id-dropped', 'statement operations have no operationId', drop(STATEMENT_OP, 'operationId')],
  ['BUS-CHG-095', 'auth-status-dropped', 'statement operations have no authStatus', drop(STATEMENT_OP, 'authStatus')],
  ['BUS-CHG-096', 'account-number-dropped', 'statement operations have no accountNumber', drop(STATEMENT_OP, 'accountNumber')],
  ['BUS-CHG-097', 'acquirer-id-dropped', 'statement operations have no acquirerId', drop(STATEMENT_OP, 'acquirerId')],
  ['BUS-CHG-098', 'rrn-required', 'rrn of a statement operation is required', require(STATEMENT_OP, 'rrn')],
  [
    'BUS-CHG-099',
    'statement-card-number-required',
    'the card number of a statement operation is required',
    require('StatementCard', 'cardNumber'),
  ],
  [
    'BUS-CHG-100',
    'statement-description-required',
    'description of a statement operation is required',
    require(STATEMENT_OP, 'description'),
  ],
  ['BUS-CHG-101', 'merch-required', 'merch of a statement operation is required', require(STATEMENT_OP, 'merch')],
  [
    'BUS-CHG-102',
    'with-balances-dropped',
    'the statement cannot be asked for balances',
    dropParam('/api/v1/statement', 'get', 'withBalances'),
  ],
  ['BUS-CHG-103', 'recipient-inn-required', 'recipientInn of a statement operation is required', require(STATEMENT_OP, 'recipientInn')],
  ['BUS-CHG-104', 'payer-account-required', 'payerAccount of a statement operation is required', require(STATEMENT_OP, 'payerAccount')],
  ['BUS-CHG-105', 'tariff-name-dropped', 'v4 accounts have no tariffName', drop('AccountInfoV4', 'tariffName')],
  ['BUS-CHG-106', 'created-on-dropped', 'v4 accounts have no createdOn', drop('AccountInfoV4', 'createdOn')],
  ['BUS-CHG-107', 'ledger-balance-dropped', 'the balance of v4 accounts has no balance', drop('AccountBalanceV4', 'balance')],
  [
    'BUS-CHG-108',
    'investment-dropped',
    'v4 accounts cannot be investment accounts',
    dropValue('AccountInfoV4', 'Investment', 'accountType'),
  ],
  [
    'BUS-CHG-109',
    'nominal-operation-id-required',
    'operationId of a nominal-account payment is required',
    require('NominalPayment', 'operationId'),
  ],
  [
    'BUS-CHG-110',
    'authorization-date-required',
    'authorizationDate of an incoming transaction is required',
    require('IncomingTransaction', 'authorizationDate'),
  ],
  [
    'BUS-CHG-111',
    'transaction-date-required',
    'transactionDate of an incoming transaction is required',
    require('IncomingTransaction', 'transactionDate'),
  ],
  ['BUS-CHG-112', 'draw-date-required', 'drawDate of an incoming transaction is required', require('IncomingTransaction', 'drawDate')],
  ['BUS-CHG-113', 'recipient-tax-dropped', 'a deal-step recipient has no tax', drop('StepRecipientCreate', 'tax')],
  ['BUS-CHG-114', 'hold-step-required', 'stepId of a hold is required', require('Hold', 'stepId')],
  ['BUS-CHG-115', 'hold-recipient-required', 'recipientId of a hold is required', require('Hold', 'recipientId')],
  ['BUS-CHG-116', 'hold-payment-required', 'paymentId of a hold is required', require('Hold', 'paymentId')],
  ['BUS-CHG-117', 'bank-details-card-dropped', 'bank details cannot be of type CARD', dropValue('BankDetailsType', 'CARD')],
  ['BUS-CHG-118', 'card-data-dropped', 'bank details have no cardData', drop('BankDetailsCreate', 'cardData')],
  ['BUS-CHG-119', 'bank-details-sbp-dropped', 'bank details cannot be of the instant-payment type', dropValue('BankDetailsType', 'SBP')],
  ['BUS-CHG-120', 'third-party-required', 'thirdParty of a payment is required', require('PaymentDraftCreate', 'thirdParty')],
  [
    'BUS-CHG-121',
    'purpose-needs-vat',
    'the purpose of a payment must mention VAT',
    (doc) => void (at(properties(doc, 'PaymentDraftCreate'), 'paymentPurpose').pattern = '(НДС|VAT)'),
  ],
  [
    'BUS-CHG-122',
    'recipients-inn-filter-dropped',
    'the self-employed recipients list cannot be filtered by inn',
    drop('SelfEmployedRecipientsFilter', 'inn'),
  ],
  [
    'BUS-CHG-123',
    'recipients-status-filter-dropped',
    'the self-employed recipients list cannot be filtered by status',
    drop('SelfEmployedRecipientsFilter', 'status'),
  ],
  [
    'BUS-CHG-124',
    'recipients-date-filter-dropped',
    'the self-employed recipients list cannot be filtered by creation date',
    all(drop('SelfEmployedRecipientsFilter', 'createdFrom'), drop('SelfEmployedRecipientsFilter', 'createdTo')),
  ],
  [
    'BUS-CHG-125',
    'recipients-paging-dropped',
    'the self-employed recipients list cannot be paged',
    all(drop('SelfEmployedRecipientsFilter', 'offset'), drop('SelfEmployedRecipientsFilter', 'limit')),
  ],
  ['BUS-CHG-126', 'recipient-inn-dropped', 'the self-employed recipients list answers no inn', drop('SelfEmployedRecipient', 'inn')],
  ['BUS-CHG-127', 'self-employed-id-dropped', 'selfEmployedInfo carries no id', drop('SelfEmployedInfo', 'recipientId')],
  [
    'BUS-CHG-128',
    'salary-create-type-dropped',
    'the salary registry create request has no registryCreateType',
    drop('SalaryPaymentRegistryCreate', 'registryCreateType'),
  ],
  ['BUS-CHG-129', 'employee-id-dropped', 'employeeInfo carries no id', drop('EmployeeInfo', 'employeeId')],
  ['BUS-CHG-150', 'employee-info-dropped', 'the salary payments carry no employeeInfo', drop('SalaryPaymentCreate', 'employeeInfo')],
  ['BUS-CHG-130', 'invoice-comment-required', 'the comment of an invoice is required', require('InvoiceSend', 'comment')],
  ['BUS-CHG-131', 'invoice-payer-inn-required', 'inn of an invoice payer is required', require('InvoicePayer', 'inn')],
  ['BUS-CHG-132', 'invoice-payer-name-required', 'name of an invoice payer is required', require('InvoicePayer', 'name')],
  ['BUS-CHG-133', 'invoice-phone-dropped', 'an invoice cannot be sent by SMS (no phone)', drop('InvoiceSend', 'contactPhone')],
  ['BUS-CHG-134', 'id-type-dropped', 'identity documents carry no idType', drop('IdentityDocument', 'idType')],
  ['BUS-CHG-135', 'id-type-filter-dropped', 'the passport read takes no idType', dropParam('/api/v1/individual/passport', 'get', 'IdType')],
  [
    'BUS-CHG-136',
    'delivery-address-dropped',
    'an address cannot be a DELIVERY_ADDRESS',
    dropValue('IndividualAddressType', 'DELIVERY_ADDRESS'),
  ],
  [
    'BUS-CHG-137',
    'address-type-filter-dropped',
    'the addresses read takes no addressType',
    dropParam('/api/v1/individual/addresses', 'get', 'addressType'),
  ],
  ['BUS-CHG-138', 'deferred-accrual-dropped', 'active offers have no deferred-accrual flag', drop('ActiveOffer', 'isDeferredAccrual')],
  [
    'BUS-CHG-139',
    'accrual-period-dropped',
    'active offers have no expected-accrual period',
    drop('ActiveOffer', 'expectedAccrualPeriodInDays'),
  ],
  [
    'BUS-CHG-140',
    'cards-v3-limit-max-5000',
    'the v3 cards list limit allows up to 5000',
    param('/api/v3/card', 'get', 'CardsLimit', (p) => void (at(p, 'schema').maximum = 5000)),
  ],
  [
    'BUS-CHG-141',
    'cards-v3-offset-default-10',
    'the v3 cards list offset defaults to 10',
    param('/api/v3/card', 'get', 'CardsOffset', (p) => void (at(p, 'schema').default = 10)),
  ],
  [
    'BUS-CHG-142',
    'card-expiry-date-back',
    'the single-card read has expiryDate again',
    (doc) => {
      const media = at(operation(doc, '/api/v1/card/{ucid}', 'get'), 'responses', '200', 'content', 'application/json');
      media.schema = {
        allOf: [media.schema, { type: 'object', properties: { expiryDate: { type: 'string', pattern: '^\\d{2}/\\d{2}$' } } }],
      };
    },
  ],
  [
    'BUS-CHG-143',
    'card-v3-expiry-date-back',
    'cards of the v3 cards list have expiryDate again',
    (doc) => {
      const parts = schema(doc, 'CardV3').allOf as Node[];
      at(parts[1], 'properties').expiryDate = { type: 'string', pattern: '^\\d{2}/\\d{2}$' };
    },
  ],
  ['BUS-CHG-144', 'document-date-optional', 'the date of a beneficiary document is optional', unrequire('BeneficiaryDocument', 'date')],
  [
    'BUS-CHG-145',
    'by-phone-test-dropped',
    'the loyalty offers by phone take no query parameter test',
    dropParam('/api/v1/loyalty/offers/by-phone', 'post', 'LoyaltyTest'),
  ],
  ['BUS-CHG-146', 'image280-required', 'image280 of an active offer is required', require('ActiveOffer', 'image280')],
  ['BUS-CHG-147', 'image626-required', 'image626 of an active offer is required', require('ActiveOffer', 'image626')],
  ['BUS-CHG-148', 'image1252-required', 'image1252 of an active offer is required', require('ActiveOffer', 'image1252')],
  [
    'BUS-CHG-149',
    'counters-by-account',
    'the detail counters are keyed by an account number, not by the partner client',
    (doc) => {
      const paths = at(doc, 'paths');
      const item = at(paths, '/api/v1/individual/detail-counters/{clientId}');
      delete paths['/api/v1/individual/detail-counters/{clientId}'];
      paths['/api/v1/individual/detail-counters/{accountNumber}'] = item;
      const byAccount = { name: 'accountNumber', in: 'path', required: true, schema: { type: 'string', pattern: '^\\d{20}$' } };
      for (const op of Object.values(item)) {
        const node = op as Node;
        if (Array.isArray(node.parameters))
          node.parameters = (node.parameters as unknown[]).map((p) => (JSON.stringify(p).includes('PartnerClientId') ? byAccount : p));
      }
    },
  ],
];

export const NOTE_FAULTS: DocumentFault[] = TABLE.map(([requirement, tail, description, edit, besides = []]) => ({
  id: `bus-doc-${requirement.slice(4).toLowerCase()}-${tail}`,
  catches: [requirement, ...besides],
  description,
  edit,
}));
