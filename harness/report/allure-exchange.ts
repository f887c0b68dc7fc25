/**
 * A HAR entry of the run's evidence in the forms an Allure report shows beside a test: Allure's own HTTP
 * exchange (`application/vnd.allure.http+json`, which its report renders as request and answer) and the
 * curl line that repeats the request. Both come from the entry as the HAR file holds it, every credential
 * already masked and each body cut where the HAR cut it.
 */
import type { HttpExchange, HttpExchangeBody, HttpExchangeNameValue } from 'allure-js-commons';
import { curlOf } from '../secrets/curl.ts';

interface HarBody {
  text?: string;
  mimeType?: string;
  size?: number;
  comment?: string;
}

/** The fields of a HAR 1.2 entry (har.ts) that these forms read. */
export interface HarEntry {
  _id?: string;
  _error?: string;
  startedDateTime?: string;
  time?: number;
  request: {
    method: string;
    url: string;
    httpVersion?: string;
    headers?: HttpExchangeNameValue[];
    queryString?: HttpExchangeNameValue[];
    postData?: HarBody;
    bodySize?: number;
  };
  response: { status: number; httpVersion?: string; headers?: HttpExchangeNameValue[]; content?: HarBody };
}

function body(part: HarBody | undefined, bytes: number | undefined): HttpExchangeBody | undefined {
  if (part?.text === undefined) return undefined;
  return {
    contentType: part.mimeType || undefined,
    encoding: 'utf8',
    value: part.text,
    size: bytes ?? part.size,
    truncated: part.comment?.startsWith('cut:') ?? false,
  };
}

/** The entry as Allure's HTTP exchange; an exchange that got no whole answer carries its error instead. */
export function httpExchangeOf(entry: HarEntry): HttpExchange {
  const start = entry.startedDateTime ? Date.parse(entry.startedDateTime) : undefined;
  const { request, response } = entry;
  return {
    schemaVersion: 1,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: request.httpVersion,
      headers: request.headers,
      query: request.queryString,
      body: body(request.postData, request.bodySize),
    },
    ...(response.status
      ? {
          response: {
            status: response.status,
            httpVersion: response.httpVersion,
            headers: response.headers,
            body: body(response.content, response.content?.size),
          },
        }
      : {}),
    ...(entry._error ? { error: { message: entry._error } } : {}),
    ...(start !== undefined ? { start, stop: start + (entry.time ?? 0) } : {}),
  };
}

/** One line that names the entry and its answer: `evidence/insurance.har#e12 POST …/create/ → 201`. */
export function exchangeTitle(ref: string, entry: HarEntry): string {
  const answer = entry.response.status ? String(entry.response.status) : `no answer (${entry._error ?? 'none recorded'})`;
  return `${ref} ${entry.request.method} ${entry.request.url} → ${answer}`;
}

/** The curl command that repeats the entry's request, credentials masked as the entry has them. */
export function curlOfEntry(entry: HarEntry): string {
  const headers = Object.fromEntries((entry.request.headers ?? []).map(({ name, value }) => [name, value]));
  return curlOf({ method: entry.request.method, url: entry.request.url, headers, bodyText: entry.request.postData?.text });
}
