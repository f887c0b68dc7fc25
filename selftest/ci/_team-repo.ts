/**
 * A team's repository as the CI templates expect it: a clone of partner-conformance (here the project's
 * own files, linked), the template copied where the CI reads it, and the team's staging target file
 * where the templates name it (examples/target.example.yaml), committed without secrets: every credential
 * the example file gives as ${NAME} is a ${NAME} here too, and its value is the CI's secret. An `npm`
 * first on PATH answers `npm ci` without touching the linked node_modules (the project's own) and hands
 * anything else to npm.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { getAt, isJsonObject, setAt } from '../../harness/text/json.ts';
import { ROOT, tempDir } from '../helpers.ts';

/** What a clone holds of the project (and what the suite needs to run). */
const PROJECT_ENTRIES = [
  'bin',
  'harness',
  'sandbox',
  'specs',
  'suites',
  'generators',
  'node_modules',
  'package.json',
  'package-lock.json',
  'vitest.config.ts',
  'tsconfig.json',
];

export interface TeamRepo {
  dir: string;
  /** The CI's secrets: each variable the target file refers to, with its value. */
  secrets: Record<string, string>;
  /** Put first on PATH: its npm answers `npm ci`. */
  binDir: string;
}

/** Every `${NAME}` of the example target file, by the key path it stands at. */
export function exampleVariables(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const visit = (node: unknown, path: string[]) => {
    if (typeof node === 'string') for (const m of node.matchAll(/\$\{([A-Z0-9_]+)\}/g)) out.set(m[1], path);
    else if (Array.isArray(node)) node.forEach((item, i) => visit(item, [...path, String(i)]));
    else if (isJsonObject(node)) for (const [k, v] of Object.entries(node)) visit(v, [...path, k]);
  };
  visit(parse(readFileSync(join(ROOT, 'examples', 'target.example.yaml'), 'utf8')), []);
  return out;
}

/**
 * The team's target file from a sandbox's target document: renamed, and each credential at a key where
 * the example file has a ${NAME} replaced by that ${NAME} (its value goes to the secrets).
 */
function teamTarget(document: Record<string, unknown>, name: string): { text: string; secrets: Record<string, string> } {
  const data = structuredClone(document);
  const secrets: Record<string, string> = {};
  for (const [variable, path] of exampleVariables()) {
    const value = getAt(data, path);
    if (typeof value !== 'string') continue;
    secrets[variable] = value;
    setAt(data, path, `\${${variable}}`);
  }
  const { sandboxFaults: _faults, ...rest } = data as Record<string, unknown>;
  return { text: `# The team's staging (here a sandbox); its credentials are CI secrets.\n${stringify({ ...rest, name })}`, secrets };
}

const NPM_SHIM = (npm: string) => `#!/bin/sh
if [ "$1" = ci ]; then echo "npm ci: the dependencies are installed already (selftest)"; exit 0; fi
exec ${npm} "$@"
`;

/** Makes the repository, committed, with the templates at the places each CI reads them. */
export function teamRepo(sandboxDocument: Record<string, unknown>): TeamRepo {
  const base = tempDir('pc-ci-');
  const dir = join(base, 'repo');
  mkdirSync(join(dir, 'examples', 'ci'), { recursive: true });
  mkdirSync(join(dir, '.github', 'workflows'), { recursive: true });
  for (const entry of PROJECT_ENTRIES) symlinkSync(join(ROOT, entry), join(dir, entry));
  copyFileSync(join(ROOT, 'examples', 'ci', 'gitlab-ci.yml'), join(dir, '.gitlab-ci.yml'));
  copyFileSync(join(ROOT, 'examples', 'ci', 'github-actions.yml'), join(dir, '.github', 'workflows', 'conformance.yml'));
  copyFileSync(join(ROOT, 'examples', 'ci', 'allurerc.yaml'), join(dir, 'examples', 'ci', 'allurerc.yaml'));
  const { text, secrets } = teamTarget(sandboxDocument, 'team-staging');
  writeFileSync(join(dir, 'examples', 'target.example.yaml'), text);
  writeFileSync(join(dir, '.gitignore'), '.gitlab-ci-local/\n.gitlab-ci-local-variables.yml\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.name=selftest', '-c', 'user.email=selftest@example.invalid', 'commit', '-q', '-m', 'the team repository');
  const binDir = join(base, 'bin');
  mkdirSync(binDir);
  const npm = execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();
  writeFileSync(join(binDir, 'npm'), NPM_SHIM(npm));
  chmodSync(join(binDir, 'npm'), 0o755);
  return { dir, secrets, binDir };
}
