/**
 * The contract, spec/partner-interfaces.md: where it is, its text, and its SHA-256 (a certification
 * names the exact contract it certified against). The project never copies the spec: it is cloned
 * with `shared/` beside it, or CONFORMANCE_SPEC names the file.
 *
 * Also the one rule by which the project's data cites the spec (requirement quotes, traceability
 * statements): `specContains`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { specFileOf } from '../runner/settings.ts';

export const SPEC_ENV = 'CONFORMANCE_SPEC';
const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Beside the project: <parent>/shared/spec/partner-interfaces.md. */
export const DEFAULT_SPEC_PATH = resolve(PROJECT_ROOT, '..', 'shared', 'spec', 'partner-interfaces.md');

export interface SpecDocument {
  /** Absolute path the text was read from. */
  path: string;
  text: string;
  /** SHA-256 of the file's bytes, lower-case hex. */
  sha256: string;
}

export class SpecDocumentError extends Error {
  readonly code = 'SPEC_DOCUMENT_MISSING';
  constructor(message: string) {
    super(`SPEC_DOCUMENT_MISSING: ${message}`);
    this.name = 'SpecDocumentError';
  }
}

/** Where the contract is looked for, and why there. */
export function specDocumentLocation(env: NodeJS.ProcessEnv = process.env): { path: string; from: string } {
  const named = specFileOf(env);
  if (named) return { path: resolve(named), from: `${SPEC_ENV}` };
  return { path: DEFAULT_SPEC_PATH, from: 'the default beside the project (../shared/spec/partner-interfaces.md)' };
}

const cache = new Map<string, SpecDocument>();

/** Reads the contract once per path; throws SpecDocumentError naming where it looked. */
export function loadSpecDocument(env: NodeJS.ProcessEnv = process.env): SpecDocument {
  const { path, from } = specDocumentLocation(env);
  const cached = cache.get(path);
  if (cached) return cached;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new SpecDocumentError(
      `the contract spec/partner-interfaces.md could not be read at ${path} (${from}; ${reason}). ` +
        `Clone shared/ beside the project, or set ${SPEC_ENV} to the file's path.`,
    );
  }
  const doc = { path, text: bytes.toString('utf8'), sha256: createHash('sha256').update(bytes).digest('hex') };
  cache.set(path, doc);
  return doc;
}

/**
 * The form in which spec text is compared. Only two things are ignored, because they are layout and
 * not words: runs of whitespace (a line break, indentation, table padding) count as one space, and the
 * markdown characters `|` (table cells) and `` ` `` (code spans) are dropped, so a quote may cite a
 * table row as "alg | string | HS256" or "alg string `HS256`". Case, punctuation, quotes and every
 * other character must match exactly.
 */
export function normaliseSpecText(text: string): string {
  return text.replace(/[|`]/g, '').replace(/\s+/g, ' ').trim();
}

const normalisedCache = new WeakMap<SpecDocument, string>();

/** True when `words` occur in the spec after normalising both sides (see normaliseSpecText). */
export function specContains(doc: SpecDocument, words: string): boolean {
  const needle = normaliseSpecText(words);
  if (!needle) return false;
  let haystack = normalisedCache.get(doc);
  if (haystack === undefined) {
    haystack = normaliseSpecText(doc.text);
    normalisedCache.set(doc, haystack);
  }
  return haystack.includes(needle);
}
