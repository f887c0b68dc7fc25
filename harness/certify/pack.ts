/**
 * Writes a certification pack into a folder: results.json (the run's summary, every test, nothing cut),
 * junit.xml, the fetched documents (fetched/), the evidence (evidence/*.har, the exchanges each test
 * record points at), report.html, then manifest.json over all of them, then manifest.jws when the
 * certifier gave a key. The folder is the pack: nothing else may be in it.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { printableJson } from '../text/printable.ts';
import { exchangesOf } from '../report/evidence.ts';
import { renderJunit } from '../report/junit.ts';
import { makeDirs } from '../report/report-dir.ts';
import type { RunSummary } from '../report/records.ts';
import { renderReportHtml } from './html/report-html.ts';
import {
  buildManifest,
  MANIFEST_FILE,
  manifestBytes,
  SIGNATURE_FILE,
  type Manifest,
  type ManifestInput,
  type PackFile,
} from './manifest.ts';
import { signManifest, type SigningKey } from './signing.ts';
import { sha256Of } from './suite-identity.ts';

export const PACK_FILES = { report: 'report.html', results: 'results.json', junit: 'junit.xml' } as const;

export class PackFolderError extends Error {}

/**
 * Makes `dir` ready for a new pack: created when missing; emptied when it holds an earlier pack (a
 * manifest.json); refused when it holds anything else, so that `--out .` never deletes a user's files.
 */
export function preparePackFolder(dir: string): void {
  if (!existsSync(dir)) {
    try {
      return void makeDirs(dir);
    } catch (error) {
      throw new PackFolderError(`${dir} cannot be created (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }
  const entries = readdirSync(dir);
  if (entries.length && !entries.includes(MANIFEST_FILE))
    throw new PackFolderError(`${dir} is not empty and holds no earlier pack (no ${MANIFEST_FILE}); name an empty or new folder`);
  for (const name of entries) rmSync(join(dir, name), { recursive: true, force: true });
}

export interface PackInput {
  dir: string;
  summary: RunSummary;
  /** The report folder of the run, where its fetched documents were kept. */
  runReportDir: string;
  manifest: ManifestInput;
  key?: SigningKey;
}

export async function writePack(input: PackInput): Promise<Manifest> {
  const { dir, summary } = input;
  const files: Record<string, PackFile> = {};
  const write = (name: string, data: string | Buffer) => {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, data);
    const bytes = readFileSync(path);
    files[name] = { sha256: sha256Of(bytes), bytes: bytes.length };
  };
  write(PACK_FILES.results, `${printableJson(summary, 2)}\n`);
  write(PACK_FILES.junit, renderJunit(summary));
  for (const doc of summary.documents ?? []) {
    if (!doc.file) continue;
    const target = join(dir, doc.file);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(input.runReportDir, doc.file), target);
    const bytes = readFileSync(target);
    files[doc.file] = { sha256: sha256Of(bytes), bytes: bytes.length };
  }
  // The HAR files as the run wrote them (their bytes are hashed as they are), and their entries for report.html.
  const hars = (summary.evidence?.files ?? []).map(({ file }) => ({ file, bytes: readFileSync(join(input.runReportDir, file)) }));
  for (const { file, bytes } of hars) write(file, bytes);
  const exchanges = exchangesOf(hars.map(({ file, bytes }) => ({ file, text: bytes.toString('utf8') })));
  write(PACK_FILES.report, renderReportHtml({ summary, manifest: input.manifest, exchanges }));
  const manifest = buildManifest(input.manifest, files);
  const bytes = manifestBytes(manifest);
  writeFileSync(join(dir, MANIFEST_FILE), bytes);
  if (input.key) writeFileSync(join(dir, SIGNATURE_FILE), `${await signManifest(bytes, input.key)}\n`);
  return manifest;
}
