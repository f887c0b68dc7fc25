/**
 * Reports written whole or not at all: a file is written under a temporary name and renamed, so a write
 * that fails leaves neither a truncated file nor the temporary one; a run's reports are swapped in for the
 * last run's as a set (the last run's outputs go, those it had and this run has not included; what is not
 * a run's output stays), and a swap that fails midway puts the last run's back. A folder a killed run left
 * behind is removed by the next.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeStagingFolder, publishReports, reportFilesLine, reportFolderOf } from '../../harness/report/publish.ts';
import { tempDir } from '../helpers.ts';

function lastRun(dir: string): void {
  mkdirSync(join(dir, 'evidence'), { recursive: true });
  mkdirSync(join(dir, 'fetched'), { recursive: true });
  mkdirSync(join(dir, 'certification'), { recursive: true });
  for (const [file, text] of Object.entries({
    'conformance.json': '{"last":true}',
    'junit.xml': '<last/>',
    'drift.json': '{"last":true}',
    'evidence/insurance.har': 'last',
    'fetched/abc-openapi.yaml': 'last',
    'README.md': 'mine',
    'certification/manifest.json': '{}',
    'bench.json': '{}',
  }))
    writeFileSync(join(dir, file), text);
}

/** The report folder's files and their text, its hidden folders (a run's own) left out. */
const contents = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
      .filter((path) => !path.startsWith('.'))
      .map((path) => [path, readFileSync(join(dir, path), 'utf8')]),
  );

describe('a file written whole', () => {
  it('leaves the file as it was, and no temporary file, when the write fails', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'junit.xml'), 'whole');
    // A file larger than the process may write: EFBIG midway, as a full disk gives ENOSPC (SIGXFSZ ignored, as a shell's trap does).
    const script = `import { writeWhole } from './harness/report/publish.ts';
      try { writeWhole(${JSON.stringify(join(dir, 'junit.xml'))}, 'x'.repeat(200000)); } catch (error) { console.log(error.code); }`;
    const child = spawnSync(
      'bash',
      ['-c', `trap '' XFSZ; ulimit -f 64; exec "$0" --import tsx --input-type=module -e "$1"`, process.execPath, script],
      {
        cwd: join(import.meta.dirname, '..', '..'),
        encoding: 'utf8',
      },
    );
    expect(child.stdout.trim()).toBe('EFBIG');
    expect(readdirSync(dir)).toEqual(['junit.xml']);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toBe('whole');
  }, 30_000);
});

describe("a run's reports, swapped in", () => {
  it("replace every output of the last run, those this run has not too, and leave what is not a run's output", () => {
    const dir = tempDir();
    lastRun(dir);
    const staging = makeStagingFolder(dir);
    expect(reportFolderOf(staging)).toBe(dir);
    mkdirSync(join(staging, 'evidence'));
    writeFileSync(join(staging, 'evidence', 'speech.har'), 'new');
    writeFileSync(join(staging, 'conformance.json'), '{"new":true}');
    writeFileSync(join(staging, 'report.html'), 'new');
    publishReports(staging, dir);
    expect(contents(dir)).toEqual({
      'conformance.json': '{"new":true}',
      'report.html': 'new',
      'evidence/speech.har': 'new',
      'README.md': 'mine',
      'certification/manifest.json': '{}',
      'bench.json': '{}',
    });
    expect(readdirSync(staging)).toEqual([]);
    expect(reportFilesLine(dir)).toMatch(/: report\.html \(open it in a browser\), conformance\.json, evidence\/ \(1 HAR file\(s\)\)$/);
  });

  it("put the last run's back when the swap fails midway", () => {
    const dir = tempDir();
    lastRun(dir);
    const before = contents(dir);
    const staging = makeStagingFolder(dir);
    for (const name of ['conformance.md', 'junit.xml', 'conformance.json']) writeFileSync(join(staging, name), 'new');
    // The file system fails the second move in (a full directory, a vanished disk).
    let movedIn = 0;
    const failing: typeof renameSync = (from, to) => {
      if (String(from).startsWith(staging) && ++movedIn === 2)
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      renameSync(from, to);
    };
    expect(() => publishReports(staging, dir, failing)).toThrow(/ENOSPC/);
    expect(contents(dir)).toEqual(before);
    expect(readdirSync(dir).filter((n) => n.startsWith('.'))).toEqual([expect.stringMatching(/^\.partial-/)]);
  });

  it('a staging folder left by a run that was killed is removed by the next run; one of a live run is not', () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim();
    mkdirSync(join(dir, `.partial-${dead}-abc`));
    mkdirSync(join(dir, `.partial-${process.ppid}-abc`));
    const mine = makeStagingFolder(dir);
    expect(existsSync(join(dir, `.partial-${dead}-abc`))).toBe(false);
    expect(existsSync(join(dir, `.partial-${process.ppid}-abc`))).toBe(true);
    expect(existsSync(mine)).toBe(true);
  });
});
