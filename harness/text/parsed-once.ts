/**
 * YAML is slow to parse (the `yaml` package takes about a second for specs/requirements.yaml or a
 * business document) and every worker, the reporters and the command line read the same texts. A text
 * is parsed once per content: the result is kept in memory and, as JSON (about a hundred times faster to
 * read), in the temporary folder under the hash of the text and of what parsed it, for every later
 * process. A result that JSON cannot carry exactly (an infinity, a date) is never written; a cache file
 * that cannot be read or written is ignored. Files unused for a day are removed by the first writer.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DIR = join(tmpdir(), 'pc-parsed');
const DAY_MS = 86_400_000;
const memory = new Map<string, unknown>();
let cleaned = false;

/** Whether JSON.parse(JSON.stringify(value)) gives back the same value. */
function jsonExact(value: unknown, depth = 0): boolean {
  if (depth > 200) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every((v) => v !== undefined && jsonExact(v, depth + 1));
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.entries(value as Record<string, unknown>).every(
      ([k, v]) => k !== '__proto__' && v !== undefined && jsonExact(v, depth + 1),
    );
  }
  return false;
}

function removeOld(): void {
  if (cleaned) return;
  cleaned = true;
  try {
    for (const name of readdirSync(DIR)) {
      const path = join(DIR, name);
      if (Date.now() - statSync(path).atimeMs > DAY_MS && Date.now() - statSync(path).mtimeMs > DAY_MS) rmSync(path, { force: true });
    }
  } catch {
    // Nothing to clean.
  }
}

const keyOf = (text: string, parser: string) => createHash('sha256').update(parser).update('\0').update(text).digest('hex').slice(0, 40);

/** What this process or an earlier one kept for `key`, or undefined. */
function recalled<T>(key: string): { value: T } | undefined {
  if (memory.has(key)) return { value: memory.get(key) as T };
  try {
    const value = JSON.parse(readFileSync(join(DIR, `${key}.json`), 'utf8')) as T;
    memory.set(key, value);
    return { value };
  } catch {
    return undefined;
  }
}

/** Keeps `value` for this process and, when JSON carries it exactly, for later ones. */
function kept<T>(key: string, value: T): T {
  memory.set(key, value);
  if (!jsonExact(value)) return value;
  const file = join(DIR, `${key}.json`);
  try {
    mkdirSync(DIR, { recursive: true });
    removeOld();
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify(value));
    renameSync(partial, file);
  } catch {
    // A read-only or full temporary folder: the next process parses again.
  }
  return value;
}

/**
 * `parse(text)`, or what it gave for the same text before. `parser` names the parse (its options and
 * version: change it when the parse changes what it returns). The result is shared: never modify it.
 */
export function parsedOnce<T>(text: string, parse: (text: string) => T, parser: string): T {
  const key = keyOf(text, parser);
  return (recalled<T>(key) ?? { value: kept(key, parse(text)) }).value;
}

/**
 * The same for a result that takes an asynchronous step to make (`make`), kept under `text` (what it is
 * made from, such as a package's version) and `maker`. The result is shared: never modify it.
 */
export async function madeOnce<T>(text: string, make: () => Promise<T>, maker: string): Promise<T> {
  const key = keyOf(text, maker);
  return (recalled<T>(key) ?? { value: kept(key, await make()) }).value;
}
