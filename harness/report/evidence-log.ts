/**
 * The evidence of each test, collected in its worker: every exchange the HTTP client makes is recorded
 * once (exchange-record.ts) and belongs to the test whose scope made it; a test that judges an answer
 * another test (or a hook) made, such as a control shared by every refusal test of a worker or the
 * business exchanges made once per operation, cites it by reading it. When a test ends, its list and
 * every record not yet handed over travel to the reporter in the test's meta, so that each record
 * crosses the process boundary once, however many tests cite it, and no worker writes a file.
 */
import { randomBytes } from 'node:crypto';
import type { Redactor } from '../secrets/redact.ts';
import { currentTestScope, type EvidenceRole, type TestEvidence } from '../runner/test-scope.ts';
import { cappedBody, headerLines, headersOf, recordedBody, redactedTogether, type ExchangeRecord } from './exchange-record.ts';
import { withDecodedTokens } from './token-evidence.ts';

/** What a test hands to the reporter: the ids it cites and the records not handed over before. */
export interface ShippedEvidence {
  cited: Array<[string, EvidenceRole | undefined]>;
  records: ExchangeRecord[];
}

/** The worker's tag: ids stay unique across workers and test files. */
const WORKER = randomBytes(4).toString('hex');
let counter = 0;
/** Exchanges of this worker whose records have not been handed over yet, complete or not. */
const unshipped = new Map<string, RecordedExchange>();

/** The running test's evidence, if a test is running in this async context. */
const currentEvidence = () => currentTestScope()?.evidence;

/** Cites an exchange (by its answer) as evidence of the running test. */
export function cite(response: { exchangeId?: string } | undefined, role?: EvidenceRole): void {
  if (response?.exchangeId) currentEvidence()?.cite(response.exchangeId, role);
}

export interface RequestSent {
  area: string;
  operation: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  bodyText?: string;
  pacedMs: number;
}

export interface AnswerReceived {
  status: number;
  headers: Record<string, string>;
  rawBody?: string;
  bytes?: Buffer;
  waitMs: number;
  receiveMs: number;
}

/**
 * One exchange on its way: begun when the request goes out (it is the running test's own from then
 * on), ended with the answer or with why there was none. The body cap and redaction are applied once,
 * at the end.
 */
export class RecordedExchange {
  readonly id = `${WORKER}.${++counter}`;
  /** Set once the exchange ended: what the reporter gets. */
  record?: ExchangeRecord;
  private readonly startedAt = Date.now();
  /** The evidence of the test that made it (its citation is taken back with a withdrawal). */
  private readonly citedBy = currentEvidence();

  constructor(
    private readonly sent: RequestSent,
    private readonly redactor: Redactor,
  ) {
    unshipped.set(this.id, this);
    this.citedBy?.cite(this.id);
  }

  answered(answer: AnswerReceived, error?: string): void {
    this.finish(answer, error);
  }

  failed(error: string): void {
    this.finish(undefined, error);
  }

  /** Nothing was sent after all (a paced request stopped at the wire): no record, and no citation of one. */
  withdraw(): void {
    unshipped.delete(this.id);
    // Under load a paced request can miss its slot more than once: a citation of each attempt left the
    // test citing exchanges that have no record.
    this.citedBy?.uncite(this.id);
  }

  /** The record, every text of the exchange redacted in one pass. */
  private finish(answer: AnswerReceived | undefined, error: string | undefined): void {
    if (this.record) return;
    const { sent } = this;
    const requestBody =
      sent.body === undefined ? undefined : cappedBody(sent.bodyText ?? '', Buffer.isBuffer(sent.body) ? sent.body : undefined);
    const responseBody = answer?.rawBody === undefined ? undefined : cappedBody(answer.rawBody, answer.bytes);
    const sentHeaders = withDecodedTokens(sent.headers, this.redactor);
    const [url, requestHeaders, requestText, responseHeaders, responseText, why] = redactedTogether(
      [
        sent.url,
        headerLines(sentHeaders),
        requestBody?.text ?? '',
        answer ? headerLines(answer.headers) : '',
        responseBody?.text ?? '',
        error ?? '',
      ],
      this.redactor,
    );
    this.record = {
      id: this.id,
      area: sent.area,
      operation: sent.operation,
      startedAt: this.startedAt,
      durationMs: Date.now() - this.startedAt,
      pacedMs: Math.round(sent.pacedMs),
      waitMs: answer && Math.round(answer.waitMs),
      receiveMs: answer && Math.round(answer.receiveMs),
      request: {
        method: sent.method,
        url,
        headers: headersOf(requestHeaders, sentHeaders, this.redactor),
        body: requestBody && recordedBody(requestBody, requestText),
      },
      response: answer && {
        status: answer.status,
        headers: headersOf(responseHeaders, answer.headers, this.redactor),
        body: responseBody && recordedBody(responseBody, responseText),
      },
      error: error === undefined ? undefined : why,
    };
  }
}

/**
 * What a test hands over when it ends: the exchanges it cites, and every record of the worker not
 * handed over yet. A record made by a hook, or one still on its way when the test ended (shared work
 * another test goes on waiting for), travels with the next test that ends; the reporter keeps a
 * citation only where the record arrived.
 */
export function shipEvidence(evidence: TestEvidence | undefined): ShippedEvidence | undefined {
  const records: ExchangeRecord[] = [];
  for (const [id, exchange] of unshipped) {
    if (!exchange.record) continue;
    records.push(exchange.record);
    unshipped.delete(id);
  }
  const cited = evidence ? [...evidence.cited] : [];
  return cited.length || records.length ? { cited, records } : undefined;
}
