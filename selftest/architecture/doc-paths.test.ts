/**
 * ARCHITECTURE.md and README.md are where a newcomer looks for an area's checks, client, generator and
 * sandbox service: every project path (outside the generated reports/) they name in backticks must exist, so that a move that forgets
 * the documents fails here instead of sending the reader to a file that is gone.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';

const TOP = /^(harness|generators|suites|sandbox|selftest|specs|bench|bin|examples|\.ci)\//;
// placeholders (`suites/<area>/`), patterns (`*.ratelimit.test.ts`), alternatives and elisions name no one file
const PATTERN = /[<>*{}|…]/;

function namedPaths(markdown: string): string[] {
  const paths = new Set<string>();
  for (const [, token] of markdown.matchAll(/`([^`\s]+)`/g)) {
    if (!TOP.test(token) || PATTERN.test(token)) continue;
    paths.add(token.split('#')[0].replace(/[:,.]+$/, ''));
  }
  return [...paths];
}

describe('the paths the documents name', () => {
  for (const doc of ['ARCHITECTURE.md', 'README.md']) {
    it(`${doc}: every path it names exists`, () => {
      const paths = namedPaths(readFileSync(join(ROOT, doc), 'utf8'));
      expect(paths.length).toBeGreaterThan(10);
      expect(paths.filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
    });
  }

  it('reads placeholders and patterns as no path', () => {
    expect(
      namedPaths('`suites/<area>/` `suites/*.ratelimit.test.ts` `harness/request/http.ts` `evidence/x.har#e1` `harness/text/json.ts:`'),
    ).toEqual(['harness/request/http.ts', 'harness/text/json.ts']);
  });
});
