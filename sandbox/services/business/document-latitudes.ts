/**
 * The latitudes of the served document: the mirror of document-faults.ts. Each serves the document in a
 * way its spec allows (another YAML style, another reading of 4.5, a new version of an operation), as an
 * edit of its parsed form or of its text; the runtime keeps reading the clean document.
 */
import { Document, parse } from 'yaml';
import type { Latitude } from '../../faults/types.ts';
import { isJsonObject } from '../../json.ts';
import { at, JSON_WITH_CHARSET, jsonKeyedWithCharset, operation, schema, type Node } from './document-edits.ts';
import type { DocumentChange } from './document.ts';

export type DocumentLatitude = Latitude & DocumentChange;

const SERVED_AS_YAML = 'The machine-readable specification is served as a YAML file at /openapi/docs/openapi.yaml.';
const CERTIFICATE_REQUEST = '/tls/api/v1/qualified-digital-signature/issue/{issueRequestId}/certificate-request';

/** Every mapping with its keys in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reversed(v)]),
  );
}

/** Equal mappings made one shared object, so that a YAML writer gives the first an anchor and the others aliases. */
function shared(value: unknown, seen = new Map<string, unknown>()): unknown {
  if (Array.isArray(value)) return value.map((v) => shared(v, seen));
  if (!isJsonObject(value)) return value;
  const node = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shared(v, seen)]));
  const key = JSON.stringify(node);
  if (!seen.has(key)) seen.set(key, node);
  return seen.get(key);
}

const latitude = (id: string, allows: string[], description: string, change: DocumentChange, reading?: string): DocumentLatitude => ({
  id,
  area: 'business',
  allows,
  description,
  ...(reading ? { reading } : {}),
  ...change,
});

export const DOCUMENT_LATITUDES: DocumentLatitude[] = [
  latitude(
    'bus-lat-doc-json',
    [SERVED_AS_YAML],
    'the document is served as JSON text, which is YAML in flow style (still labelled YAML, as its own entry says)',
    { text: (yaml) => JSON.stringify(parse(yaml), null, 1) },
    'YAML 1.2 is a superset of JSON: a JSON text is a YAML file in flow style.',
  ),
  latitude(
    'bus-lat-doc-yaml-style',
    [SERVED_AS_YAML],
    'the document is written with anchors and aliases for repeated parts, every key quoted, comments, and every mapping in reverse key order',
    {
      text: (yaml) => {
        const doc = new Document(shared(reversed(parse(yaml))), { aliasDuplicateObjects: true });
        doc.commentBefore = ' The sandbox business API, written with anchors, aliases and quoted keys; key order carries no meaning';
        return doc.toString({ defaultKeyType: 'QUOTE_DOUBLE', lineWidth: 0 });
      },
    },
    'Anchors and aliases, quoted keys, comments and key order are YAML styles: the same data.',
  ),
  latitude(
    'bus-lat-doc-media-charset',
    ['All bodies are JSON unless stated.', SERVED_AS_YAML],
    `every JSON body and answer of the document is keyed ${JSON_WITH_CHARSET}; the answers keep their own label (application/json; charset=utf-8, or none)`,
    { edit: (doc) => jsonKeyedWithCharset(doc as Node) },
    'A media type is its type and subtype (RFC 9110 8.3.1), and a charset parameter on JSON changes nothing (RFC 8259): the key names the JSON the answers are labelled with.',
  ),
  latitude(
    'bus-lat-doc-taxation-free-string',
    ['taxation (may hold `self`, the professional-income scheme)'],
    'the taxation of the v2 checkout order read is a free string (no enum), its schemes named in its description',
    {
      edit: (doc) => {
        at(schema(doc as Node, 'CheckoutOrderV3'), 'properties', 'taxation');
        at(schema(doc as Node, 'CheckoutOrderV3'), 'properties').taxation = {
          type: 'string',
          maxLength: 32,
          description: 'Taxation scheme of the seller: osn, usn_income, usn_income_outcome, esn, patent or self (professional income)',
        };
      },
    },
    'A string without an enum may hold self as well as any scheme; "may hold" does not ask for an enum that names it.',
  ),
  latitude(
    'bus-lat-doc-new-version-requires',
    ['several versions of one operation coexist', 'itemsAmount (conditionally required)'],
    'the v2 checkout order request requires a field the v1 request did not have (channel)',
    {
      edit: (doc) => {
        const create = schema(doc as Node, 'CheckoutOrderCreateV2');
        at(create, 'properties').channel = { type: 'string', enum: ['web', 'app', 'pos'], description: 'Where the order was placed' };
        create.required = [...((create.required as string[] | undefined) ?? []), 'channel'];
      },
    },
    'A new version is where a field becomes required (2.6 makes v2 itemsAmount conditionally required); part 9\'s "field additions are optional fields" is about the release notes of one operation.',
  ),
  latitude(
    'bus-lat-doc-certificate-request-put-only',
    [
      'qualified signature issue under /tls/api/v1/qualified-digital-signature/issue (POST; PUT and GET .../issue/{issueRequestId}/certificate-request, /status, /certificate)',
    ],
    'the document follows the reading of 4.5 that gives certificate-request a PUT only (no GET certificate-request)',
    {
      edit: (doc) => {
        const item = at(doc as Node, 'paths', CERTIFICATE_REQUEST);
        operation(doc as Node, CERTIFICATE_REQUEST, 'get');
        delete item.get;
      },
    },
    '"PUT and GET .../certificate-request, /status, /certificate" may give the PUT to certificate-request and the GET to status and certificate.',
  ),
];
