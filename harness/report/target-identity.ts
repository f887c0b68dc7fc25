/**
 * Which target a run checked, as its summary records it, and whether two runs checked the same one. A
 * rerun of a night's failures (`run --only-failed --from DIR`) and a comparison of runs (`diff`) mean
 * something only against the same target: a failure rerun against a clean sandbox "passes" and would be
 * called flaky. A target is known by its name, its kind and a hash of its services' URLs (URLs carry no
 * credential: the target file's rules refuse one), never by a secret; the embedded sandbox, whose ports
 * are new in every run, by the faults it was started with.
 */
import { createHash } from 'node:crypto';
import { isAbsolute, relative, resolve } from 'node:path';
import type { RunInfo } from '../runner/run-info.ts';
import type { TargetRecord } from './records.ts';

/** What a target's identity is made of: its file's name, kind and the URLs of its services. */
export interface TargetFacts {
  name: string;
  kind: string;
  vendorConventions: boolean;
  strictPolicy: boolean;
  services: Partial<Record<string, { url: string; mtlsUrl?: string }>>;
}

/** The first 16 hex digits of the SHA-256 of every service's url and mtlsUrl, by area. */
export function servicesHash(services: TargetFacts['services']): string {
  const lines = Object.entries(services)
    .filter((entry): entry is [string, { url: string; mtlsUrl?: string }] => !!entry[1])
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([area, s]) => `${area} ${s.url} ${s.mtlsUrl ?? ''}`);
  return createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16);
}

/**
 * The record of a run's target. `file` is the target file relative to `root`, the suite's folder, where a
 * rerun in another checkout of the same repository finds it again; the embedded sandbox has no file and
 * no services hash, but its faults.
 */
export function targetRecord(
  facts: TargetFacts,
  where: { file?: string; root: string; embeddedSandbox?: { faults: string[] } },
): TargetRecord {
  const base = { name: facts.name, kind: facts.kind, vendorConventions: facts.vendorConventions, strictPolicy: facts.strictPolicy };
  if (where.embeddedSandbox) return { ...base, embeddedSandbox: { faults: [...where.embeddedSandbox.faults].sort() } };
  return {
    ...base,
    ...(where.file ? { file: relative(where.root, where.file).replaceAll('\\', '/') } : {}),
    services: servicesHash(facts.services),
  };
}

/** The record of the target the run's global setup resolved; `root` is the suite's folder. */
export function runTarget(info: RunInfo, root: string): TargetRecord {
  const facts = {
    name: info.targetName,
    kind: info.kind,
    vendorConventions: info.vendorConventions,
    strictPolicy: info.strictPolicy,
    services: info.targetData?.services ?? {},
  };
  return targetRecord(facts, { file: info.targetFile || undefined, root, embeddedSandbox: info.embeddedSandbox });
}

/** The target file a record names, resolved against the suite's folder. */
export function recordedTargetFile(record: TargetRecord, root: string): string | undefined {
  return record.file === undefined ? undefined : isAbsolute(record.file) ? record.file : resolve(root, record.file);
}

/** A target in words, for a message: `"partner-staging" (kind staging, services 3fa2…)` or the embedded sandbox with its faults. */
export function describeTarget(record: TargetRecord | undefined): string {
  if (!record) return 'an unnamed target (the summary does not say)';
  if (record.embeddedSandbox)
    return `the embedded sandbox (${record.embeddedSandbox.faults.length ? `faults ${record.embeddedSandbox.faults.join(', ')}` : 'no faults'})`;
  const facts = [
    `kind ${record.kind}`,
    record.services ? `services ${record.services}` : undefined,
    record.file ? `file ${record.file}` : undefined,
  ];
  return `"${record.name}" (${facts.filter(Boolean).join(', ')})`;
}

/**
 * Why two records are not the same target, or undefined when they are. The file's place does not count
 * (the same target file in another checkout is the same target); where either record predates the
 * services hash, name and kind alone are compared, and `unsure` says so.
 */
export function targetDifference(
  a: TargetRecord | undefined,
  b: TargetRecord | undefined,
): { why: string } | { unsure: string } | undefined {
  if (!a || !b) return { unsure: 'one of the runs does not record its target' };
  const predates = (r: TargetRecord) => !r.services && !r.embeddedSandbox;
  if (a.name !== b.name) return { why: 'their targets have other names' };
  if (a.kind !== b.kind) return { why: 'their targets are of other kinds' };
  if (predates(a) || predates(b))
    return {
      unsure:
        'a summary of an earlier version records neither a hash of its services nor its sandbox faults: only the name and kind were compared',
    };
  if (!!a.embeddedSandbox !== !!b.embeddedSandbox) return { why: 'one checked the embedded sandbox, the other a target file' };
  if (a.embeddedSandbox && b.embeddedSandbox)
    return a.embeddedSandbox.faults.join(',') === b.embeddedSandbox.faults.join(',')
      ? undefined
      : { why: 'the embedded sandbox was started with other faults' };
  return a.services === b.services ? undefined : { why: "their services' URLs differ" };
}
