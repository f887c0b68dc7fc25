/**
 * A run's reports are written whole or not at all. Each file is written under a temporary name and
 * renamed (a full disk leaves no truncated HAR or summary); a run started by the command line writes all
 * of them into a fresh folder inside the report folder (`.partial-<pid>-…`, the same file system, so a
 * rename moves it) and, once they are all there, swaps them in for the last run's: the last run's outputs
 * go (those this run did not make too, so the folder never mixes two runs), this run's come in, its
 * summary last. A run refused before it starts, or one that could not write its reports, leaves the last
 * run's as they were. Anything else in the report folder (its README, a certification pack, bench.json)
 * is not a run's output and stays.
 */
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { threadId } from 'node:worker_threads';
import { makeDirs } from './report-dir.ts';

/** What one run writes in its report folder, its summary last; the next run replaces all of them. */
export const RUN_OUTPUTS = [
  'conformance.md',
  'junit.xml',
  'evidence',
  'fetched',
  'drift.json',
  'report.html',
  'allure-results',
  'pacing.json',
  'conformance.json',
] as const;

const STAGING = '.partial-';
const PREVIOUS = '.previous-';

/** Writes a file whole: under a temporary name beside it, then renamed; nothing is left of a write that failed. */
export function writeWhole(path: string, data: string | Buffer): void {
  // Workers are threads of one process: each writes under a name of its own.
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}-${threadId}.tmp`);
  try {
    writeFileSync(temporary, data);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The folders a run killed before it could clean up left behind (their process is gone). */
function removeAbandoned(reportDir: string): void {
  for (const name of readdirSync(reportDir)) {
    const pid = Number(/^\.(?:partial|previous)-(\d+)-/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !alive(pid)) rmSync(join(reportDir, name), { recursive: true, force: true });
  }
}

/** A fresh folder inside the report folder for a run to write its reports into. */
export function makeStagingFolder(reportDir: string): string {
  makeDirs(reportDir);
  removeAbandoned(reportDir);
  return mkdtempSync(join(reportDir, `${STAGING}${process.pid}-`));
}

/** The report folder a run's reports are meant for: the folder itself, or the one a staging folder is in. */
export function reportFolderOf(dir: string): string {
  return basename(dir).startsWith(STAGING) ? dirname(resolve(dir)) : dir;
}

/** Names in `order` first (the summary last), then the rest. */
const ordered = (names: readonly string[]) => {
  const rank = (name: string) => {
    const i = (RUN_OUTPUTS as readonly string[]).indexOf(name);
    return i < 0 ? RUN_OUTPUTS.length - 1.5 : i;
  };
  return [...names].sort((a, b) => rank(a) - rank(b));
};

/**
 * Swaps the reports of `staging` in for the last run's in `reportDir`; on a failure midway, the last
 * run's are put back and the error is thrown. The staging folder is left empty. (`rename` is the file
 * system's; a selftest hands one that fails.)
 */
export function publishReports(staging: string, reportDir: string, rename: typeof renameSync = renameSync): void {
  const incoming = ordered(readdirSync(staging).filter((name) => !name.endsWith('.tmp')));
  const outgoing = [...new Set([...RUN_OUTPUTS, ...incoming])].filter((name) => existsSync(join(reportDir, name)));
  const previous = mkdtempSync(join(reportDir, `${PREVIOUS}${process.pid}-`));
  const movedOut: string[] = [];
  const movedIn: string[] = [];
  try {
    for (const name of outgoing) {
      rename(join(reportDir, name), join(previous, name));
      movedOut.push(name);
    }
    for (const name of incoming) {
      rename(join(staging, name), join(reportDir, name));
      movedIn.push(name);
    }
  } catch (error) {
    for (const name of movedIn) rmSync(join(reportDir, name), { recursive: true, force: true });
    for (const name of movedOut) renameSync(join(previous, name), join(reportDir, name));
    throw error;
  } finally {
    rmSync(previous, { recursive: true, force: true });
  }
}

/** The report folder in one line, for the end of the console: where it is and what a person opens. */
export function reportFilesLine(reportDir: string): string {
  const shown = relative(process.cwd(), reportDir);
  const where = shown && !shown.startsWith('..') && !shown.startsWith('/') ? `${shown}/` : reportDir;
  const count = (folder: string, suffix: string) => {
    try {
      return readdirSync(join(reportDir, folder)).filter((n) => n.endsWith(suffix)).length;
    } catch {
      return 0;
    }
  };
  const described: Record<string, () => string> = {
    'report.html': () => 'report.html (open it in a browser)',
    evidence: () => `evidence/ (${count('evidence', '.har')} HAR file(s))`,
    fetched: () => `fetched/ (${count('fetched', '.json')} document(s))`,
    'allure-results': () => 'allure-results/',
  };
  const present = [
    'report.html',
    'conformance.md',
    'conformance.json',
    'junit.xml',
    'evidence',
    'fetched',
    'drift.json',
    'allure-results',
  ].filter((name) => existsSync(join(reportDir, name)));
  return `reports in ${where}: ${present.map((name) => described[name]?.() ?? name).join(', ')}`;
}
