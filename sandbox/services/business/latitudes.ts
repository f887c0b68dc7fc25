/**
 * The latitudes of the whole business service: changes of its JSON answers that a conforming backend
 * might make anywhere (the generic runtime and the 3-NDFL routes alike), each quoting the spec's words
 * that allow it. Each is an answer edit that works on any part's answer; runtime/ and ndfl3/ fold them
 * in with their own latitudes (latitudes.ts beside each), and the document's are document-latitudes.ts.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { Answer } from '../../exchange.ts';
import type { Latitude } from '../../faults/types.ts';
import { isJsonObject } from '../../json.ts';

/** A latitude that edits the answers of any business route. */
export type AnswerLatitude = Latitude & { answer: <A extends Answer>(answer: A) => A };

const PAYLOADS = 'Request and response payloads of these operations: not shown, except the fields listed in 2.6.';
const ERRORS_NOT_SHOWN =
  'Error bodies and code values of the business-banking operations, and errors of the speech and userinfo calls: not shown.';

const isJsonAnswer = (a: Answer) =>
  /^application\/(?:[\w.+-]+\+)?json\b/i.test(a.headers['content-type'] ?? '') && a.body !== undefined && typeof a.body !== 'string';
const isError = (a: Answer) => a.status >= 400;

/** Every object of a JSON value, rebuilt by `rebuild` (children first). */
function mapObjects(value: unknown, rebuild: (node: Record<string, unknown>) => Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((v) => mapObjects(v, rebuild));
  if (!isJsonObject(value)) return value;
  return rebuild(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapObjects(v, rebuild)])));
}

/** Every string of a JSON value, rewritten by `rewrite`. */
function mapStrings(value: unknown, rewrite: (text: string) => string): unknown {
  if (typeof value === 'string') return rewrite(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, rewrite));
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, rewrite)]));
}

function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const UTC_INSTANT = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?Z$/;

/** The same instant written at +03:00 (Moscow time) with milliseconds. */
function atMoscow(text: string): string {
  if (!UTC_INSTANT.test(text)) return text;
  const moscow = new Date(Date.parse(text) + 3 * 3600_000).toISOString();
  return `${moscow.slice(0, 23)}+03:00`;
}

/** The error body's details spelled out in its message: "...: field reason; field reason". */
function detailsInMessage(body: Record<string, unknown>): string {
  const details = isJsonObject(body.errorDetails) ? Object.entries(body.errorDetails).map(([k, v]) => `${k} ${String(v)}`) : [];
  const message = String(body.errorMessage ?? '');
  return details.length && !details.every((d) => message.includes(d)) ? `${message}: ${details.join('; ')}` : message;
}

const latitude = (
  id: string,
  allows: string[],
  description: string,
  answer: AnswerLatitude['answer'],
  reading?: string,
): AnswerLatitude => ({
  id,
  area: 'business',
  allows,
  description,
  ...(reading ? { reading } : {}),
  answer,
});

export const SERVICE_LATITUDES: AnswerLatitude[] = [
  latitude(
    'bus-lat-json-charset',
    ['All bodies are JSON unless stated.'],
    'every JSON answer is labelled application/json;charset=UTF-8',
    (a) => (isJsonAnswer(a) ? { ...a, headers: { ...a.headers, 'content-type': 'application/json;charset=UTF-8' } } : a),
    'A charset parameter on a JSON media type is still JSON (RFC 8259 allows it and ignores it).',
  ),
  latitude(
    'bus-lat-key-order',
    [PAYLOADS],
    'the keys of every JSON object come in a new random order in each answer',
    (a) => (isJsonAnswer(a) ? { ...a, body: mapObjects(a.body, (node) => Object.fromEntries(shuffled(Object.entries(node)))) } : a),
    'JSON objects are unordered (RFC 8259): two answers with the same members in another order say the same.',
  ),
  latitude(
    'bus-lat-extra-fields',
    ['Complete field lists of the records (orders, statements, cards, beneficiaries, receipts, rules, registries): not shown.', PAYLOADS],
    'every successful JSON answer carries a field its document does not name (traceId), at the top and in each item of its lists',
    (a) => {
      if (!isJsonAnswer(a) || isError(a)) return a;
      const traced = (node: unknown) => (isJsonObject(node) ? { ...node, traceId: randomUUID() } : node);
      const body = Array.isArray(a.body)
        ? a.body.map(traced)
        : isJsonObject(a.body)
          ? Object.fromEntries(
              Object.entries(traced(a.body) as Record<string, unknown>).map(([k, v]) => [k, Array.isArray(v) ? v.map(traced) : v]),
            )
          : a.body;
      return { ...a, body };
    },
    'The served document lists the fields it knows and forbids no others (no additionalProperties: false): a backend may send more.',
  ),
  latitude(
    'bus-lat-offset-times',
    [PAYLOADS],
    'every UTC date-time of a JSON answer is written at +03:00 with milliseconds (the same instant)',
    (a) => (isJsonAnswer(a) ? { ...a, body: mapStrings(a.body, atMoscow) } : a),
    'The document gives date-times as format date-time (RFC 3339, which allows any offset and fractional seconds); the instant is the same.',
  ),
  latitude(
    'bus-lat-no-error-details',
    ['error examples include a non-empty field errorDetails', ERRORS_NOT_SHOWN],
    'error bodies carry no errorDetails: what the details said is spelled out in errorMessage',
    (a) => {
      if (!isJsonAnswer(a) || !isError(a) || !isJsonObject(a.body) || !('errorDetails' in a.body)) return a;
      const { errorDetails: _details, ...rest } = a.body;
      return { ...a, body: { ...rest, errorMessage: detailsInMessage(a.body) } };
    },
    'errorDetails is in the examples of part 7, and optional in the document: the reasons may be in the message instead.',
  ),
  latitude(
    'bus-lat-403-reasons-in-message',
    ['403 responses carry the reasons of the error'],
    'a 403 carries an empty errorDetails, its reasons in errorMessage',
    (a) =>
      isJsonAnswer(a) && a.status === 403 && isJsonObject(a.body)
        ? { ...a, body: { ...a.body, errorMessage: detailsInMessage(a.body), errorDetails: {} } }
        : a,
    'Part 7 says a 403 carries its reasons, not in which field.',
  ),
];
