/**
 * Facts of spec 7 about business error bodies, as pure functions of a parsed body: the format of an
 * enumeration validation error ("enumeration validation errors have a fixed output format") and whether
 * a 403 carries the reasons of the error ("403 responses carry the reasons of the error").
 */
import { isJsonObject } from '../../json.ts';

const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * The output format of an error body: its top-level fields, each with its JSON type ("errorCode:string,
 * errorDetails:object"). Values are not the format: two errors about different fields say different
 * things in the same format.
 */
export function errorFormat(body: unknown): string {
  if (!isJsonObject(body)) return `(${kindOf(body)}, not an object)`;
  return Object.keys(body)
    .sort()
    .map((key) => `${key}:${kindOf(body[key])}`)
    .join(', ');
}

/** Words that only restate a refusal ("Forbidden", "Access denied", "403"), in English and Russian. */
const STATUS_WORDS = new Set([
  'forbidden',
  'access',
  'denied',
  'is',
  'not',
  'allowed',
  'permitted',
  'permission',
  'error',
  'request',
  'http',
  'status',
  'code',
  'the',
  'unauthorized',
  'refused',
  'доступ',
  'запрещен',
  'запрещён',
  'запрещено',
  'отказано',
  'в',
  'ошибка',
  'доступе',
]);

const nonEmpty = (value: unknown) =>
  (isJsonObject(value) && Object.keys(value).length > 0) ||
  (Array.isArray(value) && value.length > 0) ||
  (typeof value === 'string' && value.trim() !== '');

/**
 * Where a refusal's body says why, if it does: a non-empty errorDetails, reasons or reason, or a
 * message (errorMessage, message) that says more than the refusal itself ("the token lacks the scope
 * card/get", not "Forbidden"). Undefined when it carries no reason.
 */
export function reasonsOf(body: unknown): string | undefined {
  if (!isJsonObject(body)) return undefined;
  for (const key of ['errorDetails', 'reasons', 'reason']) if (nonEmpty(body[key])) return key;
  for (const key of ['errorMessage', 'message']) {
    const text = body[key];
    if (typeof text !== 'string') continue;
    const words = text
      .toLowerCase()
      .split(/[^\p{L}]+/u)
      .filter((w) => w.length > 1 && !STATUS_WORDS.has(w));
    if (words.length) return key;
  }
  return undefined;
}
