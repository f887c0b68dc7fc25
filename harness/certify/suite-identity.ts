/**
 * What a certification pack says about the suite that produced it and the contract it checked against:
 * the suite's name and version, its git commit (and whether the working tree differed from it), the
 * SHA-256 of specs/requirements.yaml, and the SHA-256 of spec/partner-interfaces.md.
 *
 * The spec is looked for where harness/spec-document.ts (in progress elsewhere) will look: CONFORMANCE_SPEC,
 * else ../shared/spec/partner-interfaces.md beside the project. When that module lands, `specDigest`
 * should call its `loadSpecDocument` instead of reading the file here.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REQUIREMENTS_FILE } from '../requirements.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SPEC_ENV = 'CONFORMANCE_SPEC';
const DEFAULT_SPEC = resolve(PROJECT_ROOT, '..', 'shared', 'spec', 'partner-interfaces.md');

export const sha256Of = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

export interface SuiteIdentity {
  name: string;
  version: string;
  /** The git commit of the suite, when it runs from a clone. */
  commit?: string;
  /** true when tracked files differ from that commit: the commit alone does not name the code that ran. */
  modified?: boolean;
  requirementsSha256: string;
}

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: PROJECT_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim();
  } catch {
    return undefined;
  }
}

export function suiteIdentity(): SuiteIdentity {
  const pkg = JSON.parse(readFileSync(resolve(PROJECT_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  const commit = git(['rev-parse', 'HEAD']);
  const status = commit ? git(['status', '--porcelain', '--untracked-files=no']) : undefined;
  return {
    name: pkg.name,
    version: pkg.version,
    ...(commit ? { commit, modified: status !== undefined && status !== '' } : {}),
    requirementsSha256: sha256Of(readFileSync(REQUIREMENTS_FILE)),
  };
}

export type SpecDigest = { file: 'spec/partner-interfaces.md'; sha256: string; bytes: number; from: string } | { file: 'spec/partner-interfaces.md'; missing: string };

/** The spec's SHA-256, or why it could not be read (never a path of this machine in the result). */
export function specDigest(env: NodeJS.ProcessEnv = process.env): SpecDigest {
  const named = env[SPEC_ENV]?.trim();
  const path = named ? resolve(named) : DEFAULT_SPEC;
  const from = named ? SPEC_ENV : '../shared/spec/partner-interfaces.md beside the project';
  try {
    const bytes = readFileSync(path);
    return { file: 'spec/partner-interfaces.md', sha256: sha256Of(bytes), bytes: bytes.length, from };
  } catch (error) {
    return { file: 'spec/partner-interfaces.md', missing: `not readable at ${from} (${(error as NodeJS.ErrnoException).code ?? error}); set ${SPEC_ENV} to the file` };
  }
}
