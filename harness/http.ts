/**
 * HTTP on undici `request`, bounded in every direction: the safety gate before any socket opens; the
 * pacer (one slot in the service's schedule and the operation group's at once); a total deadline per
 * request (connect, headers and the whole body) that the running test's budget also aborts; a body
 * read as a stream and cut off past a size cap; redirects never followed; a 429 waited out only as
 * long as the target file allows; an origin that keeps failing given up on. Everything that stops a
 * request is a ToolError with its code (harness/errors.ts), never a response a check could judge.
 * The response is captured as status, headers, raw body and parsed JSON (or the parse error).
 */
import { request, type Dispatcher } from 'undici';
import { curlOf } from './curl.ts';
import { ToolError, type ToolErrorCode } from './errors.ts';
import { intervalMs, LocalPacer, sleep, type PaceKey, type Pacer } from './pacer.ts';
import { assertAllowed, type SideEffect } from './safety.ts';
import type { Area, RateLimit, Target } from './target.ts';
import { currentTestScope } from './test-scope.ts';
import { discard, readBounded } from './transport/body.ts';
import { RequestDeadline } from './transport/deadline.ts';
import { classifyTransportError, type ExchangeState } from './transport/errors.ts';
import { OriginHealth } from './transport/origin-health.ts';
import { retryAfterOf } from './transport/retry-after.ts';

export interface RequestSpec {
  area: Area;
  /** "METHOD /path-template", as the safety gate and reports name it. */
  operation: string;
  sideEffect: SideEffect;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  url: string;
  headers?: Record<string, string>;
  /** Serialised with JSON.stringify and sent as application/json (unless a content-type is given). */
  json?: unknown;
  /** Raw body, sent as is: malformed JSON, forms, huge numbers. */
  body?: string | Buffer;
  /** This request's total deadline, when it is not the target file's `settings.timeoutMs`. */
  timeoutMs?: number;
  /** `burst` skips the pacer and returns a 429 as it came: only rate-limit tests use it. */
  pacing?: 'paced' | 'burst';
  /**
   * The operation's group when it has a documented limit of its own (business groups), with the key
   * its budget is shared under, e.g. 'business:ndfl3'. The service's limit holds as well.
   */
  rateGroup?: { key: string; limit: RateLimit };
  /**
   * `refuse` (the default): a 3xx with a Location is a TARGET_REDIRECT tool error. `capture`: the 3xx
   * is returned as the answer, for a check to which a redirect is a legitimate outcome.
   */
  redirects?: 'refuse' | 'capture';
  dispatcher?: Dispatcher;
}

export interface CapturedResponse {
  status: number;
  headers: Record<string, string>;
  rawBody: string;
  /** The parsed body, when it parsed as JSON. */
  json?: unknown;
  /** Why the body did not parse as JSON (absent when it did, or when it was empty). */
  jsonError?: string;
  durationMs: number;
  /** 429 answers the client waited out before this response. */
  retried429: number;
  request: { method: string; url: string; headers: Record<string, string>; bodyText?: string };
  curl: string;
}

export interface HttpClientOptions {
  pacer?: Pacer;
  /** The documented limit of each service (specs/limits.yaml), unless the target file overrides it. */
  limits?: Partial<Record<Area, RateLimit>>;
  undocumentedLimit?: RateLimit;
  /** Prefixes every pacing key: a batch run's variants are separate targets, each with its own budgets. */
  paceScope?: string;
}

interface Outgoing {
  headers: Record<string, string>;
  body?: string | Buffer;
  bodyText?: string;
}

const FALLBACK_LIMIT: RateLimit = { requests: 40, perSeconds: 1 };

export class HttpClient {
  private readonly pacer: Pacer;
  private readonly health = new OriginHealth();
  constructor(
    readonly target: Target,
    private readonly options: HttpClientOptions = {},
  ) {
    this.pacer = options.pacer ?? new LocalPacer();
  }

  limitOf(area: Area): RateLimit {
    return this.target.services[area]?.rateLimit ?? this.options.limits?.[area] ?? this.options.undocumentedLimit ?? FALLBACK_LIMIT;
  }

  /** The budgets a request counts against: always its service's, and its group's when it has one. */
  paceKeys(spec: Pick<RequestSpec, 'area' | 'rateGroup'>): PaceKey[] {
    // The run's share of every limit (a shard of n: 1/n) is already folded into paceFraction (runner/effective-target.ts).
    const fraction = this.target.settings.paceFraction;
    const scoped = (key: string) => (this.options.paceScope ? `${this.options.paceScope}/${key}` : key);
    const keys: PaceKey[] = [{ key: scoped(spec.area), intervalMs: intervalMs(this.limitOf(spec.area), fraction) }];
    if (spec.rateGroup) keys.push({ key: scoped(spec.rateGroup.key), intervalMs: intervalMs(spec.rateGroup.limit, fraction) });
    return keys;
  }

  async send(spec: RequestSpec): Promise<CapturedResponse> {
    assertAllowed(this.target, spec.sideEffect, spec.operation);
    const origin = originOf(spec.url);
    const outgoing = prepare(spec);
    const paced = spec.pacing !== 'burst';
    const testSignal = currentTestScope()?.signal;
    const { retry429, maxRetryAfterMs } = this.target.settings;
    for (let attempt = 0; ; attempt++) {
      this.health.assertAlive(origin, spec.operation);
      if (paced) await this.waiting(() => this.pacer.wait(this.paceKeys(spec), testSignal), spec, 'for a pacing slot');
      const response = await this.once(spec, outgoing, attempt, testSignal);
      if (response.status !== 429 || !paced) return response;
      const asked = retryAfterOf(response.headers);
      const header = asked.header ?? 'no Retry-After, so 1 s';
      if (asked.ms > maxRetryAfterMs) {
        throw this.toolError('TARGET_RATE_LIMITED', `${spec.operation} at ${origin} answered 429 asking to wait ${Math.round(asked.ms / 1000)} s (${header}), more than the cap of ${maxRetryAfterMs} ms (settings.maxRetryAfterMs)`);
      }
      if (attempt >= retry429) {
        throw this.toolError('TARGET_RATE_LIMITED', `${spec.operation} at ${origin} still answered 429 after ${attempt} retr${attempt === 1 ? 'y' : 'ies'} (settings.retry429 ${retry429}) (last ${header})`);
      }
      await this.waiting(() => sleep(asked.ms, testSignal), spec, `out the 429's ${header}`);
    }
  }

  /** A wait the test's budget may end: then a TARGET_TIMEOUT naming what was waited for. */
  private async waiting(wait: () => Promise<void>, spec: RequestSpec, what: string): Promise<void> {
    try {
      await wait();
    } catch (error) {
      if (error instanceof ToolError) throw error;
      throw this.toolError('TARGET_TIMEOUT', `${spec.operation} was not sent: the test's time budget ran out while waiting ${what}`);
    }
  }

  private async once(spec: RequestSpec, outgoing: Outgoing, retried: number, testSignal: AbortSignal | undefined): Promise<CapturedResponse> {
    const { settings } = this.target;
    const origin = originOf(spec.url);
    const deadline = new RequestDeadline(spec.timeoutMs ?? settings.timeoutMs, testSignal);
    const state: ExchangeState = { operation: spec.operation, origin, deadline, bodyBytes: 0 };
    const started = performance.now();
    let status: number;
    let headers: Record<string, string>;
    let rawBody: string;
    try {
      const res = await request(spec.url, {
        method: spec.method,
        headers: outgoing.headers,
        body: outgoing.body,
        signal: deadline.signal,
        headersTimeout: deadline.deadlineMs,
        bodyTimeout: deadline.deadlineMs,
        dispatcher: spec.dispatcher,
      });
      status = state.status = res.statusCode;
      headers = flattenHeaders(res.headers);
      if (status >= 300 && status < 400 && headers.location !== undefined && spec.redirects !== 'capture') {
        discard(res.body);
        this.health.answered(origin);
        throw this.toolError('TARGET_REDIRECT', `${spec.operation} at ${origin} answered ${status}, Location: ${headers.location} (the suite never follows redirects)`);
      }
      const read = await readBounded(res.body, settings.maxResponseBytes, headers['content-length'], (n) => (state.bodyBytes = n));
      // Only a whole answer clears the origin's failures: one that sends headers and then drips its body is as dead as a silent one.
      this.health.answered(origin);
      if (!read.ok) {
        const how = read.announced !== undefined && read.readBytes === 0 ? `it announced Content-Length ${read.announced}` : `cut off after ${read.readBytes} bytes`;
        throw this.toolError('TARGET_RESPONSE_TOO_LARGE', `${spec.operation} at ${origin}: the answer (status ${status}) is larger than the cap of ${settings.maxResponseBytes} bytes (settings.maxResponseBytes); ${how}`);
      }
      rawBody = read.bytes.toString('utf8');
    } catch (error) {
      if (error instanceof ToolError) throw error;
      const classified = classifyTransportError(error, state);
      if (classified.countsAgainstOrigin) this.health.failed(origin, classified.error);
      throw this.redacted(classified.error);
    } finally {
      deadline.dispose();
    }
    const captured = { method: spec.method, url: spec.url, headers: outgoing.headers, bodyText: outgoing.bodyText };
    const out: CapturedResponse = {
      status,
      headers,
      rawBody,
      durationMs: performance.now() - started,
      retried429: retried,
      request: captured,
      curl: this.target.redactor.redact(curlOf(captured)),
    };
    if (rawBody.length > 0) {
      try {
        out.json = JSON.parse(rawBody);
      } catch (error) {
        out.jsonError = (error as Error).message;
      }
    }
    return out;
  }

  private toolError(code: ToolErrorCode, message: string): ToolError {
    return new ToolError(code, this.target.redactor.redact(message));
  }

  private redacted(error: ToolError): ToolError {
    return this.toolError(error.code as ToolErrorCode, error.message.slice(error.code.length + 2));
  }
}

function prepare(spec: RequestSpec): Outgoing {
  const headers: Record<string, string> = { ...(spec.headers ?? {}) };
  let body: string | Buffer | undefined = spec.body;
  if (spec.json !== undefined) {
    body = JSON.stringify(spec.json);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  }
  const bodyText = body === undefined ? undefined : typeof body === 'string' ? body : body.toString('utf8');
  return { headers, body, bodyText };
}

/**
 * The body part of a suite's JSON call: the value as JSON, or raw text (a malformed body, a huge number)
 * labelled application/json unless a content type is given; `headers` gains that label.
 */
export function jsonPayload(value: unknown, options: { raw?: string; contentType?: string }, headers: Record<string, string>): Pick<RequestSpec, 'headers' | 'json' | 'body'> {
  const contentType = options.contentType ?? (options.raw !== undefined ? 'application/json' : undefined);
  return { headers: contentType ? { ...headers, 'content-type': contentType } : headers, ...(options.raw !== undefined ? { body: options.raw } : { json: value }) };
}

export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
