/**
 * The root cause of a contract failure: the defect of the target it shows, named in words, never by a
 * body or a hash. A defect is what one requirement forbids, seen as one expectation broken at one place:
 * "INS-STA-001: expected status 201, received status 200". Every test it touched shares its key, the
 * tests that fail it themselves and those that took it as given and ended inconclusive
 * (DEPENDENCY_FAILED, harness/test/suite.ts), so a report counts defects first, then requirements, then tests.
 *
 * The key leaves out what differs from one answer to the next (the values received, the index of an
 * item), so that the same defect met by many tests is one; the words keep the first answer's values as
 * an example.
 */
import type { Failure } from '../checks/failure.ts';

export interface RootCause {
  /** Groups the tests of one defect: the requirement, the expectation and where, without values. */
  key: string;
  /** The defect in words, with the first answer's value as an example. */
  about: string;
  /** The requirement whose subject the defect is. */
  requirement: string;
}

const SHOWN = 160;

const oneLine = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > SHOWN ? `${line.slice(0, SHOWN)}…` : line;
};

/** A JSON pointer with its array indexes as `*`: the same field of every item is one place. */
const placeOf = (at: string | undefined) => (at ? at.replace(/\/\d+(?=\/|$)/g, '/*') : '');

/** The root cause of the first of `failures` (the one a check found first), or of `fallback` when there is none. */
export function rootCauseOf(
  failures: readonly Failure[],
  fallback: { requirement: string; words: string },
  redact: (text: string) => string,
): RootCause {
  const first = failures[0];
  if (!first) {
    const words = oneLine(fallback.words.split('\n').find((l) => l.trim() !== '') ?? fallback.words);
    return {
      key: `${fallback.requirement}\n${words}`,
      about: redact(`${fallback.requirement}: ${words}`),
      requirement: fallback.requirement,
    };
  }
  const requirement = first.requirement || fallback.requirement;
  const place = placeOf(first.at);
  const words = first.defect ?? `expected ${oneLine(first.expected)}, received ${oneLine(first.received)}`;
  return {
    key: `${requirement}\n${place}\n${first.defect ?? oneLine(first.expected)}`,
    about: redact(`${requirement}${first.at ? ` at ${place}` : ''}: ${words}`),
    requirement,
  };
}
