/**
 * A check over "every value" of something (every amount, every total, every stored record) says how
 * many values it judged besides what failed: a check that judged none saw nothing, so its test ends
 * inconclusive with the reason, never passed (no pass over nothing).
 */
import { inconclusive, ToolError } from '../errors.ts';
import type { Failure } from './failure.ts';

export interface Judged {
  failures: Failure[];
  /** How many values the check could judge (a value absent, or unreadable for another requirement, is not judged). */
  judged: number;
  /** Why nothing was judged, where the check knows. */
  reason?: string;
}

export const judged = (failures: Failure[], count: number): Judged => ({ failures, judged: count });

/** Adds up the judgements of one test over several answers and, when none judged anything, says why. */
export class Tally {
  private count = 0;
  private readonly passedOver: string[] = [];

  /** The failures of one answer's judgement, counted; `where` names the answer in the reason of a judgement of nothing. */
  add(result: Judged, where?: string): Failure[] {
    this.count += result.judged;
    if (result.judged === 0 && result.reason) this.skip(where ? `${where}: ${result.reason}` : result.reason);
    return result.failures;
  }

  /** An answer the test could not judge, and why (another requirement judges that). */
  skip(reason: string): void {
    this.passedOver.push(reason);
  }

  get judged(): number {
    return this.count;
  }

  /**
   * The ending of a test that judged nothing, or undefined when it judged something: inconclusive with
   * what it looked for and what it passed over; or, when `fixture` is given and every answer could be
   * judged, FIXTURE_MISSING with it (the target file names no data the requirement is about).
   */
  nothing(what: string, fixture?: string): ToolError | undefined {
    if (this.count > 0) return undefined;
    if (fixture !== undefined && this.passedOver.length === 0) return new ToolError('FIXTURE_MISSING', fixture);
    const why = this.passedOver.length
      ? `; passed over: ${this.passedOver.slice(0, 6).join('; ')}${this.passedOver.length > 6 ? `; … (${this.passedOver.length} in all)` : ''}`
      : '';
    return inconclusive('PRECONDITION_MISSING', `nothing to judge: ${what}${why}`);
  }
}
