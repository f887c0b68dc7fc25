/**
 * Faults of the served document: each is a stale or careless edit of the document a real vendor
 * might publish (an operation dropped, a removed one back, an enum value back, a limit loosened, a
 * deprecation lost, a YAML slip). Object faults edit a copy of the parsed document; text faults edit
 * the YAML text; a fault that finds nothing to edit throws, so it can never silently do nothing.
 * The faults of single change notes are a table of their own (document-note-faults.ts).
 */
import {
  addValue,
  at,
  JSON_WITH_CHARSET,
  jsonKeyedWithCharset,
  operation,
  renameMedia,
  schema,
  unrequire,
  type DocumentFault,
  type Node,
} from './document-edits.ts';
import { NOTE_FAULTS } from './document-note-faults.ts';

function replaceOnce(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`document fault: "${from.slice(0, 60)}" is not in the sandbox document text`);
  return text.replace(from, to);
}

function movePath(doc: Node, from: string, to: string): void {
  const paths = at(doc, 'paths');
  at(paths, from);
  paths[to] = paths[from];
  delete paths[from];
}

export const DOCUMENT_FAULTS: DocumentFault[] = [
  {
    id: 'bus-doc-operation-missing',
    catches: ['BUS-CAT-001'],
    description: 'the document leaves out GET /api/v1/counterparty/okved',
    edit: (doc) => {
      at(doc, 'paths', '/api/v1/counterparty/okved');
      delete at(doc, 'paths')['/api/v1/counterparty/okved'];
    },
  },
  {
    id: 'bus-doc-removed-served',
    catches: ['BUS-CAT-003'],
    description: 'the removed POST /api/v1/self-employed/payment-registry/fiscalize is described again',
    edit: (doc) => {
      const { 'x-mtls-required': _secured, ...submit } = structuredClone(
        operation(doc, '/api/v1/self-employed/payment-registry/submit', 'post'),
      );
      at(doc, 'paths')['/api/v1/self-employed/payment-registry/fiscalize'] = {
        post: { ...submit, operationId: 'fiscalizeSelfEmployedPaymentRegistry', summary: 'Fiscalize a registry' },
      };
    },
  },
  {
    id: 'bus-doc-deprecation-dropped',
    catches: ['BUS-CAT-002', 'BUS-CHG-069'],
    description: 'GET /api/v1/rules is no longer marked deprecated',
    edit: (doc) => {
      delete operation(doc, '/api/v1/rules', 'get').deprecated;
    },
  },
  {
    id: 'bus-doc-version-changed',
    catches: ['BUS-CAT-001'],
    description: 'the statement is described as GET /api/v2/statement instead of /api/v1/statement',
    edit: (doc) => movePath(doc, '/api/v1/statement', '/api/v2/statement'),
  },
  {
    id: 'bus-doc-trailing-slash',
    catches: ['BUS-CAT-001'],
    description: 'the company read is described as GET /api/v1/company/ (trailing slash)',
    edit: (doc) => movePath(doc, '/api/v1/company', '/api/v1/company/'),
  },
  {
    id: 'bus-doc-salary-registry-by-id',
    catches: ['BUS-CAT-001'],
    description:
      "the salary registries are described only by id, GET /api/v1/salary/payment-registry/{paymentRegistryId} as the vendor's older document has it, not at the GET /api/v1/salary/payment-registry/ that 4.5 lists",
    edit: (doc) => {
      movePath(doc, '/api/v1/salary/payment-registry/', '/api/v1/salary/payment-registry/{paymentRegistryId}');
      operation(doc, '/api/v1/salary/payment-registry/{paymentRegistryId}', 'get').parameters = [
        { $ref: '#/components/parameters/PaymentRegistryId' },
      ];
    },
  },
  {
    id: 'bus-doc-russian-post',
    catches: ['BUS-CHG-019'],
    description: 'DeliveryKind holds the old value russian_post again',
    edit: addValue('DeliveryKind', 'russian_post'),
  },
  {
    id: 'bus-doc-cards-limit-max-5000',
    // The one CardsLimit parameter serves both cards lists, so this fault and the next break the note of each.
    catches: ['BUS-CHG-064', 'BUS-CHG-140'],
    description: 'the limit parameter the v1 and v3 cards lists share allows up to 5000',
    edit: (doc) => {
      at(doc, 'components', 'parameters', 'CardsLimit', 'schema').maximum = 5000;
    },
  },
  {
    id: 'bus-doc-cards-limit-default-100',
    catches: ['BUS-CHG-064', 'BUS-CHG-140'],
    description: 'the limit parameter the v1 and v3 cards lists share defaults to 100',
    edit: (doc) => {
      at(doc, 'components', 'parameters', 'CardsLimit', 'schema').default = 100;
    },
  },
  {
    id: 'bus-doc-uin-pattern-loose',
    catches: ['BUS-CHG-046'],
    description: 'the uin pattern is loosened to any 1 to 25 letters or digits',
    edit: (doc) => {
      schema(doc, 'Uin').pattern = '^[А-Яа-яA-Za-z0-9]{1,25}$';
    },
  },
  {
    id: 'bus-doc-notification-url',
    catches: ['BUS-CHG-020'],
    description: 'the v2 checkout order request has notificationUrl again',
    edit: (doc) => {
      at(schema(doc, 'CheckoutOrderCreateV2'), 'properties').notificationUrl = { type: 'string', format: 'uri' };
    },
  },
  {
    id: 'bus-doc-amount-not-deprecated',
    catches: ['BUS-CHG-002'],
    description: 'amount of the v2 checkout order request is no longer marked deprecated',
    edit: (doc) => {
      delete at(schema(doc, 'CheckoutOrderCreateV2'), 'properties', 'amount').deprecated;
    },
  },
  {
    id: 'bus-doc-items-amount-optional',
    catches: ['BUS-CHG-014'],
    description: 'itemsAmount of the v2 checkout order response is no longer required',
    edit: unrequire('CheckoutOrderV3', 'itemsAmount'),
  },
  {
    id: 'bus-doc-receipt-status-new',
    catches: ['BUS-CHG-050'],
    description: 'the self-employed receipt status holds NEW again',
    edit: addValue('ReceiptStatus', 'NEW'),
  },
  {
    id: 'bus-doc-terminal-key-optional',
    catches: ['BUS-CHG-040'],
    description: 'terminalKey of an add-card request is no longer required',
    edit: unrequire('AddCardRequest', 'terminalKey'),
  },
  {
    id: 'bus-doc-expiry-date-back',
    // Card is the schema of the cards list's items, of the single-card read and a part of CardV3: each is
    // a card response with expiryDate again.
    catches: ['BUS-CHG-068', 'BUS-CHG-142', 'BUS-CHG-143'],
    description: 'the Card schema has expiryDate again',
    edit: (doc) => {
      at(schema(doc, 'Card'), 'properties').expiryDate = { type: 'string', pattern: '^\\d{2}/\\d{2}$' };
    },
  },
  {
    id: 'bus-doc-cards-media-json-seq',
    catches: ['BUS-RUN-003'],
    description: `every JSON media key carries its charset (${JSON_WITH_CHARSET}), and the cards lists' answers are keyed application/json-seq;charset=UTF-8, which they are not`,
    edit: (doc) => {
      jsonKeyedWithCharset(doc);
      for (const path of ['/api/v1/card', '/api/v3/card'])
        renameMedia(at(operation(doc, path, 'get'), 'responses', '200'), JSON_WITH_CHARSET, 'application/json-seq;charset=UTF-8');
    },
  },
  {
    id: 'bus-doc-cards-v3-mtls',
    catches: ['BUS-MTL-001', 'BUS-MTL-002'],
    description: 'the v3 cards list is marked as needing a client certificate',
    edit: (doc) => {
      operation(doc, '/api/v3/card', 'get')['x-mtls-required'] = true;
    },
  },
  {
    id: 'bus-doc-loyalty-offers-deprecated',
    catches: ['BUS-DRF-001'],
    description: "GET /api/v1/loyalty/offers/active, current in the catalog, is marked deprecated (as in the vendor's 2021 document)",
    edit: (doc) => {
      operation(doc, '/api/v1/loyalty/offers/active', 'get').deprecated = true;
    },
  },
  {
    id: 'bus-doc-heavy-load-bodiless',
    catches: ['BUS-DOC-004'],
    description: 'the 429 answer shared by every operation has no body, and no operation documents a 503',
    edit: (doc) => {
      delete at(doc, 'components', 'responses', 'TooManyRequests').content;
    },
  },
  {
    id: 'bus-doc-loyalty-history-no-errors',
    // The service still answers its errors, which the document now does not list (BUS-RUN-002).
    catches: ['BUS-DOC-005', 'BUS-RUN-002'],
    description: 'POST /api/v1/loyalty/clients/cashback/history documents only its success',
    edit: (doc) => {
      const responses = at(operation(doc, '/api/v1/loyalty/clients/cashback/history', 'post'), 'responses');
      for (const status of Object.keys(responses)) if (!status.startsWith('2')) delete responses[status];
    },
  },
  {
    id: 'bus-doc-v2-checkout-required-addition',
    catches: ['BUS-DOC-006'],
    description: 'the v2 checkout order request adds a required field salesChannel that v1 did not have',
    edit: (doc) => {
      const create = at(doc, 'components', 'schemas', 'CheckoutOrderCreateV2');
      at(create, 'properties').salesChannel = { type: 'string', enum: ['web', 'app'] };
      create.required = [...(create.required as string[]), 'salesChannel'];
    },
  },
  {
    id: 'bus-doc-applications-unpaged',
    catches: ['BUS-PAG-001'],
    description: 'the virtual card applications list is described without any query parameter (no page size, no offset)',
    edit: (doc) => {
      const list = operation(doc, '/api/v3/card/virtual/issue/application', 'get');
      if (!Array.isArray(list.parameters) || !list.parameters.length)
        throw new Error('document fault: the applications list has no parameters to drop');
      delete list.parameters;
    },
  },
  {
    id: 'bus-doc-error-examples-bare',
    catches: ['BUS-DOC-008'],
    description: 'no example of an error answer carries errorDetails',
    edit: (doc) => {
      const examples = Object.values(at(doc, 'components', 'responses')).flatMap((r) =>
        Object.values(((r as Node).content ?? {}) as Record<string, Node>).map((media) => media.example as Node | undefined),
      );
      const detailed = examples.filter((e) => e && 'errorDetails' in e);
      if (!detailed.length) throw new Error('document fault: no error example carries errorDetails');
      for (const example of detailed) delete example!.errorDetails;
    },
  },
  {
    id: 'bus-doc-certificate-not-pem',
    catches: ['BUS-DOC-007'],
    description: 'the issued qualified-signature certificate is described as DER in base64',
    edit: (doc) => {
      at(doc, 'components', 'schemas', 'SignatureCertificate', 'properties', 'certificate').description =
        'X.509 certificate, DER encoded in base64';
    },
  },
  {
    id: 'bus-doc-cards-list-mtls',
    catches: ['BUS-MTL-001', 'BUS-MTL-002'],
    description: 'the cards list is marked as needing a client certificate',
    edit: (doc) => {
      operation(doc, '/api/v1/card', 'get')['x-mtls-required'] = true;
    },
  },
  {
    id: 'bus-doc-mtls-unmarked',
    catches: ['BUS-MTL-002'],
    description: 'POST /api/v1/payment/ruble-transfer/pay loses its client-certificate marking',
    edit: (doc) => {
      delete operation(doc, '/api/v1/payment/ruble-transfer/pay', 'post')['x-mtls-required'];
    },
  },
  {
    id: 'bus-doc-no-success-response',
    // The service still answers 200, which the document now does not list (BUS-RUN-002).
    catches: ['BUS-DOC-003', 'BUS-RUN-002'],
    description: 'GET /api/v1/company/signer/status documents only error responses',
    edit: (doc) => {
      delete at(operation(doc, '/api/v1/company/signer/status', 'get'), 'responses')['200'];
    },
  },
  {
    id: 'bus-doc-invalid-openapi',
    catches: ['BUS-DOC-002'],
    description: "three success responses lack their required description, as in the vendor's 2021 document",
    edit: (doc) => {
      for (const path of ['/api/v1/company', '/api/v1/card', '/api/v4/bank-accounts'])
        delete at(operation(doc, path, 'get'), 'responses', '200').description;
    },
  },
  {
    id: 'bus-doc-yaml-syntax-error',
    catches: ['BUS-DOC-001'],
    description: 'a mis-indented line makes the document invalid YAML',
    text: (yaml) =>
      replaceOnce(
        yaml,
        '      parameters:\n        - $ref: "#/components/parameters/CardsAccountNumber"',
        '     parameters:\n        - $ref: "#/components/parameters/CardsAccountNumber"',
      ),
  },
  {
    id: 'bus-doc-duplicate-key',
    catches: ['BUS-DOC-001'],
    description: 'a path item has its summary key twice, which YAML forbids (the rest of the document is fine)',
    text: (yaml) =>
      replaceOnce(
        yaml,
        '  /api/v1/company/signer/status:\n',
        '  /api/v1/company/signer/status:\n    summary: signer status\n    summary: signer status of the company\n',
      ),
  },
  {
    id: 'bus-doc-not-served',
    catches: ['BUS-DOC-001'],
    description: 'the specification file is not served (404 with the business error body)',
    status: 404,
  },
  ...NOTE_FAULTS,
];
