/**
 * What a certification pack says about the suite that produced it and the contract it checked against:
 * the suite's name and version, its git commit (and whether the working tree differed from it), the
 * SHA-256 of specs/requirements.yaml, and the SHA-256 of spec/partner-interfaces.md (found by
 * harness/spec/spec-document.ts: CONFORMANCE_SPEC, else ../shared/spec/ beside the project).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REQUIREMENTS_FILE } from '../spec/requirements.ts';
import { loadSpecDocument, SPEC_ENV, specDocumentLocation } from '../spec/spec-document.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

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

/** The suite's package name and version. */
export function suitePackage(): { name: string; version: string } {
  const pkg = JSON.parse(readFileSync(resolve(PROJECT_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  return { name: pkg.name, version: pkg.version };
}

export function suiteIdentity(): SuiteIdentity {
  const pkg = suitePackage();
  const commit = git(['rev-parse', 'HEAD']);
  const status = commit ? git(['status', '--porcelain', '--untracked-files=no']) : undefined;
  return {
    name: pkg.name,
    version: pkg.version,
    ...(commit ? { commit, modified: status !== undefined && status !== '' } : {}),
    requirementsSha256: sha256Of(readFileSync(REQUIREMENTS_FILE)),
  };
}

export type SpecDigest =
  | { file: 'spec/partner-interfaces.md'; sha256: string; bytes: number; from: string }
  | { file: 'spec/partner-interfaces.md'; missing: string };

/** The spec's SHA-256, or why it could not be read (never a path of this machine in the result). */
export function specDigest(env: NodeJS.ProcessEnv = process.env): SpecDigest {
  const { from } = specDocumentLocation(env);
  const where = from === SPEC_ENV ? SPEC_ENV : '../shared/spec/partner-interfaces.md beside the project';
  try {
    const doc = loadSpecDocument(env);
    return { file: 'spec/partner-interfaces.md', sha256: doc.sha256, bytes: Buffer.byteLength(doc.text, 'utf8'), from: where };
  } catch {
    return {
      file: 'spec/partner-interfaces.md',
      missing: `not readable at ${where}; clone shared/ beside the project, or set ${SPEC_ENV} to the file`,
    };
  }
}
