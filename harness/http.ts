/**
 * HTTP on undici `request`: a timeout on every request, the safety gate and the pacer in front of every
 * socket, the response captured as status, headers, raw body and parsed JSON (or the parse error).
 */
import { request, type Dispatcher } from 'undici';
import { curlOf } from './curl.ts';
import { ToolError } from './errors.ts';
import { intervalMs, type Pacer, LocalPacer } from './pacer.ts';
import { assertAllowed, type SideEffect } from './safety.ts';
import type { Area, RateLimit, Target } from './target.ts';

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
  timeoutMs?: number;
  /** `burst` skips the pacer and the 429 retry: only rate-limit tests use it. */
  pacing?: 'paced' | 'burst';
  /**
   * The documented limit of this operation's group when it is not the service's (business groups have
   * their own limits), with the key its budget is shared under, e.g. 'business:ndfl3'.
   */
  rateGroup?: { key: string; limit: RateLimit };
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
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class HttpClient {
  private readonly pacer: Pacer;
  constructor(
    readonly target: Target,
    private readonly options: HttpClientOptions = {},
  ) {
    this.pacer = options.pacer ?? new LocalPacer();
  }

  limitOf(area: Area): RateLimit {
    return this.target.services[area]?.rateLimit ?? this.options.limits?.[area] ?? this.options.undocumentedLimit ?? { requests: 40, perSeconds: 1 };
  }

  async send(spec: RequestSpec): Promise<CapturedResponse> {
    assertAllowed(this.target, spec.sideEffect, spec.operation);
    const headers: Record<string, string> = { ...(spec.headers ?? {}) };
    let bodyText: string | undefined;
    let body: string | Buffer | undefined = spec.body;
    if (spec.json !== undefined) {
      body = JSON.stringify(spec.json);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    }
    if (body !== undefined) bodyText = typeof body === 'string' ? body : body.toString('utf8');
    const paced = spec.pacing !== 'burst';
    const interval = intervalMs(spec.rateGroup?.limit ?? this.limitOf(spec.area), this.target.settings.paceFraction);
    const paceKey = spec.rateGroup?.key ?? spec.area;
    const maxRetries = paced ? this.target.settings.retry429 : 0;
    for (let attempt = 0; ; attempt++) {
      if (paced) await this.pacer.wait(paceKey, interval);
      const response = await this.once(spec, headers, body, bodyText, attempt);
      if (response.status !== 429 || attempt >= maxRetries) return response;
      await sleep(retryDelayMs(response.headers));
    }
  }

  private async once(spec: RequestSpec, headers: Record<string, string>, body: string | Buffer | undefined, bodyText: string | undefined, retried: number): Promise<CapturedResponse> {
    const timeout = spec.timeoutMs ?? this.target.settings.timeoutMs;
    const started = performance.now();
    const captured = { method: spec.method, url: spec.url, headers, bodyText };
    let res: Dispatcher.ResponseData;
    let rawBody: string;
    try {
      res = await request(spec.url, {
        method: spec.method,
        headers,
        body,
        headersTimeout: timeout,
        bodyTimeout: timeout,
        dispatcher: spec.dispatcher,
      });
      rawBody = await res.body.text();
    } catch (error) {
      throw transportError(error, spec, timeout);
    }
    const out: CapturedResponse = {
      status: res.statusCode,
      headers: flattenHeaders(res.headers),
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
}

export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** Honour Retry-After (seconds or a date) or x-ratelimit-reset (seconds), bounded to 5 s. */
export function retryDelayMs(headers: Record<string, string>): number {
  const retryAfter = headers['retry-after'];
  const reset = headers['x-ratelimit-reset'];
  let ms = 1000;
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - Date.now();
  } else if (reset !== undefined && Number.isFinite(Number(reset))) {
    ms = Number(reset) * 1000;
  }
  return Math.min(5000, Math.max(50, ms));
}

function transportError(error: unknown, spec: RequestSpec, timeout: number): ToolError {
  const code = (error as { code?: string }).code ?? (error as Error).name;
  const origin = safeOrigin(spec.url);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new ToolError('TARGET_TIMEOUT', `${spec.operation} at ${origin} did not answer within ${timeout} ms (${code})`);
  }
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  return new ToolError('TARGET_UNREACHABLE', `${spec.operation}: could not reach ${origin} (${cause ?? code}: ${(error as Error).message})`);
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
