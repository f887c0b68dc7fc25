/**
 * Facts of spec 5.5, 7 and 9 that a served document can show beyond single fields: the error answer
 * for heavy service load, the loyalty history method's error codes, error examples with errorDetails,
 * certificates in PEM, and field additions being optional. Each check returns failures naming the requirement, or throws NotLocated
 * when the document does not describe what the fact is about (the suite reports that as inconclusive).
 * How each fact is read is written beside its requirement in specs/requirements.yaml.
 */
import { isJsonObject } from '../../text/json.ts';
import { failure, type Failure } from '../../checks/failure.ts';
import { unfollowedRef } from './dereference.ts';
import { NotLocated } from './locate.ts';
import { parseOperationName, type DocumentOperation, type OperationIndex } from './paths.ts';
import { requiredAdditions } from './versions.ts';

type Node = Record<string, unknown>;

const isObject = (v: unknown): v is Node => isJsonObject<Node>(v);

/** The statuses of an operation whose response declares a body (a media type with a schema). */
function statusesWithBody(op: DocumentOperation): string[] {
  const responses = isObject(op.operation.responses) ? op.operation.responses : {};
  return Object.entries(responses)
    .filter(
      ([, r]) =>
        isObject(r) && !unfollowedRef(r) && isObject(r.content) && Object.values(r.content).some((m) => isObject(m) && isObject(m.schema)),
    )
    .map(([status]) => status);
}

function located(index: OperationIndex, name: string): DocumentOperation {
  const { method, path } = parseOperationName(name);
  const found = index.find(method, path);
  if (!found) throw new NotLocated(`the document does not describe ${name}`);
  return found;
}

const HEAVY_LOAD = new Set(['429', '503']);

/** Part 7: "a dedicated error specification exists for heavy service load": some operation documents a 429 or 503 with a body. */
export function heavyLoadErrorDocumented(index: OperationIndex, requirement: string): Failure[] {
  if (index.all.some((op) => statusesWithBody(op).some((s) => HEAVY_LOAD.has(s)))) return [];
  const bare = index.all.filter(
    (op) => isObject(op.operation.responses) && Object.keys(op.operation.responses).some((s) => HEAVY_LOAD.has(s)),
  ).length;
  return [
    failure(
      requirement,
      'an error answer for heavy service load (429 or 503) documented with a body by at least one operation',
      `${index.all.length} operations, ${bare} of them with a 429 or 503 without a body`,
    ),
  ];
}

export const LOYALTY_HISTORY = 'POST /api/v1/loyalty/clients/cashback/history';
const ERROR_STATUS = /^([45](\d\d|XX)|default)$/i;

/** Part 7: "the loyalty history method has an added error code": the method documents error answers with a body. */
export function loyaltyHistoryErrorsDocumented(index: OperationIndex, requirement: string): Failure[] {
  const op = located(index, LOYALTY_HISTORY);
  if (statusesWithBody(op).some((s) => ERROR_STATUS.test(s))) return [];
  const statuses = Object.keys(isObject(op.operation.responses) ? op.operation.responses : {});
  return [
    failure(
      requirement,
      `${LOYALTY_HISTORY} documents its error answers (a 4xx, 5xx or default response with a body)`,
      statuses.length ? `responses ${statuses.join(', ')}, none an error with a body` : 'no responses',
    ),
  ];
}

/** The examples of a media object: its `example`, and the `value` of each of its `examples`. */
function examplesOf(media: unknown): unknown[] {
  if (!isObject(media)) return [];
  const named = isObject(media.examples)
    ? Object.values(media.examples)
        .filter(isObject)
        .map((e) => e.value)
    : [];
  return [...('example' in media ? [media.example] : []), ...named].filter((e) => e !== undefined);
}

const filled = (value: unknown) =>
  (isObject(value) && Object.keys(value).length > 0) ||
  (Array.isArray(value) && value.length > 0) ||
  (typeof value === 'string' && value !== '');

/** Part 7: "error examples include a non-empty field errorDetails": some example of an error answer carries one. */
export function errorExamplesCarryDetails(index: OperationIndex, requirement: string): Failure[] {
  const examples = index.all.flatMap((op) =>
    Object.entries(isObject(op.operation.responses) ? op.operation.responses : {})
      .filter(([status, r]) => ERROR_STATUS.test(status) && isObject(r) && isObject(r.content))
      .flatMap(([, r]) => Object.values((r as Node).content as Node).flatMap(examplesOf)),
  );
  if (!examples.length) throw new NotLocated('the document gives no example of an error answer');
  if (examples.some((e) => isObject(e) && filled(e.errorDetails))) return [];
  return [
    failure(
      requirement,
      'an example of an error answer with a non-empty errorDetails',
      `${examples.length} examples of error answers, none with a non-empty errorDetails`,
    ),
  ];
}

export const CERTIFICATE_READ = 'GET /tls/api/v1/qualified-digital-signature/issue/{issueRequestId}/certificate';
const PEM_MEDIA = /pem/i;
const PEM_WORDS = /\bPEM\b|-----BEGIN /;
const MAX_NODES = 2000;

/** A string field named like a certificate whose description, example or pattern shows PEM. */
function pemField(schema: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: Array<[string, unknown]> = [['', schema]];
  while (queue.length && seen.size < MAX_NODES) {
    const [name, node] = queue.shift()!;
    if (!isObject(node) || seen.has(node)) continue;
    seen.add(node);
    const text = [node.description, node.pattern, node.example, node.title].filter((v) => typeof v === 'string').join(' ');
    if (/cert/i.test(name) && PEM_WORDS.test(text)) return true;
    for (const [k, v] of Object.entries(isObject(node.properties) ? node.properties : {})) queue.push([k, v]);
    for (const key of ['allOf', 'oneOf', 'anyOf'])
      for (const part of Array.isArray(node[key]) ? (node[key] as unknown[]) : []) queue.push([name, part]);
    if (node.items) queue.push([name, node.items]);
  }
  return false;
}

/** 5.5: "Issued certificates are in PEM format": the certificate read answers PEM, by media type or by its certificate field. */
export function certificatesInPem(index: OperationIndex, requirement: string): Failure[] {
  const op = located(index, CERTIFICATE_READ);
  const responses = isObject(op.operation.responses) ? op.operation.responses : {};
  const success = Object.entries(responses).filter(([s, r]) => /^2(\d\d|XX)$/i.test(s) && isObject(r) && isObject(r.content));
  if (!success.length) throw new NotLocated(`${CERTIFICATE_READ} documents no success answer with a body`);
  const media = success.flatMap(([, r]) => Object.entries((r as Node).content as Node));
  if (media.some(([type, m]) => PEM_MEDIA.test(type) || (isObject(m) && pemField(m.schema)))) return [];
  return [
    failure(
      requirement,
      `${CERTIFICATE_READ} answers the certificate in PEM (a PEM media type, or a certificate field described as PEM)`,
      `media types ${media.map(([t]) => t).join(', ')}, no PEM shown`,
    ),
  ];
}

/** Part 9: "field additions are optional fields". */
export function additionsOptional(index: OperationIndex, requirement: string): Failure[] {
  return requiredAdditions(index).map((a) =>
    failure(requirement, `${a.field} is optional: the newer version adds it (${a.pair})`, 'required'),
  );
}
