/**
 * Facts of spec 7 about business error bodies, as pure functions of parsed bodies: whether enumeration
 * validation errors share one output format ("enumeration validation errors have a fixed output
 * format") and whether a 403 carries the reasons of the error ("403 responses carry the reasons of the
 * error").
 */
import { failure, type Failure } from '../../checks/failure.ts';
import type { CapturedResponse } from '../../request/http.ts';
import { isJsonObject } from '../../text/json.ts';
import { isJsonAnswer } from '../../request/media-type.ts';

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

/** Spec 7: "a 400 error is returned as JSON": a 400 labelled JSON whose body parses. Other statuses are not this fact's. */
export function jsonWhere400(res: CapturedResponse, requirement: string, where: string): Failure[] {
  if (res.status !== 400 || isJsonAnswer(res)) return [];
  return [
    failure(
      requirement,
      `${where}: a 400 answer in JSON (Content-Type application/json or +json, a body that parses)`,
      `Content-Type ${res.headers['content-type'] ?? '(none)'}${res.jsonError ? `, body not JSON (${res.jsonError})` : res.rawBody === '' ? ', an empty body' : ''}`,
    ),
  ];
}

/** An error answer, with what the served document says of its body (where it gives the status a JSON schema). */
export interface ErrorAnswer {
  what: string;
  body: unknown;
  /** The top-level fields the documented schema declares, and those it requires. */
  documented?: { declared: ReadonlySet<string>; required: ReadonlySet<string> };
}

/**
 * How the answers differ in output format; none when they share one. The format is the fields and their
 * JSON types: a field two answers carry with different types differs, and so does a field some carry and
 * another lacks, unless that other's documented schema makes it optional (declared, not required). An
 * optional errorDetails on one error and not on another is one format; errorMessage on one and message
 * on another, or a field the document does not declare on some only, is not.
 */
export function formatDifferences(answers: readonly ErrorAnswer[]): string[] {
  const objects = answers.filter((a) => isJsonObject(a.body)) as Array<ErrorAnswer & { body: Record<string, unknown> }>;
  const out = answers.filter((a) => !isJsonObject(a.body)).map((a) => `${a.what}: a ${kindOf(a.body)}, not an object`);
  const fields = [...new Set(objects.flatMap((a) => Object.keys(a.body)))].sort();
  for (const field of fields) {
    const carriers = objects.filter((a) => field in a.body);
    const kinds = [...new Set(carriers.map((a) => kindOf(a.body[field])))];
    if (kinds.length > 1) out.push(`${field} is ${carriers.map((a) => `a ${kindOf(a.body[field])} in ${a.what}`).join(', ')}`);
    for (const lacking of objects.filter((a) => !(field in a.body))) {
      const optional = lacking.documented?.declared.has(field) && !lacking.documented.required.has(field);
      if (!optional)
        out.push(
          `${field} is in ${carriers[0].what} but not in ${lacking.what}, whose documented schema ${lacking.documented ? (lacking.documented.declared.has(field) ? 'requires it' : 'does not declare it') : 'is not known'}`,
        );
    }
  }
  return out;
}

/**
 * Words that say no reason: those that only restate a refusal ("Forbidden", "Access denied", "403",
 * "Нет прав"), courtesy ("please try again later", "contact support") and the small words around them,
 * in English and Russian. A message of nothing else ("You have no access. Please try again later.")
 * carries no reason; one that names the scope, the certificate, the resource or the rule does.
 */
const NO_REASON_WORDS = new Set(
  [
    // the refusal itself
    'forbidden access accessing denied not allowed permitted permission permissions rights right authorized unauthorized',
    'authorised unauthorised refused rejected error failed failure request requested http status code',
    // courtesy and advice
    'please try again later sorry retry contact support administrator admin help',
    // small words
    'the a an this that these those it its is are was were be been being you your we our us they them',
    'have has had do does did done can cannot could may might must will would no none to of for in on at by with',
    'from as and or but here there now currently yet any some all perform make get use using resource operation action method page',
    // Russian
    'доступ доступа доступе запрещен запрещён запрещено отказано ошибка нет прав права разрешения разрешено',
    'пожалуйста попробуйте повторите позже извините обратитесь поддержку администратору',
    'в у вас вам к для на не по с и или этой этому этот это данной данному данный ресурсу ресурс операции действия запрос',
  ]
    .join(' ')
    .split(' '),
);

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
    if (saysMore(text)) return key;
  }
  return undefined;
}

/** Whether a text says more than a refusal: a word beyond NO_REASON_WORDS. */
const saysMore = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .some((w) => w.length > 1 && !NO_REASON_WORDS.has(w));

/**
 * Where a 403 answer says why: its JSON body's reasons (reasonsOf), or, for a body that is not JSON, a
 * text that says more than the refusal (an HTML page's words count, its tags do not). Undefined when it
 * carries no reason.
 */
export function reasonsIn(res: CapturedResponse): string | undefined {
  if (res.json !== undefined) return reasonsOf(res.json);
  return saysMore(res.rawBody.replace(/<[^>]*>/g, ' ')) ? 'the body' : undefined;
}

/** A 403 answer carries the reasons of the error (spec 7), as a failure naming `where` when it does not. */
export function reasonsCarried(res: CapturedResponse, requirement: string, where: string): Failure[] {
  if (reasonsIn(res) !== undefined) return [];
  const body = isJsonObject(res.json) ? res.json : undefined;
  return [
    failure(
      requirement,
      `${where}: a 403 that says why (a non-empty errorDetails, reasons or reason, or a message that says more than the refusal)`,
      body
        ? `errorMessage ${JSON.stringify(body.errorMessage ?? body.message)}, errorDetails ${JSON.stringify(body.errorDetails)}`
        : res.rawBody
          ? `a body that says no more than the refusal: ${res.rawBody.slice(0, 120)}`
          : 'an empty body',
    ),
  ];
}
