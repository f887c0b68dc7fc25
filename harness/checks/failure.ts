/**
 * A check returns failures as data: the requirement id, what was expected, what came back.
 * `ConformanceError` turns them into one readable, redacted message with a curl reproduction.
 */
import type { CapturedResponse } from '../request/http.ts';
import { printableLine } from '../text/printable.ts';
import type { Redactor } from '../secrets/redact.ts';

export interface Failure {
  /**
   * The requirement whose subject the failure is. Usually the test's own; a precondition check names the
   * requirement that states the precondition (a create answered 201 is INS-STA-001's), and a test whose
   * requirement depends on it (`dependsOn`) then ends inconclusive naming it instead of failing for it.
   */
  requirement: string;
  expected: string;
  received: string;
  /** Where in the body, when it is about one field: a JSON pointer. */
  at?: string;
  /** The defect in words, the same for every answer that shows it, where expected and received vary. */
  defect?: string;
}

export function failure(requirement: string, expected: string, received: string, at?: string): Failure {
  return { requirement, expected, received, at };
}

const MAX_BODY_SHOWN = 600;

export function describeResponse(res: CapturedResponse): string {
  const contentType = res.headers['content-type'] ?? '(none)';
  const body = res.rawBody.length > MAX_BODY_SHOWN ? `${res.rawBody.slice(0, MAX_BODY_SHOWN)}…(${res.rawBody.length} bytes)` : res.rawBody;
  // One line, whatever the target sent: a line feed or an ESC in a body must not start a line of the report.
  return `HTTP ${res.status}, content-type ${printableLine(contentType)}, body: ${body === '' ? '(empty)' : printableLine(body)}`;
}

export class ConformanceError extends Error {
  /** The answer the failures are about, when there is one (reports group failures by it). */
  readonly response?: CapturedResponse;
  constructor(
    readonly failures: Failure[],
    context: { title: string; response?: CapturedResponse; redactor: Redactor; note?: string; listed?: boolean },
  ) {
    // Every failure is listed (unless the title lists them already): a report may cap what it prints, the message itself never cuts.
    const lines = [context.title];
    for (const f of context.listed === false ? [] : failures) {
      lines.push(`  ✗ ${f.requirement}${f.at ? ` at ${f.at}` : ''}`);
      lines.push(`    Expected: ${f.expected}`);
      lines.push(`    Received: ${f.received}`);
    }
    if (context.note) lines.push(`  Case: ${context.note}`);
    if (context.response) {
      lines.push(`  Response: ${describeResponse(context.response)}`);
      lines.push(`  Reproduce: ${context.response.curl}`);
    }
    super(context.redactor.redact(lines.join('\n')));
    this.name = 'ConformanceError';
    this.response = context.response;
  }

  /**
   * What an error serialiser (vitest's, for worker messages and the junit report) writes: the redacted
   * message only, never the raw request with its credentials or the unredacted failure texts.
   */
  toJSON(): { name: string; message: string; stack?: string } {
    return { name: this.name, message: this.message, stack: this.stack };
  }
}
