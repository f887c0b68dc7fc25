/**
 * HTTP on undici `request`, bounded in every direction: the safety gate before any socket opens; the
 * pacer (one slot in the service's schedule and the operation group's at once); a total deadline per
 * request (connect, headers and the whole body) that the running test's budget also aborts; a body
 * read as a stream and cut off past a size cap; redirects never followed; a 429 waited out only as
 * long as the target file allows, and a service that asks for a longer wait left alone for as long as
 * it asked; an origin that keeps failing given up on (both for the whole run); nothing sent once the run
 * was interrupted (runner/interruption.ts). Everything that stops a
 * request is a ToolError with its code (harness/errors.ts), never a response a check could judge.
 * The response is captured as status, headers, raw body and parsed JSON (or the parse error).
 */
import { request, type Dispatcher } from 'undici';
import { curlOf } from '../secrets/curl.ts';
import { ToolError, type ToolErrorCode } from '../errors.ts';
import { intervalMs, LATE_MS, LocalPacer, sleep, spareOf, type PaceKey, type Pacer } from './pacer.ts';
import { cite, RecordedExchange } from '../report/evidence-log.ts';
import { assertAllowed, type SideEffect } from './safety.ts';
import { groupLimit } from './rate-groups.ts';
import type { RateLimit, Target, TokenRateLimit } from '../config/target.ts';
import type { Area } from '../areas.ts';
import { TokenBudgets } from './token-budgets.ts';
import { currentTestScope } from '../runner/test-scope.ts';
import { discard, readBounded } from '../transport/body.ts';
import { RequestDeadline } from '../transport/deadline.ts';
import { departingBy, LateDeparture } from '../transport/departure.ts';
import { harnessDispatcher } from '../transport/dispatcher.ts';
import { classifyTransportError, type ExchangeState } from '../transport/errors.ts';
import { OriginHealth, type HealthEvent } from '../transport/origin-health.ts';
import { retryAfterOf } from '../transport/retry-after.ts';
import { ServiceStops, type StopEvent } from '../transport/service-stops.ts';
import { runRecord } from '../runner/run-record.ts';
import { interruptedBy, runInterruption } from '../runner/interruption.ts';

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
  /** The request as a curl command, secrets masked (made when first read). */
  curl: string;
  /** The exchange's record in the run's evidence (harness/report/evidence-log.ts); absent for an answer made by hand. */
  exchangeId?: string;
}

export interface HttpClientOptions {
  pacer?: Pacer;
  /** The documented limit of each service (specs/rate-limits.yaml), unless the target file overrides it. */
  limits?: Partial<Record<Area, RateLimit>>;
  undocumentedLimit?: RateLimit;
  /** Failures per origin; default the run's shared record (outside a run, this client's own). */
  health?: OriginHealth;
  /** Services that asked for silence; default the run's shared record (outside a run, this client's own). */
  stops?: ServiceStops;
  /** Prefixes every pacing key: a batch run's variants are separate targets, each with its own budgets. */
  paceScope?: string;
}

/** When a paced request must leave by, and who learns when it did. */
interface Departure {
  by: number;
  departed: (at: number) => void;
}

interface Outgoing {
  headers: Record<string, string>;
  body?: string | Buffer;
  bodyText?: string;
}

const FALLBACK_LIMIT: RateLimit = { requests: 40, perSeconds: 1 };

/** The limit a service is paced by: the target file's own, else the documented one, else the limit for services without one. */
export function serviceLimit(
  target: Target,
  area: Area,
  documented?: Partial<Record<Area, RateLimit>>,
  undocumented?: RateLimit,
): TokenRateLimit {
  return target.services[area]?.rateLimit ?? documented?.[area] ?? undocumented ?? FALLBACK_LIMIT;
}
/** Late departures in a row after which a request gives up (each costs a slot and a wait). */
const MAX_LATE_DEPARTURES = 8;
/** The span a request that missed its slot asks for: twice the lateness it showed, within these bounds. */
const MIN_SPAN_MS = 100;
const MAX_SPAN_MS = 10_000;

export class HttpClient {
  private readonly pacer: Pacer;
  private readonly health: OriginHealth;
  private readonly stops: ServiceStops;
  private readonly tokenBudgets: TokenBudgets;
  constructor(
    readonly target: Target,
    private readonly options: HttpClientOptions = {},
  ) {
    this.pacer = options.pacer ?? new LocalPacer();
    this.health = options.health ?? new OriginHealth(runRecord<HealthEvent>('origin-health'));
    this.stops = options.stops ?? new ServiceStops(runRecord<StopEvent>('service-stops'));
    this.tokenBudgets = new TokenBudgets(target);
  }

  limitOf(area: Area): TokenRateLimit {
    return serviceLimit(this.target, area, this.options.limits, this.options.undocumentedLimit);
  }

  /**
   * The budgets a request counts against: its service's (its token's, where the target file says the
   * limit counts per token), and its group's when it has one.
   */
  paceKeys(spec: Pick<RequestSpec, 'area' | 'rateGroup' | 'headers'>): PaceKey[] {
    // The run's share of every limit (a shard of n: 1/n) is already folded into paceFraction (runner/effective-target.ts).
    const fraction = this.target.settings.paceFraction;
    const scoped = (key: string) => (this.options.paceScope ? `${this.options.paceScope}/${key}` : key);
    const limit = this.limitOf(spec.area);
    const service = limit.per === 'token' ? `${spec.area}#${this.tokenBudgets.of(spec.area, spec.headers)}` : spec.area;
    const keyOf = (key: string, of: RateLimit): PaceKey => ({
      key: scoped(key),
      intervalMs: intervalMs(of, fraction),
      windowMs: of.perSeconds * 1000,
      spare: spareOf(of, fraction),
    });
    const keys = [keyOf(service, limit)];
    if (spec.rateGroup) keys.push(keyOf(spec.rateGroup.key, groupLimit(this.target, spec.rateGroup)));
    return keys;
  }

  /**
   * Waits until no paced request of the budgets a request like `spec` counts against has had a slot for
   * `ms`, and holds that moment as a slot of theirs: a rate-limit test's cool-down, as long as this run's
   * own traffic makes it need and no longer (nothing else may be sent to the service meanwhile: the
   * rate-limit files run alone). Requests sent unpaced (a burst) are not in the schedule: after one, the
   * test waits its whole cool-down itself.
   */
  async quiet(spec: Pick<RequestSpec, 'area' | 'rateGroup' | 'headers'>, ms: number): Promise<void> {
    const keys = this.paceKeys(spec).map((k): PaceKey => ({ key: k.key, intervalMs: ms, cooldown: true }));
    await this.pacer.wait(keys, currentTestScope()?.signal);
  }

  async send(spec: RequestSpec): Promise<CapturedResponse> {
    assertAllowed(this.target, spec.sideEffect, spec.operation);
    const origin = originOf(spec.url);
    const outgoing = prepare(spec);
    const paced = spec.pacing !== 'burst';
    const testSignal = currentTestScope()?.signal;
    const { retry429, maxRetryAfterMs } = this.target.settings;
    for (let attempt = 0; ; attempt++) {
      const response = paced
        ? await this.onTime(spec, origin, outgoing, attempt, testSignal)
        : await this.unpaced(spec, origin, outgoing, attempt, testSignal);
      if (response.status !== 429) return response;
      const asked = retryAfterOf(response.headers);
      const header = asked.header ?? 'no Retry-After, so 1 s';
      if (asked.ms > maxRetryAfterMs) {
        const why = `${spec.operation} at ${origin} answered 429 asking to wait ${Math.round(asked.ms / 1000)} s (${header}), more than the cap of ${maxRetryAfterMs} ms (settings.maxRetryAfterMs); nothing more is sent to services.${spec.area} for that long, as it asked`;
        this.stops.stop(this.stopKey(spec.area), asked.ms, this.target.redactor.redact(why));
        // A burst sees its 429 as it came (its test judges it); later requests, bursts too, are not sent.
        if (paced) throw this.toolError('TARGET_RATE_LIMITED', why);
      }
      if (!paced) return response;
      if (attempt >= retry429) {
        throw this.toolError(
          'TARGET_RATE_LIMITED',
          `${spec.operation} at ${origin} still answered 429 after ${attempt} retr${attempt === 1 ? 'y' : 'ies'} (settings.retry429 ${retry429}) (last ${header})`,
        );
      }
      await this.waiting(() => sleep(asked.ms, testSignal), spec, `out the 429's ${header}`);
    }
  }

  /**
   * A paced request sent within LATE_MS of its slot: one that would leave later is stopped at the wire
   * (nothing written) and waits for a new slot whose span (a time the key is kept free for it) is twice
   * the lateness it showed, so that a busy worker gets through without breaking the pace; a worker
   * that cannot keep time even so ends the request as a SUITE_ERROR rather than send it late.
   */
  private async onTime(
    spec: RequestSpec,
    origin: string,
    outgoing: Outgoing,
    attempt: number,
    testSignal: AbortSignal | undefined,
  ): Promise<CapturedResponse> {
    const pacingFrom = performance.now();
    let span = 0;
    for (let late = 0; ; late++) {
      this.assertSendable(origin, spec);
      const keys = this.paceKeys(spec);
      const slot = await this.waiting(() => this.pacer.wait(keys, testSignal, span), spec, 'for a pacing slot');
      let departedAt: number | undefined;
      let response: CapturedResponse | undefined;
      try {
        // Another worker may have learnt, while this one waited, that nothing may go there.
        this.assertSendable(origin, spec);
        const departure = { by: slot + span + LATE_MS, departed: (at: number) => (departedAt = at) };
        response = await this.once(spec, outgoing, attempt, testSignal, performance.now() - pacingFrom, departure);
      } finally {
        // What was not sent frees its slot, and a request sent within a span frees the rest of it.
        if (departedAt === undefined || span > 0) await this.pacer.settle(keys, slot, span, departedAt);
      }
      if (response) return response;
      // A worker this late once will be again: its next slot keeps the key free for as long (and more).
      span = Math.min(MAX_SPAN_MS, Math.max(MIN_SPAN_MS, 2 * (Date.now() - slot)));
      if (late + 1 >= MAX_LATE_DEPARTURES) {
        throw this.toolError(
          'SUITE_ERROR',
          `${spec.operation} was not sent: ${MAX_LATE_DEPARTURES} times in a row this worker could not send it within ${LATE_MS} ms of its pacing slot (the machine is too busy to keep the pace), and a late request would break the pace`,
        );
      }
    }
  }

  private unpaced(
    spec: RequestSpec,
    origin: string,
    outgoing: Outgoing,
    attempt: number,
    testSignal: AbortSignal | undefined,
  ): Promise<CapturedResponse> {
    this.assertSendable(origin, spec);
    return this.once(spec, outgoing, attempt, testSignal, 0);
  }

  /** The service as the run's stops know it: a batch run's variants are separate targets. */
  private stopKey(area: string): string {
    return this.options.paceScope ? `${this.options.paceScope}/${area}` : area;
  }

  /** Throws when the run was interrupted, has given up on the origin, or the service asked for silence that has not passed. */
  private assertSendable(origin: string, spec: RequestSpec): void {
    if (runInterruption()) throw new ToolError('RUN_INTERRUPTED', `${spec.operation} was not sent: the run was interrupted`);
    this.health.assertAlive(origin, spec.operation);
    this.stops.assertOpen(this.stopKey(spec.area), spec.operation);
  }

  /** A wait the test's budget may end: then a TARGET_TIMEOUT naming what was waited for. */
  private async waiting<T>(wait: () => Promise<T>, spec: RequestSpec, what: string): Promise<T> {
    try {
      return await wait();
    } catch (error) {
      if (error instanceof ToolError) throw error;
      if (interruptedBy(currentTestScope()?.signal))
        throw new ToolError('RUN_INTERRUPTED', `${spec.operation} was not sent: the run was interrupted while it waited ${what}`);
      throw this.toolError('TARGET_TIMEOUT', `${spec.operation} was not sent: the test's time budget ran out while waiting ${what}`);
    }
  }

  /** One exchange; with a `departure`, undefined when the request would have left after its time (nothing was sent). */
  private async once(
    spec: RequestSpec,
    outgoing: Outgoing,
    retried: number,
    testSignal: AbortSignal | undefined,
    pacedMs: number,
    departure: Departure,
  ): Promise<CapturedResponse | undefined>;
  private async once(
    spec: RequestSpec,
    outgoing: Outgoing,
    retried: number,
    testSignal: AbortSignal | undefined,
    pacedMs: number,
  ): Promise<CapturedResponse>;
  private async once(
    spec: RequestSpec,
    outgoing: Outgoing,
    retried: number,
    testSignal: AbortSignal | undefined,
    pacedMs: number,
    departure?: Departure,
  ): Promise<CapturedResponse | undefined> {
    const { settings, redactor } = this.target;
    const origin = originOf(spec.url);
    const deadline = new RequestDeadline(spec.timeoutMs ?? settings.timeoutMs, testSignal);
    const state: ExchangeState = { operation: spec.operation, origin, deadline, bodyBytes: 0 };
    const exchange = new RecordedExchange(
      {
        area: spec.area,
        operation: spec.operation,
        method: spec.method,
        url: spec.url,
        headers: outgoing.headers,
        body: outgoing.body,
        bodyText: outgoing.bodyText,
        pacedMs,
      },
      redactor,
    );
    const started = performance.now();
    let headersAt = started;
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
        dispatcher: departure
          ? departingBy(departure.by, departure.departed, spec.dispatcher ?? harnessDispatcher())
          : (spec.dispatcher ?? harnessDispatcher()),
      });
      headersAt = performance.now();
      status = state.status = res.statusCode;
      headers = flattenHeaders(res.headers);
      const unread = (error: ToolError) => (
        exchange.answered({ status, headers, waitMs: headersAt - started, receiveMs: performance.now() - headersAt }, error.message), error
      );
      if (status >= 300 && status < 400 && headers.location !== undefined && spec.redirects !== 'capture') {
        discard(res.body);
        this.health.answered(origin);
        throw unread(
          this.toolError(
            'TARGET_REDIRECT',
            `${spec.operation} at ${origin} answered ${status}, Location: ${headers.location} (the suite never follows redirects)`,
          ),
        );
      }
      const read = await readBounded(res.body, settings.maxResponseBytes, headers['content-length'], (n) => (state.bodyBytes = n));
      // Only a whole answer clears the origin's failures: one that sends headers and then drips its body is as dead as a silent one.
      this.health.answered(origin);
      if (!read.ok) {
        const how =
          read.announced !== undefined && read.readBytes === 0
            ? `it announced Content-Length ${read.announced}`
            : `cut off after ${read.readBytes} bytes`;
        throw unread(
          this.toolError(
            'TARGET_RESPONSE_TOO_LARGE',
            `${spec.operation} at ${origin}: the answer (status ${status}) is larger than the cap of ${settings.maxResponseBytes} bytes (settings.maxResponseBytes); ${how}`,
          ),
        );
      }
      rawBody = read.bytes.toString('utf8');
      exchange.answered({
        status,
        headers,
        rawBody,
        bytes: read.bytes,
        waitMs: headersAt - started,
        receiveMs: performance.now() - headersAt,
      });
    } catch (error) {
      if (error instanceof ToolError) throw error;
      if (error instanceof LateDeparture) {
        exchange.withdraw();
        return undefined;
      }
      const classified = classifyTransportError(error, state);
      if (classified.countsAgainstOrigin) this.health.failed(origin, classified.error);
      const redacted = this.redacted(classified.error);
      exchange.failed(redacted.message);
      throw redacted;
    } finally {
      deadline.dispose();
    }
    return this.captured(spec, outgoing, {
      status,
      headers,
      rawBody,
      durationMs: performance.now() - started,
      retried429: retried,
      exchangeId: exchange.id,
    });
  }

  /**
   * The answer as checks see it. Reading its status cites the exchange as evidence of the test that
   * reads it (a control or a shared answer made by another test counts for each test that judges it);
   * the curl line is made only when a message needs it.
   */
  private captured(
    spec: RequestSpec,
    outgoing: Outgoing,
    answer: Pick<CapturedResponse, 'status' | 'headers' | 'rawBody' | 'durationMs' | 'retried429' | 'exchangeId'>,
  ): CapturedResponse {
    const { redactor } = this.target;
    const captured = { method: spec.method, url: spec.url, headers: outgoing.headers, bodyText: outgoing.bodyText };
    const { status, rawBody } = answer;
    let curl: string | undefined;
    const out = {
      ...answer,
      request: captured,
      get status() {
        cite(out);
        return status;
      },
      get curl() {
        return (curl ??= redactor.redact(curlOf(captured)));
      },
    } as CapturedResponse;
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
export function jsonPayload(
  value: unknown,
  options: { raw?: string; contentType?: string },
  headers: Record<string, string>,
): Pick<RequestSpec, 'headers' | 'json' | 'body'> {
  const contentType = options.contentType ?? (options.raw !== undefined ? 'application/json' : undefined);
  return {
    headers: contentType ? { ...headers, 'content-type': contentType } : headers,
    ...(options.raw !== undefined ? { body: options.raw } : { json: value }),
  };
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
