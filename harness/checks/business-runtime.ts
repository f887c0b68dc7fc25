/**
 * Checks of the business operations as served, against the FETCHED document (spec 4.5, 5.5, 7, 8):
 * no server error, a documented status, a documented content type, a body that conforms to the
 * documented schema, valid requests accepted and invalid ones rejected, refusals without credentials,
 * the vendor's error body. Pure functions of (operation model, response); each failure names the
 * requirement, what was expected and what came back.
 */
import type { CapturedResponse } from '../http.ts';
import type { DocumentSchemas } from '../openapi/json-schema.ts';
import { responseFor, type OperationModel } from '../openapi/operation-model.ts';
import { failure, type Failure } from './failure.ts';

const mediaOf = (res: CapturedResponse) => res.headers['content-type']?.split(';')[0].trim().toLowerCase();
const isJsonMedia = (media: string | undefined) => media !== undefined && (media === 'application/json' || media.endsWith('+json'));
const documented = (op: OperationModel) => op.responses.map((r) => r.key.toLowerCase()).join(', ') || 'none';

/** Spec part 7 / CHECKS no-5xx: a 5xx is never the answer to a request the document allows. */
export function noServerError(res: CapturedResponse, requirement: string): Failure[] {
  if (res.status < 500) return [];
  const gateway = [502, 503, 504].includes(res.status) ? ' (a gateway or availability error: the target may be overloaded or down)' : '';
  return [failure(requirement, 'no 5xx answer to a valid request', `status ${res.status}${gateway}`)];
}

/** The status is documented for the operation (exact, its range, or `default`); an undocumented 401 or 429 is tolerated. */
export function statusDocumented(op: OperationModel, res: CapturedResponse, requirement: string): Failure[] {
  if (responseFor(op, res.status) || res.status === 401 || res.status === 429) return [];
  return [failure(requirement, `a status ${op.name} documents (${documented(op)})`, `undocumented status ${res.status}`)];
}

/** The Content-Type (type/subtype; charset ignored) is one the document lists for that status. */
export function contentTypeDocumented(op: OperationModel, res: CapturedResponse, requirement: string): Failure[] {
  const response = responseFor(op, res.status);
  if (!response || response.content.length === 0 || res.status === 204 || res.rawBody === '') return [];
  const media = mediaOf(res);
  const listed = response.content.map((c) => c.mediaType);
  const fits = (m: string) => m === media || m === '*/*' || (m.endsWith('/*') && media?.startsWith(m.slice(0, -1)));
  if (media && listed.some(fits)) return [];
  return [failure(requirement, `Content-Type ${listed.join(' or ')} for status ${res.status}`, media ? `Content-Type ${res.headers['content-type']}` : 'no Content-Type')];
}

/** The body of a JSON answer conforms to the schema documented for its status (one failure per ajv error). */
export function bodyConforms(op: OperationModel, res: CapturedResponse, schemas: DocumentSchemas, requirement: string): Failure[] {
  const response = responseFor(op, res.status);
  const json = response?.content.find((c) => isJsonMedia(c.mediaType) && c.schema);
  if (!json?.schema || res.status === 204) return [];
  if (!isJsonMedia(mediaOf(res))) return [];
  if (res.rawBody === '') return [failure(requirement, `a JSON body for status ${res.status}`, 'an empty body')];
  if (res.jsonError) return [failure(requirement, `a JSON body for status ${res.status}`, `a body that is not JSON (${res.jsonError})`)];
  const validate = schemas.validator(json.schema, 'response');
  if (validate(res.json)) return [];
  return (validate.errors ?? []).slice(0, 10).map((e) => failure(requirement, `${e.message ?? e.keyword} [${e.schemaPath}] (status ${res.status} of ${op.name})`, shown(res.json, e.instancePath), e.instancePath || '/'));
}

function shown(value: unknown, pointer: string): string {
  let node = value;
  for (const part of pointer.split('/').slice(1)) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  const text = JSON.stringify(node);
  return text === undefined ? 'nothing' : text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Outcomes a schema-valid request may have: success, or a business answer (no such thing, not allowed, rule). */
const ACCEPTANCE = [401, 403, 404, 409, 422];

/** CHECKS positive-data-acceptance: a valid request is not refused as malformed. */
export function acceptedAsValid(res: CapturedResponse, requirement: string, options: { unknownIdentifierIs400?: boolean } = {}): Failure[] {
  if ((res.status >= 200 && res.status < 300) || ACCEPTANCE.includes(res.status)) return [];
  if (res.status === 400 && options.unknownIdentifierIs400) return [];
  return [failure(requirement, `a request valid against the document accepted (2xx) or answered as a business outcome (${ACCEPTANCE.join(', ')})`, `status ${res.status}, as if it were malformed`)];
}

/** CHECKS negative-data-rejection; the statuses that mean "this request is refused". */
export const REJECTION = [400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 428];

/** A request that breaks one rule is rejected with a 4xx; a 400 carries a JSON body (spec part 7). */
export function rejectedAsInvalid(res: CapturedResponse, requirement: string): Failure[] {
  if (!REJECTION.includes(res.status)) {
    const what = res.status < 300 ? 'accepted with' : res.status >= 500 ? 'server error' : 'status';
    return [failure(requirement, `rejected with a 4xx (${REJECTION.join(', ')})`, `${what} ${res.status}`)];
  }
  if (res.status !== 400) return [];
  if (res.rawBody === '' || res.jsonError || !isJsonMedia(mediaOf(res))) {
    const why = res.rawBody === '' ? 'an empty body' : res.jsonError ? `a body that is not JSON (${res.jsonError.split('\n')[0]})` : `Content-Type ${res.headers['content-type'] ?? 'none'}`;
    return [failure(requirement, 'a 400 with a JSON body (spec part 7)', `400 with ${why}`)];
  }
  return [];
}

/** Without credentials: refused with 401 or 403 (a 404 tolerated when the path carries generated identifiers). */
export function refusedWithoutCredentials(res: CapturedResponse, requirement: string, options: { allow: readonly number[]; tolerate404?: boolean }): Failure[] {
  if (options.allow.includes(res.status) || (options.tolerate404 && res.status === 404)) return [];
  const what = res.status < 300 ? 'served with' : 'status';
  return [failure(requirement, `refused with ${options.allow.join(' or ')}${options.tolerate404 ? ' (or 404 for a generated identifier)' : ''}`, `${what} ${res.status}`)];
}

/** The vendor's business error body: errorId, errorMessage, errorCode (strings), errorDetails (an object) when present. */
export function vendorErrorBody(res: CapturedResponse, requirement: string, where: string): Failure[] {
  if (res.status < 400 || res.status === 429 || !isJsonMedia(mediaOf(res))) return [];
  const body = res.json as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [failure(requirement, `${where}: the business error body { errorId, errorMessage, errorCode }`, res.jsonError ? 'a body that is not JSON' : `${JSON.stringify(res.json)?.slice(0, 120)}`)];
  const out: Failure[] = [];
  for (const key of ['errorId', 'errorMessage', 'errorCode']) {
    if (typeof body[key] !== 'string' || body[key] === '') out.push(failure(requirement, `${where}: ${key}, a non-empty string`, body[key] === undefined ? 'absent' : JSON.stringify(body[key])));
  }
  if ('errorDetails' in body && (typeof body.errorDetails !== 'object' || body.errorDetails === null || Array.isArray(body.errorDetails))) {
    out.push(failure(requirement, `${where}: errorDetails, an object`, JSON.stringify(body.errorDetails)));
  }
  return out;
}

/** Statuses with which a host refuses a request for its client certificate (nginx uses 400, 495, 496). */
export const CERTIFICATE_REFUSALS = [400, 401, 403, 421, 495, 496];

/** Without the client certificate on the secured host: refused in the TLS handshake or with a refusal status. */
export function refusedWithoutCertificate(outcome: { response?: CapturedResponse; error?: string }, requirement: string, isTlsRefusal: (error: string) => boolean): Failure[] {
  const expected = `refused for the missing client certificate (TLS handshake, or ${CERTIFICATE_REFUSALS.join(', ')})`;
  if (outcome.error !== undefined) return isTlsRefusal(outcome.error) ? [] : [failure(requirement, expected, `no answer, for a reason that is not a TLS refusal: ${outcome.error}`)];
  const res = outcome.response!;
  if (CERTIFICATE_REFUSALS.includes(res.status)) return [];
  return [failure(requirement, expected, res.status < 300 ? `served with ${res.status}` : `status ${res.status}`)];
}

/** On the plain host, where no certificate can be shown: never served. */
export function notServedOnPlainHost(res: CapturedResponse, requirement: string): Failure[] {
  if (res.status >= 300 && res.status < 500) return [];
  return [failure(requirement, 'not served on the plain url (a 3xx or 4xx)', res.status < 300 ? `served with ${res.status}` : `status ${res.status}`)];
}

/** With the client certificate: not refused for it. */
export function servedWithCertificate(res: CapturedResponse, requirement: string): Failure[] {
  if (![401, 403, 495, 496].includes(res.status)) return [];
  const body = res.rawBody.length > 160 ? `${res.rawBody.slice(0, 160)}…` : res.rawBody;
  return [failure(requirement, 'served with the client certificate (no 401, 403, 495 or 496)', `status ${res.status}: ${body}`)];
}
