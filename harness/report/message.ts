/**
 * A test's message as the reports show it: the lines after its title (every message repeats the title
 * first), and its reason in one line, for where one line is all there is room for (junit's
 * `failure@message`, a list of tool errors): what was expected and what came back, or the tool error's
 * first line with its code.
 */
import { printableLine } from '../text/printable.ts';
import type { TestRecord } from './records.ts';

/** The message's lines after its title line, leading blank lines dropped. */
export function bodyOf(t: Pick<TestRecord, 'title'>, text: string | undefined): string {
  const lines = (text ?? '').split('\n');
  return (lines[0]?.trim() === t.title.trim() ? lines.slice(1) : lines).join('\n').replace(/^\n+/, '');
}

const EXPECTED = /^\s*Expected: (.*)$/;
const RECEIVED = /^\s*Received: (.*)$/;
const FAILURE_MARK = /^\s*✗ /;

/**
 * The reason of a failure, a tool error or a policy warning in one line: "expected X; received Y" of
 * its first failure (and how many more there are), else the first line of its message after the title.
 */
export function reasonOf(t: Pick<TestRecord, 'title' | 'verdict' | 'message' | 'warning'>): string {
  const lines = bodyOf(t, t.verdict === 'warning' ? t.warning : t.message)
    .split('\n')
    .filter((l) => l.trim());
  const expected = lines.findIndex((l) => EXPECTED.test(l));
  const received = RECEIVED.exec(lines[expected + 1] ?? '');
  if (expected >= 0 && received) {
    const more = lines.filter((l) => FAILURE_MARK.test(l)).length - 1;
    const at = /^\s*✗ \S+ at (\S+)/.exec(lines[expected - 1] ?? '')?.[1];
    return printableLine(
      `expected ${EXPECTED.exec(lines[expected])![1]}; received ${received[1]}${at ? ` (at ${at})` : ''}${more > 0 ? ` (and ${more} more failure(s))` : ''}`,
    );
  }
  return printableLine(lines[0]?.trim() ?? '');
}
