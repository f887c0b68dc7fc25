/**
 * The latitudes of the business runtime: the mirror of faults.ts and fault-modifiers.ts. Each changes
 * how the generic handler answers within what the spec allows, as an edit around it (a named rule
 * replaced, the answer edited), and quotes the spec's words that allow it. One that also changes what
 * the served document says (a status it lists) carries that edit as `document`.
 */
import { latitudesOf, onRefusal, withHeader, type ModifierLatitude } from '../../../faults/modifiers.ts';
import { at, operation, type Node as DocumentNode } from '../document-edits.ts';
import type { DocumentChange } from '../document.ts';
import { alsoRefuses, errorInstead, onSuccess, parametersEdited, v1AmountRefused, type RuntimeShape } from './fault-modifiers.ts';
import { VALIDATION_REFUSALS, type RuntimeAnswer } from './handler.ts';
import { isNode, type Node } from './operations.ts';
import { CHECKOUT_V2_CREATE, refused } from './rules.ts';
import { checkBody, checkParameters, type Problem } from './validate.ts';

export type RuntimeLatitude = ModifierLatitude<RuntimeShape> & { document?: DocumentChange };

const latitude = latitudesOf<RuntimeShape>('business');
const withDocument = (entry: ModifierLatitude<RuntimeShape>, document: DocumentChange): RuntimeLatitude => ({ ...entry, document });

const BEHAVIOUR_NOT_SHOWN =
  'Per-operation behaviour of these operations: not shown beyond names, paths and change notes given in 4.5 and 2.6.';
const ERRORS_NOT_SHOWN =
  'Error bodies and code values of the business-banking operations, and errors of the speech and userinfo calls: not shown.';
const TRANSFERS = new Set([
  'POST /api/v1/payment/ruble-transfer/pay',
  'POST /api/v1/payment/card-transfer/pay',
  'POST /api/v1/payment/sbp/pay',
]);
const IDENTITY_DOCUMENTS = new Set([
  'PASSPORT',
  'OFFICIAL_PASSPORT',
  'DIPLOMATIC_PASSPORT',
  'FOREIGN_PASSPORT',
  'FOREIGN_PASSPORT_OF_FOREIGN_CITIZENS',
]);
const CYRILLIC = /[А-Яа-яЁё]/;

/** Whether a 10- or 12-digit inn has the check digits of the tax service's weights. */
export function innChecksumHolds(inn: string): boolean {
  const d = [...inn].map(Number);
  const digit = (weights: number[]) => (weights.reduce((s, w, i) => s + w * d[i], 0) % 11) % 10;
  if (d.length === 10) return digit([2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[9];
  return digit([7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[10] && digit([3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[11];
}

/** The inns of a body with wrong check digits, as problems at their places. */
function innProblems(value: unknown, at = 'body'): Problem[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => innProblems(v, `${at}[${i}]`));
  if (!isNode(value)) return [];
  return Object.entries(value).flatMap(([key, v]) =>
    key === 'inn' && typeof v === 'string' && /^(\d{10}|\d{12})$/.test(v) && !innChecksumHolds(v)
      ? [{ field: `${at}.${key}`, message: 'has wrong check digits' }]
      : innProblems(v, `${at}.${key}`),
  );
}

const numeric = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)));

/** The document's 200 beside the 201 of the transfers, with the same body. */
function transfersList200(doc: DocumentNode): void {
  for (const key of TRANSFERS) {
    const path = key.split(' ')[1];
    const responses = at(operation(doc, path, 'post'), 'responses');
    at(responses, '201');
    responses['200'] = structuredClone(responses['201']);
  }
}

export const RUNTIME_LATITUDES: RuntimeLatitude[] = [
  latitude(
    'bus-lat-422-for-400',
    [ERRORS_NOT_SHOWN, 'a 400 error is returned as JSON'],
    'a request that breaks the document (a parameter, a body that is not JSON, a body field) is refused 422 with VALIDATION_ERROR instead of 400',
    { answer: (a) => (VALIDATION_REFUSALS.has(a.refusedBy ?? '') ? { ...a, status: 422 } : a) },
    'Part 7 says how a 400 looks, not that validation errors are 400s; the document lists 422 for every operation.',
  ),
  latitude(
    'bus-lat-inn-checksum',
    [BEHAVIOUR_NOT_SHOWN],
    'an inn of 10 or 12 digits whose check digits are wrong, in the body or a parameter, is refused 400 as a validation error',
    {
      checks: {
        'body.schema': (op, body) => [...checkBody(op, body), ...innProblems(body)],
        parameters: (op, raw) => {
          const checked = checkParameters(op, raw);
          const wrong = (['path', 'query'] as const).flatMap((where) =>
            innProblems(isNode(checked.values[where]) ? { inn: checked.values[where].inn } : {}, where),
          );
          return { ...checked, problems: [...checked.problems, ...wrong] };
        },
      },
    },
    "The tax number has check digits; a backend that verifies them refuses a request its document's schema allows, and the spec shows no behaviour that forbids it.",
  ),
  latitude(
    'bus-lat-v1-amount-total',
    [BEHAVIOUR_NOT_SHOWN, 'POST /api/v2/checkout/order (success code of the v1 create is 201)'],
    "a v1 order create whose amount is not its items' total (price times quantity) is refused 422 as a business rule",
    v1AmountRefused((amount, total) => amount !== total, 'is not the total of the items (price times quantity)'),
    'The spec gives the v1 create its success code, not what it checks: an order whose sum disagrees with its items is a business refusal a checkout may make.',
  ),
  latitude(
    'bus-lat-checkout-errors-without-details',
    ['enumeration validation errors have a fixed output format', ERRORS_NOT_SHOWN],
    "the checkout create's validation errors carry no errorDetails (the failing fields are in errorMessage); every other operation's keep theirs",
    {
      answer: (a) => {
        if (!VALIDATION_REFUSALS.has(a.refusedBy ?? '') || a.facts?.op.key !== CHECKOUT_V2_CREATE || !isNode(a.body)) return a;
        const { errorDetails: _details, ...rest } = a.body;
        return { ...a, body: rest };
      },
    },
    'errorDetails is optional in the error schema the document gives every operation: an error without it has the same format as one with it.',
  ),
  latitude(
    'bus-lat-lenient-numbers',
    [BEHAVIOUR_NOT_SHOWN],
    'a query parameter that should be a number but does not read as one (limit=abc) is ignored, as if not sent',
    parametersEdited((checked, op, raw) => {
      const ignored = new Set(
        op.parameters
          .filter((p) => p.in === 'query' && raw.query[p.name] !== undefined && !numeric(raw.query[p.name]))
          .map((p) => `query.${p.name}`),
      );
      const problems = checked.problems.filter((p) => !(ignored.has(p.field) && /^must be (integer|number)$/.test(p.message)));
      return { ...checked, problems };
    }),
    'What a backend does with a malformed query value is not shown: a lenient parser that falls back to the default serves the request.',
  ),
  latitude(
    'bus-lat-tax-doc-latin',
    ['tax document number may be 2 letters plus 13 digits'],
    'a tax document number whose two letters are Cyrillic is refused 422 (only Latin letters are taken)',
    alsoRefuses('payment.', (b: Node) => {
      const number = b.taxDocNumber ?? (isNode(b.tax) ? b.tax.docNumber : undefined);
      return typeof number === 'string' && CYRILLIC.test(number)
        ? refused('tax document number', 'the letters must be Latin', 'taxDocNumber')
        : undefined;
    }),
    '2.6 names no alphabet for the two letters.',
  ),
  latitude(
    'bus-lat-identity-document',
    [
      'Beneficiary document types include PASSPORT (division required)',
      'Complete field lists of the records (orders, statements, cards, beneficiaries, receipts, rules, registries): not shown.',
    ],
    'an individual beneficiary (FL_*) without an identity document (a passport of some kind) is refused 422, whatever else it carries (a VISA, a CONTRACT)',
    alsoRefuses('beneficiary.', (b: Node) => {
      if (!String(b.type).startsWith('FL_')) return undefined;
      const documents = Array.isArray(b.documents) ? b.documents.filter(isNode) : [];
      return documents.some((d) => IDENTITY_DOCUMENTS.has(String(d.type)))
        ? undefined
        : refused('beneficiary documents', 'an identity document is required', 'documents');
    }),
    '2.6 lists the document types a beneficiary may carry, not which of them make a beneficiary.',
  ),
  latitude(
    'bus-lat-scope-401',
    ['Token issuing steps, scope names and token lifetime for this API: not shown.', ERRORS_NOT_SHOWN],
    'a token without the operation\'s scope is refused 401 with WWW-Authenticate error="insufficient_scope" instead of 403',
    {
      answer: onRefusal('scope', (a: RuntimeAnswer) =>
        withHeader(
          errorInstead(
            a,
            401,
            'UNAUTHORIZED',
            'the token lacks the scope of this operation',
            (a.body as { errorDetails?: Record<string, unknown> }).errorDetails,
          ),
          'www-authenticate',
          'Bearer realm="business", error="insufficient_scope"',
        ),
      ),
    },
    'The spec names no scopes and no status for a refused scope: a gateway may answer 401, as it does for any token it does not accept.',
  ),
  withDocument(
    latitude(
      'bus-lat-transfer-200',
      [
        'POST /api/v2/checkout/order (success code of the v1 create is 201)',
        'Request and response payloads of these operations: not shown, except the fields listed in 2.6.',
      ],
      'the ruble, card and instant transfers answer 200 instead of 201, and the document lists both',
      onSuccess(TRANSFERS, (a) => (a.status === 201 ? { ...a, status: 200 } : a)),
      "The spec fixes only the v1 checkout create's 201; where the document lists two successes, either is the documented success.",
    ),
    { edit: (doc) => transfersList200(doc as DocumentNode) },
  ),
];
