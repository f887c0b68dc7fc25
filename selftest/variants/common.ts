/** What the fault run and the latitude run share: marker credentials, the leak scan, the suite files of an area. */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SECRET_KEY_PATTERN } from '../../harness/secrets/redact.ts';
import type { Variation } from '../../sandbox/faults/types.ts';
import type { Fault } from '../../sandbox/faults/types.ts';
import { loadServices } from '../../sandbox/services/index.ts';
import { ROOT } from '../helpers.ts';

const JWT_SHAPE = /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/;

/** Credentials of every service replaced by markers, so that a leak of any of them can be found in any output. */
export async function markerCredentials(): Promise<{ overrides: Record<string, Record<string, string>>; markers: string[] }> {
  const overrides: Record<string, Record<string, string>> = {};
  const markers: string[] = [];
  for (const { service, credentials } of await loadServices()) {
    for (const [key, value] of Object.entries(credentials)) {
      if (!SECRET_KEY_PATTERN.test(key) || typeof value !== 'string') continue;
      // Alphanumeric, a multiple of 4 long: usable as a token, and as a base64 secret key too.
      const marker = `PCMARK${service.area.slice(0, 3).toUpperCase()}${randomBytes(12).toString('hex')}`.slice(0, 32);
      (overrides[service.area] ??= {})[key] = marker;
      markers.push(marker);
    }
  }
  return { overrides, markers };
}

function* filesUnder(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

/** Where a marker secret or a whole JWT shows in the texts (console output, report files). */
export function leaks(texts: Array<[string, string]>, markers: string[]): string[] {
  const found: string[] = [];
  for (const [where, text] of texts) {
    for (const m of markers) if (text.includes(m)) found.push(`${where} contains a secret (${m.slice(0, 9)}…)`);
    if (JWT_SHAPE.test(text)) found.push(`${where} contains a whole JWT`);
  }
  return found;
}

/** The texts of a run to scan: its console output and every report file. */
export function reportTexts(console: string, reportDir: string): Array<[string, string]> {
  const texts: Array<[string, string]> = [['console output', console]];
  for (const file of filesUnder(reportDir)) texts.push([relative(reportDir, file), readFileSync(file, 'utf8')]);
  return texts;
}

/** Every suite file of an area (relative to the project root), the rate-limit files included. */
export function areaFiles(area: string): string[] {
  return [...filesUnder(join(ROOT, 'suites', area))].filter((f) => f.endsWith('.test.ts')).map((f) => relative(ROOT, f));
}

/** Suite files of every area. */
export function allSuiteFiles(): string[] {
  return [...filesUnder(join(ROOT, 'suites'))].filter((f) => f.endsWith('.test.ts')).map((f) => relative(ROOT, f));
}

/** Suite files of the fault's area that name one of `ids` (all the area's files if none does). */
export function suiteFilesFor(fault: Fault, ids: readonly string[] = fault.catches): string[] {
  const files = areaFiles(fault.area);
  const naming = files.filter((f) => {
    const text = readFileSync(join(ROOT, f), 'utf8');
    return ids.some((id) => text.includes(`'${id}'`));
  });
  return naming.length ? naming : files;
}

/**
 * Variants in batches of at most `size` (or `size(area)`), each batch of one area, so that a batch's
 * workers share its plan; an area's variants in batches of about equal size.
 */
export function batchesOf<V extends Variation>(variants: V[], size: number | ((area: string) => number)): V[][] {
  const out: V[][] = [];
  const areas = [...new Set(variants.map((v) => v.area))];
  for (const area of areas) {
    const of = variants.filter((v) => v.area === area);
    const most = Math.max(1, typeof size === 'number' ? size : size(area));
    const count = Math.ceil(of.length / most);
    for (let i = 0; i < count; i++) out.push(of.slice(Math.round((i * of.length) / count), Math.round(((i + 1) * of.length) / count)));
  }
  return out;
}

/** Where a batch's test time went: the suite files with the most test time summed over its variants, slowest first. */
export function slowestFiles(byVariant: Map<string, Array<{ file: string; durationMs: number }>>, count = 3): string {
  const byFile = new Map<string, number>();
  for (const tests of byVariant.values()) for (const t of tests) byFile.set(t.file, (byFile.get(t.file) ?? 0) + t.durationMs);
  return [...byFile]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([file, ms]) => `${file.replace(/^suites\//, '')} ${(ms / 1000).toFixed(1)} s`)
    .join(', ');
}
