/**
 * Faults of the served document: each is a stale or careless edit of the document a real vendor
 * might publish (an operation dropped, a removed one back, an enum value back, a limit loosened, a
 * deprecation lost, a YAML slip). Object faults edit a copy of the parsed document; text faults edit
 * the YAML text; a fault that finds nothing to edit throws, so it can never silently do nothing.
 */
type Node = Record<string, unknown>;

export interface DocumentFault {
  id: string;
  catches: string[];
  description: string;
  edit?: (doc: Node) => void;
  text?: (yaml: string) => string;
  /** The route answers this status with the business error body instead of the document. */
  status?: number;
}

function at(doc: Node, ...keys: string[]): Node {
  let node: unknown = doc;
  for (const key of keys) {
    node = node && typeof node === 'object' ? (node as Node)[key] : undefined;
    if (!node || typeof node !== 'object') throw new Error(`document fault: ${keys.join(' › ')} is not in the sandbox document`);
  }
  return node as Node;
}

const schema = (doc: Node, name: string) => at(doc, 'components', 'schemas', name);
const operation = (doc: Node, path: string, method: string) => at(doc, 'paths', path, method);

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

function removeRequired(node: Node, name: string): void {
  if (!Array.isArray(node.required) || !node.required.includes(name)) throw new Error(`document fault: ${name} is not required here`);
  node.required = node.required.filter((n) => n !== name);
}

function addEnumValue(node: Node, value: string): void {
  if (!Array.isArray(node.enum)) throw new Error('document fault: no enum to widen');
  node.enum = [...node.enum, value];
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
      const { 'x-mtls-required': _secured, ...submit } = structuredClone(operation(doc, '/api/v1/self-employed/payment-registry/submit', 'post'));
      at(doc, 'paths')['/api/v1/self-employed/payment-registry/fiscalize'] = { post: { ...submit, operationId: 'fiscalizeSelfEmployedPaymentRegistry', summary: 'Fiscalize a registry' } };
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
    catches: ['BUS-CAT-001', 'BUS-CHG-032', 'BUS-CHG-034'],
    description: 'the statement is described as GET /api/v2/statement instead of /api/v1/statement',
    edit: (doc) => movePath(doc, '/api/v1/statement', '/api/v2/statement'),
  },
  {
    id: 'bus-doc-trailing-slash',
    catches: ['BUS-CAT-001', 'BUS-CHG-061'],
    description: 'the company read is described as GET /api/v1/company/ (trailing slash)',
    edit: (doc) => movePath(doc, '/api/v1/company', '/api/v1/company/'),
  },
  {
    id: 'bus-doc-russian-post',
    catches: ['BUS-CHG-019'],
    description: 'DeliveryKind holds the old value russian_post again',
    edit: (doc) => addEnumValue(schema(doc, 'DeliveryKind'), 'russian_post'),
  },
  {
    id: 'bus-doc-cards-limit-max-5000',
    catches: ['BUS-CHG-064'],
    description: 'the cards list limit parameter allows up to 5000',
    edit: (doc) => {
      at(doc, 'components', 'parameters', 'CardsLimit', 'schema').maximum = 5000;
    },
  },
  {
    id: 'bus-doc-cards-limit-default-100',
    catches: ['BUS-CHG-064'],
    description: 'the cards list limit parameter defaults to 100',
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
    edit: (doc) => removeRequired(schema(doc, 'CheckoutOrderV3'), 'itemsAmount'),
  },
  {
    id: 'bus-doc-receipt-status-new',
    catches: ['BUS-CHG-050'],
    description: 'the self-employed receipt status holds NEW again',
    edit: (doc) => addEnumValue(schema(doc, 'ReceiptStatus'), 'NEW'),
  },
  {
    id: 'bus-doc-terminal-key-optional',
    catches: ['BUS-CHG-040'],
    description: 'terminalKey of an add-card request is no longer required',
    edit: (doc) => removeRequired(schema(doc, 'AddCardRequest'), 'terminalKey'),
  },
  {
    id: 'bus-doc-expiry-date-back',
    catches: ['BUS-CHG-068'],
    description: 'cards in the cards list have expiryDate again',
    edit: (doc) => {
      at(schema(doc, 'Card'), 'properties').expiryDate = { type: 'string', pattern: '^\\d{2}/\\d{2}$' };
    },
  },
  {
    id: 'bus-doc-checkout-body-dropped',
    catches: ['BUS-CHG-001', 'BUS-CHG-020', 'BUS-CHG-025'],
    description: 'POST /api/v2/checkout/order no longer describes its request body (absence checks must not pass on it)',
    edit: (doc) => {
      delete operation(doc, '/api/v2/checkout/order', 'post').requestBody;
    },
  },
  {
    id: 'bus-doc-delivery-free-form',
    catches: ['BUS-CHG-019', 'BUS-CHG-030', 'BUS-CHG-031'],
    description: 'the delivery section of the checkout order is a free-form object without properties',
    edit: (doc) => {
      at(doc, 'components', 'schemas').Delivery = { type: 'object', description: 'Delivery details' };
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
    catches: ['BUS-DOC-003'],
    description: 'GET /api/v1/company/signer/status documents only error responses',
    edit: (doc) => {
      delete at(operation(doc, '/api/v1/company/signer/status', 'get'), 'responses')['200'];
    },
  },
  {
    id: 'bus-doc-invalid-openapi',
    catches: ['BUS-DOC-002'],
    description: 'three success responses lack their required description, as in the vendor\'s 2021 document',
    edit: (doc) => {
      for (const path of ['/api/v1/company', '/api/v1/card', '/api/v4/bank-accounts']) delete at(operation(doc, path, 'get'), 'responses', '200').description;
    },
  },
  {
    id: 'bus-doc-yaml-syntax-error',
    catches: ['BUS-DOC-001', 'BUS-DOC-002', 'BUS-DOC-003', 'BUS-CAT-001', 'BUS-CAT-002', 'BUS-CAT-003', 'BUS-MTL-001', 'BUS-MTL-002'],
    description: 'a mis-indented line makes the document invalid YAML',
    text: (yaml) => replaceOnce(yaml, '      parameters:\n        - $ref: "#/components/parameters/CardsAccountNumber"', '     parameters:\n        - $ref: "#/components/parameters/CardsAccountNumber"'),
  },
  {
    id: 'bus-doc-duplicate-key',
    catches: ['BUS-DOC-001'],
    description: 'a path item has its summary key twice, which YAML forbids (the rest of the document is fine)',
    text: (yaml) => replaceOnce(yaml, '  /api/v1/company/signer/status:\n', '  /api/v1/company/signer/status:\n    summary: signer status\n    summary: signer status of the company\n'),
  },
  {
    id: 'bus-doc-not-served',
    catches: ['BUS-DOC-001', 'BUS-CAT-001'],
    description: 'the specification file is not served (404 with the business error body)',
    status: 404,
  },
];
