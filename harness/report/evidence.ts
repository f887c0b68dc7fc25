/**
 * The run's evidence in the reports: the exchange records the tests handed over (evidence-log.ts) as
 * one HAR file per area, `evidence/<area>.har`, and each test's references into them,
 * `evidence/<area>.har#e<n>` (the entry whose `_id` is e<n>, the n-th of its file, in the order the
 * exchanges started). An exchange cited by many tests is written once. A merge of shard reports
 * numbers the shards' entries anew, area by area, and rewrites the references.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { suitePackage } from '../certify/suite-identity.ts';
import { printableJson } from '../text/printable.ts';
import { BODY_CAP_BYTES, type ExchangeRecord } from './exchange-record.ts';
import type { ShippedEvidence } from './evidence-log.ts';
import { harEntries, harEntry, harText } from './har.ts';
import { writeWhole } from './publish.ts';
import type { EvidenceFiles, RunSummary, TestRecord } from './records.ts';

export const EVIDENCE_DIR = 'evidence';

const COMMENT = `The HTTP exchanges of one partner-conformance run, every credential masked, each body cut at ${BODY_CAP_BYTES} bytes where longer; conformance.json (results.json in a certification pack) names each test's entries by _id.`;

/** The evidence files of a run, to be written into its report folder. */
export interface EvidenceOutput {
  index: EvidenceFiles;
  files: Array<{ file: string; text: string }>;
}

const fileOf = (area: string) => `${EVIDENCE_DIR}/${area.replace(/[^a-z0-9-]/gi, '_')}.har`;

function output(byArea: Map<string, string[]>): EvidenceOutput {
  const creator = suitePackage();
  const files = [...byArea]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([area, entries]) => ({ area, file: fileOf(area), entries: entries.length, text: harText(creator, COMMENT, entries) }));
  return {
    index: {
      format: 'HAR 1.2',
      bodyCapBytes: BODY_CAP_BYTES,
      files: files.map(({ area, file, entries, text }) => ({ area, file, entries, bytes: Buffer.byteLength(text) })),
    },
    files: files.map(({ file, text }) => ({ file, text })),
  };
}

/** Collects the records of a run's tests, numbers them and renders the HAR files. */
export class RunEvidence {
  private readonly records = new Map<string, ExchangeRecord>();
  private readonly refs = new Map<string, string>();

  collect(shipped: ShippedEvidence | undefined): void {
    for (const record of shipped?.records ?? []) this.records.set(record.id, record);
  }

  /** Numbers every record, area by area in the order they started, and renders each area's HAR. */
  render(): EvidenceOutput {
    const byArea = new Map<string, ExchangeRecord[]>();
    for (const record of this.records.values()) byArea.set(record.area, [...(byArea.get(record.area) ?? []), record]);
    const entries = new Map<string, string[]>();
    for (const [area, records] of byArea) {
      records.sort((a, b) => a.startedAt - b.startedAt);
      entries.set(
        area,
        records.map((record, i) => {
          this.refs.set(record.id, `${fileOf(area)}#e${i + 1}`);
          return printableJson(harEntry(record, `e${i + 1}`));
        }),
      );
    }
    return output(entries);
  }

  /** A test's references (after render): what it made or judged, and the controls among them. */
  referencesOf(shipped: ShippedEvidence | undefined): Pick<TestRecord, 'evidence' | 'controls'> {
    const evidence: string[] = [];
    const controls: string[] = [];
    for (const [id, role] of shipped?.cited ?? []) {
      const ref = this.refs.get(id);
      if (!ref) continue;
      evidence.push(ref);
      if (role === 'control') controls.push(ref);
    }
    return { ...(evidence.length ? { evidence } : {}), ...(controls.length ? { controls } : {}) };
  }
}

/** Replaces the report folder's evidence with the run's (none: the folder holds no evidence of an earlier run), each file whole. */
export function writeEvidence(reportDir: string, evidence: EvidenceOutput | undefined): void {
  rmSync(join(reportDir, EVIDENCE_DIR), { recursive: true, force: true });
  for (const { file, text } of evidence?.files ?? []) {
    mkdirSync(dirname(join(reportDir, file)), { recursive: true });
    writeWhole(join(reportDir, file), text);
  }
}

/** The entries of HAR files by reference (`<file>#<_id>`), as report.html shows a test's exchanges. */
export function exchangesOf(files: ReadonlyArray<{ file: string; text: string }>): Map<string, unknown> {
  const exchanges = new Map<string, unknown>();
  for (const { file, text } of files) for (const entry of harEntries(text)) exchanges.set(`${file}#${String(entry._id)}`, entry);
  return exchanges;
}

/** The folder a summary was read from (given the folder or its conformance.json). */
const folderOf = (path: string) => (existsSync(path) && statSync(path).isDirectory() ? path : dirname(path));

/**
 * The shards' evidence as one set of files: each area's entries of every shard, numbered anew in shard
 * order, and the shards' summaries with their tests' references rewritten to them. A shard whose HAR
 * files were not kept (only its conformance.json) merges without them: `missing` names them.
 */
export function mergeEvidence<P extends { path: string; summary: RunSummary }>(
  parts: readonly P[],
): { parts: P[]; evidence?: EvidenceOutput; missing: string[] } {
  const byArea = new Map<string, string[]>();
  const missing: string[] = [];
  const rewritten = parts.map((part) => {
    const refs = new Map<string, string>();
    for (const { area, file } of part.summary.evidence?.files ?? []) {
      const list = byArea.get(area) ?? [];
      byArea.set(area, list);
      const path = join(folderOf(part.path), file);
      if (!existsSync(path)) {
        missing.push(path);
        continue;
      }
      for (const entry of harEntries(readFileSync(path, 'utf8'))) {
        const id = `e${list.length + 1}`;
        refs.set(`${file}#${String(entry._id)}`, `${fileOf(area)}#${id}`);
        list.push(printableJson({ ...entry, _id: id }));
      }
    }
    const map = (list: string[] | undefined) => {
      const out = list?.map((ref) => refs.get(ref)).filter((ref): ref is string => !!ref);
      return out?.length ? out : undefined;
    };
    const tests = part.summary.tests.map((t) => (t.evidence ? { ...t, evidence: map(t.evidence), controls: map(t.controls) } : t));
    return { ...part, summary: { ...part.summary, tests } };
  });
  const kept = new Map([...byArea].filter(([, entries]) => entries.length));
  return { parts: rewritten, evidence: kept.size ? output(kept) : undefined, missing };
}
