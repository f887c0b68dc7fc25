/**
 * Body rules of the 3-NDFL operations as this sandbox's document (../openapi.yaml) describes them.
 * Each returns the first broken rule as { field, message }, or undefined when the body is valid.
 */
export interface Broken {
  field: string;
  message: string;
}

type Body = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DOCUMENT_TYPES = [
  'PASSPORT',
  'INN_CERTIFICATE',
  'INCOME_CERTIFICATE',
  'PROPERTY_DEED',
  'SALE_CONTRACT',
  'PAYMENT_RECEIPT',
  'MEDICAL_CERTIFICATE',
  'EDUCATION_CONTRACT',
  'OTHER',
];

const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

function text(value: unknown, field: string, min: number, max: number): Broken | undefined {
  if (typeof value !== 'string') return { field, message: 'must be a string' };
  if (value.length < min || value.length > max) return { field, message: `must be ${min} to ${max} characters` };
  return undefined;
}

function taxYear(value: unknown): Broken | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || (value as number) < 2015 || (value as number) > 2100)
    return { field: 'taxYear', message: 'must be an integer from 2015 to 2100' };
  return undefined;
}

function list(
  value: unknown,
  field: string,
  min: number,
  max: number,
  item: (v: unknown, at: string) => Broken | undefined,
): Broken | undefined {
  if (!Array.isArray(value)) return { field, message: 'must be an array' };
  if (value.length < min || value.length > max) return { field, message: `must have ${min} to ${max} items` };
  for (const [i, v] of value.entries()) {
    const broken = item(v, `${field}[${i}]`);
    if (broken) return broken;
  }
  return undefined;
}

function field(v: unknown, at: string): Broken | undefined {
  if (!isObject(v)) return { field: at, message: 'must be an object' };
  return (
    text(v.code, `${at}.code`, 0, 64) ??
    (v.name === undefined ? undefined : text(v.name, `${at}.name`, 0, 256)) ??
    text(v.value, `${at}.value`, 0, 4096)
  );
}

export function declarationUpdate(body: unknown): Broken | undefined {
  if (!isObject(body)) return { field: '(body)', message: 'must be a JSON object' };
  return (
    taxYear(body.taxYear) ??
    list(body.answers, 'answers', 1, 500, (v, at) =>
      isObject(v)
        ? (text(v.questionId, `${at}.questionId`, 1, 64) ?? text(v.value, `${at}.value`, 0, 4096))
        : { field: at, message: 'must be an object' },
    )
  );
}

export function chatMessage(body: unknown): Broken | undefined {
  if (!isObject(body)) return { field: '(body)', message: 'must be a JSON object' };
  const broken = text(body.text, 'text', 1, 4096);
  if (broken || body.attachmentIds === undefined) return broken;
  return list(body.attachmentIds, 'attachmentIds', 0, 10, (v, at) =>
    typeof v === 'string' && UUID.test(v) ? undefined : { field: at, message: 'must be a uuid' },
  );
}

export function transitionBody(body: unknown): Broken | undefined {
  if (body === undefined) return undefined;
  if (!isObject(body)) return { field: '(body)', message: 'must be a JSON object' };
  return body.comment === undefined ? undefined : text(body.comment, 'comment', 0, 1000);
}

export function documentData(body: unknown): Broken | undefined {
  if (!isObject(body)) return { field: '(body)', message: 'must be a JSON object' };
  if (!DOCUMENT_TYPES.includes(body.documentType as string))
    return { field: 'documentType', message: `must be one of ${DOCUMENT_TYPES.join(', ')}` };
  if (body.attachmentId !== undefined && !(typeof body.attachmentId === 'string' && UUID.test(body.attachmentId)))
    return { field: 'attachmentId', message: 'must be a uuid' };
  return list(body.fields, 'fields', 1, 200, field);
}

export function taxFormUpload(body: unknown): Broken | undefined {
  if (!isObject(body)) return { field: '(body)', message: 'must be a JSON object' };
  const broken = text(body.fileName, 'fileName', 1, 255);
  if (broken) return broken;
  if (body.mimeType !== 'application/pdf' && body.mimeType !== 'application/xml')
    return { field: 'mimeType', message: 'must be application/pdf or application/xml' };
  if (typeof body.content !== 'string' || body.content === '' || !BASE64.test(body.content))
    return { field: 'content', message: 'must be non-empty base64' };
  return undefined;
}
