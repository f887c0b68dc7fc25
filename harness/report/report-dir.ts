/**
 * The folder reports go to. Made one level at a time: node's own recursive mkdir never returns where a
 * file system answers ENOENT for a folder it cannot hold (a virtual one such as /proc), and a run that
 * finished its tests would spin there with no summary. Checked before a run, so that a folder that
 * cannot be made or written ends the command with one line instead of the run's reports.
 */
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

/** Makes `dir` and its missing parents; throws (never loops) when one cannot be made. */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    let isDirectory: boolean | undefined;
    try {
      isDirectory = statSync(at).isDirectory();
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') throw error;
    }
    if (isDirectory === false) throw Object.assign(new Error(`ENOTDIR: ${at} is a file, not a folder`), { code: 'ENOTDIR' });
    if (isDirectory || dirname(at) === at) break;
    missing.unshift(at);
  }
  for (const at of missing) {
    try {
      mkdirSync(at);
    } catch (error) {
      if (codeOf(error) !== 'EEXIST' || !statSync(at).isDirectory()) throw error;
    }
  }
}

/** Why reports cannot be written to `dir` (made when missing, then a file written and removed), or undefined. */
export function reportDirProblem(dir: string): string | undefined {
  try {
    makeDirs(dir);
  } catch (error) {
    return codeOf(error) === 'ENOTDIR'
      ? `${dir} is a file (or lies under one), not a folder`
      : `${dir} cannot be created (${codeOf(error)})`;
  }
  const probe = join(dir, `.write-check-${process.pid}`);
  try {
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
    return undefined;
  } catch (error) {
    return `${dir} cannot be written (${codeOf(error)})`;
  }
}
