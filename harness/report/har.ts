/**
 * Exchange records as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the format browsers'
 * developer tools and HTTP tools import. Each entry carries its id (`_id`, what a test record points
 * at), its area and operation (`_area`, `_operation`), and, for an exchange that got no whole answer,
 * why (`_error`, as browsers write it, and `comment`), with status 0. The time spent waiting for a
 * pacing slot is the entry's `blocked` time. Headers are those the suite set (the HTTP library adds
 * host, length and connection); bodies are cut at the record's cap, which `comment` says.
 */
import type { ExchangeRecord, RecordedBody } from './exchange-record.ts';

interface NameValue {
  name: string;
  value: string;
}

const pairs = (headers: Array<[string, string]>): NameValue[] => headers.map(([name, value]) => ({ name, value }));
const headerOf = (headers: Array<[string, string]>, name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1];
const cutNote = (body: RecordedBody | undefined) =>
  body?.cutAt ? { comment: `cut: the first ${body.cutAt} of ${body.bytes} bytes are kept` } : {};

function queryOf(url: string): NameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function request(r: ExchangeRecord) {
  const { method, url, headers, body } = r.request;
  return {
    method,
    url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: pairs(headers),
    queryString: queryOf(url),
    ...(body ? { postData: { mimeType: headerOf(headers, 'content-type') ?? '', text: body.text, ...cutNote(body) } } : {}),
    headersSize: -1,
    bodySize: body?.bytes ?? 0,
  };
}

function response(r: ExchangeRecord) {
  if (!r.response)
    return {
      status: 0,
      statusText: '',
      httpVersion: '',
      cookies: [],
      headers: [],
      content: { size: 0, mimeType: '' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      _error: r.error,
    };
  const { status, headers, body } = r.response;
  return {
    status,
    statusText: '',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: pairs(headers),
    content: {
      size: body?.bytes ?? 0,
      mimeType: headerOf(headers, 'content-type') ?? '',
      ...(body ? { text: body.text } : {}),
      ...cutNote(body),
    },
    redirectURL: headerOf(headers, 'location') ?? '',
    headersSize: -1,
    bodySize: body?.bytes ?? 0,
  };
}

/** One HAR entry of a record, under its id. */
export function harEntry(r: ExchangeRecord, id: string): Record<string, unknown> {
  const wait = r.waitMs ?? r.durationMs;
  const receive = r.receiveMs ?? 0;
  return {
    _id: id,
    _area: r.area,
    _operation: r.operation,
    startedDateTime: new Date(r.startedAt).toISOString(),
    time: r.pacedMs + wait + receive,
    request: request(r),
    response: response(r),
    cache: {},
    timings: { blocked: r.pacedMs, dns: -1, connect: -1, ssl: -1, send: 0, wait, receive },
    ...(r.error ? { _error: r.error, comment: r.error } : {}),
  };
}

/**
 * A HAR file's text from entries already serialised one by one (each body is turned into JSON once,
 * and an entry is one line, so a file stays greppable).
 */
export function harText(creator: { name: string; version: string }, comment: string, entries: readonly string[]): string {
  const head = JSON.stringify({ version: '1.2', creator, comment });
  return `{"log":${head.slice(0, -1)},"entries":[\n${entries.join(',\n')}\n]}}\n`;
}

/** The entries of a HAR file's text, for a merge of shard reports. */
export function harEntries(text: string): Array<Record<string, unknown>> {
  const har = JSON.parse(text) as { log?: { entries?: Array<Record<string, unknown>> } };
  return har.log?.entries ?? [];
}
