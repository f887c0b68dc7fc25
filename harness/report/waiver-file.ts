/**
 * The waiver file: where it is, and its entries, validated. Like a target file, a bad waiver file stops the
 * run at once (TARGET_FILE_INVALID, exit 2) with one line naming the file and the entry: a typo must never
 * quietly waive nothing, nor waive more than meant.
 *
 * Where it is, first found wins: `--waivers FILE` (the CLI puts it in CONFORMANCE_WAIVERS), the target
 * file's `waivers:` key (relative to the target file's folder), `waivers.yaml` beside the target file.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { readBounded, readBoundedBytes } from '../config/bounded-file.ts';
import { parseYamlText } from '../config/yaml-text.ts';
import { ToolError } from '../errors.ts';
import { requirements } from '../spec/requirements.ts';
import { schemaRegistry, SCHEMA_BASE } from '../spec/schemas.ts';
import type { WaiverRecord } from './records.ts';
import { variableOf, WAIVERS_ENV } from '../runner/settings.ts';

export const WAIVERS_BESIDE_TARGET = 'waivers.yaml';

export interface WaiverFile {
  path: string;
  /** SHA-256 of the file's bytes (a certification pack names the waivers it applied). */
  sha256: string;
  waivers: WaiverRecord[];
}

const invalid = (file: string, detail: string) => new ToolError('TARGET_FILE_INVALID', `waiver file ${file}: ${detail}`);

/** The file's value, and its bytes (which the file's SHA-256 is of). */
function readYaml(file: string): { data: unknown; bytes: Buffer } {
  const bytes = readBoundedBytes(file, (what) => invalid(file, what), 'a waiver file is a few kilobytes');
  try {
    return { data: parseYamlText(bytes.toString('utf8')), bytes };
  } catch (error) {
    throw invalid(file, (error as Error).message);
  }
}

/** The `waivers:` key of a target file, read without interpolating or validating anything else. */
function namedInTarget(targetFile: string): string | undefined {
  try {
    const data = parseYamlText(readBounded(targetFile, (what) => new Error(what), '')) as { waivers?: unknown } | null;
    return typeof data?.waivers === 'string' && data.waivers !== '' ? resolve(dirname(targetFile), data.waivers) : undefined;
  } catch {
    // The target file itself is validated (and its errors reported) by loadTarget.
    return undefined;
  }
}

/** Where the run's waiver file is, or undefined when the run has none. A file that is named must exist. */
export function waiverFileOf(targetFile: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fromEnv = variableOf(WAIVERS_ENV, env)?.trim();
  if (fromEnv) return resolve(fromEnv);
  if (!targetFile) return undefined;
  const named = namedInTarget(targetFile);
  if (named) return named;
  const beside = resolve(dirname(targetFile), WAIVERS_BESIDE_TARGET);
  return existsSync(beside) ? beside : undefined;
}

/** Reads and validates a waiver file; throws a TARGET_FILE_INVALID ToolError naming the entry and the key. */
export function loadWaiverFile(file: string): WaiverFile {
  const { data, bytes } = readYaml(file);
  const validate = schemaRegistry().validator(`${SCHEMA_BASE}/common/waivers.json`);
  if (!validate(data)) {
    const first = validate.errors![0];
    const where =
      first.instancePath
        .replace(/^\/waivers\/(\d+)/, (_m, i: string) => `entry ${Number(i) + 1}`)
        .replace(/^\//, '')
        .replace(/\//g, '.') || '(top level)';
    const detail =
      first.keyword === 'additionalProperties'
        ? `unknown key "${(first.params as { additionalProperty: string }).additionalProperty}"`
        : first.keyword === 'format'
          ? 'must be a date, yyyy-mm-dd'
          : first.message;
    throw invalid(file, `${where}: ${detail}`);
  }
  const known = requirements();
  const waivers = (data as { waivers: Array<Omit<WaiverRecord, 'entry'>> }).waivers.map((w, i) => {
    if (!known.has(w.requirement)) throw invalid(file, `entry ${i + 1}: requirement ${w.requirement} is not in specs/requirements.yaml`);
    return { ...w, entry: i + 1 };
  });
  return { path: file, sha256: createHash('sha256').update(bytes).digest('hex'), waivers };
}

/** The run's waiver file, loaded, or undefined when there is none. */
export function loadRunWaivers(targetFile: string | undefined, env: NodeJS.ProcessEnv = process.env): WaiverFile | undefined {
  const file = waiverFileOf(targetFile, env);
  return file ? loadWaiverFile(file) : undefined;
}

export const waiverFileName = (file: WaiverFile) => basename(file.path);
