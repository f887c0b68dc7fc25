/**
 * The CI templates of examples/ci/ parse, and every command they run exists: `npm run <script>` in
 * package.json, `npx partner-conformance <command>` in the CLI with only the options that command has.
 * They keep their shape: a quick pull-request job on the embedded sandbox, a sharded nightly job, a merge,
 * a diff against the last good night, JUnit published.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { allCommands } from '../../harness/cli/commands.ts';
import { ROOT } from '../helpers.ts';

const COMMANDS = await allCommands();

const scripts = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);

/** Every shell line a CI file runs: GitHub `run:` of steps, GitLab `script:` entries. */
function shellLines(doc: Record<string, unknown>): string[] {
  const lines: string[] = [];
  const visit = (node: unknown, key?: string) => {
    if (typeof node === 'string' && (key === 'run' || key === 'script')) lines.push(...node.split('\n'));
    else if (Array.isArray(node))
      node.forEach((item) => (key === 'script' && typeof item === 'string' ? lines.push(...item.split('\n')) : visit(item)));
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) visit(v, k);
  };
  visit(doc);
  return lines.map((l) => l.trim()).filter(Boolean);
}

function checkCommands(lines: string[]): string[] {
  const problems: string[] = [];
  for (const line of lines) {
    for (const match of line.matchAll(/npm run ([\w:-]+)/g))
      if (!scripts.includes(match[1])) problems.push(`npm run ${match[1]}: no such script`);
    for (const match of line.matchAll(/npx partner-conformance (\S+)([^;&|]*)/g)) {
      const command = COMMANDS.find((c) => c.name === match[1]);
      if (!command) {
        problems.push(`partner-conformance ${match[1]}: no such command`);
        continue;
      }
      for (const flag of match[2].match(/--[\w-]+/g) ?? []) {
        if (flag !== '--help' && !command.options.some((o) => o.flag === flag))
          problems.push(`partner-conformance ${command.name} ${flag}: no such option`);
      }
    }
  }
  return problems;
}

describe.each(['github-actions.yml', 'gitlab-ci.yml'])('examples/ci/%s', (name) => {
  const text = readFileSync(join(ROOT, 'examples', 'ci', name), 'utf8');
  const lines = shellLines(parse(text) as Record<string, unknown>);

  it('parses and runs only commands that exist, with options they have', () => {
    expect(lines.length).toBeGreaterThan(5);
    expect(checkCommands(lines)).toEqual([]);
  });

  it('has a quick pull-request job, a sharded nightly job, a merge, a flaky rerun, a diff and JUnit publishing', () => {
    const all = lines.join('\n');
    expect(all).toMatch(/npx partner-conformance run --depth quick/);
    expect(all).toMatch(/npx partner-conformance run --depth nightly --shard \S+/);
    expect(all).toMatch(/npx partner-conformance merge /);
    expect(all).toMatch(/npx partner-conformance run --only-failed --from /);
    expect(all).toMatch(/npx partner-conformance diff \S+ \S+ --rerun /);
    expect(text).toMatch(/junit/);
    // Staging credentials come from CI secrets, never inline.
    expect(text).not.toMatch(/token:\s*['"]?[A-Za-z0-9]{12,}/i);
  });
});
