/**
 * The CI templates of examples/ci/ parse, and every command they run exists: `npm run <script>` in
 * package.json, `npx partner-conformance <command>` in the CLI with only the options that command has.
 * They keep their shape: a quick pull-request job on the embedded sandbox, a sharded nightly job, a merge,
 * a rerun, a diff against the previous night, the Allure report, JUnit published; and they hand the suite
 * every secret the example target file refers to. selftest/ci/nightly.test.ts runs them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { allCommands } from '../../harness/cli/commands.ts';
import { exampleVariables } from '../ci/_team-repo.ts';
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

  it('has a quick pull-request job, a sharded nightly job, a merge, a flaky rerun, a diff, the Allure report and JUnit publishing', () => {
    const all = lines.join('\n');
    expect(all).toMatch(/npx partner-conformance run --depth quick/);
    expect(all).toMatch(/npx partner-conformance run --shard \S+/);
    expect(text).toMatch(/CONFORMANCE_DEPTH: .*nightly/);
    expect(all).toMatch(/npx partner-conformance merge /);
    expect(all).toMatch(/npx partner-conformance run --only-failed --from /);
    expect(all).toMatch(/npx partner-conformance diff history\/previous-night.json \S+ --rerun /);
    expect(all).toMatch(/npx allure generate \S+\/allure-results \S+\/allure-results --config examples\/ci\/allurerc.yaml /);
    expect(text).toMatch(/junit/);
    // Staging credentials come from CI secrets, never inline.
    expect(text).not.toMatch(/token:\s*['"]?[A-Za-z0-9]{12,}/i);
  });

  it('runs only tools that `npm ci` installs: the project itself and the bins of its dependencies', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; dependencies: Record<string, string> };
    for (const line of lines)
      for (const match of line.matchAll(/npx (\S+)/g))
        expect(match[1] === pkg.name || match[1] in pkg.dependencies, `npx ${match[1]}: not the project nor a dependency`).toBe(true);
  });
});

/** Every `${NAME}` of the example target file: the secrets a team's nightly must hand the suite. */
const EXAMPLE_VARIABLES = [...exampleVariables().keys()].sort();

describe('the nightly gets every secret of the example target file, in every step that runs the suite against the staging', () => {
  it('github-actions.yml: the shard step and the rerun step each map exactly those names to the secrets of the same names', () => {
    const workflow = parse(readFileSync(join(ROOT, 'examples', 'ci', 'github-actions.yml'), 'utf8'), { maxAliasCount: -1 }) as {
      jobs: Record<
        string,
        { permissions?: Record<string, string>; steps: Array<{ run?: string; uses?: string; env?: Record<string, string> }> }
      >;
    };
    const suiteSteps = ['nightly-shard', 'nightly-report'].flatMap((job) =>
      workflow.jobs[job].steps.filter((step) => /partner-conformance run\b/.test(step.run ?? '')),
    );
    expect(suiteSteps).toHaveLength(2);
    expect(EXAMPLE_VARIABLES.length).toBeGreaterThan(20);
    for (const step of suiteSteps) {
      expect(Object.keys(step.env ?? {}).sort()).toEqual(EXAMPLE_VARIABLES);
      for (const [name, value] of Object.entries(step.env ?? {})) expect(value).toBe(`\${{ secrets.${name} }}`);
    }
  });

  it('github-actions.yml: the job that publishes JUnit may write check runs', () => {
    const workflow = parse(readFileSync(join(ROOT, 'examples', 'ci', 'github-actions.yml'), 'utf8'), { maxAliasCount: -1 }) as {
      jobs: Record<string, { permissions?: Record<string, string>; steps: Array<{ uses?: string }> }>;
    };
    const publishing = Object.values(workflow.jobs).filter((job) =>
      job.steps.some((step) => step.uses?.startsWith('mikepenz/action-junit-report')),
    );
    expect(publishing).toHaveLength(1);
    expect(publishing[0].permissions).toMatchObject({ checks: 'write' });
  });

  it('gitlab-ci.yml: the variables it tells a team to set are exactly those names', () => {
    const text = readFileSync(join(ROOT, 'examples', 'ci', 'gitlab-ci.yml'), 'utf8');
    const block = text.slice(text.indexOf('For the example file:'), text.indexOf('A run that lacks some'));
    expect([...block.matchAll(/\b[A-Z][A-Z0-9_]+\b/g)].map((m) => m[0]).sort()).toEqual(EXAMPLE_VARIABLES);
  });
});
