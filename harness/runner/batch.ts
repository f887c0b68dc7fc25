/**
 * A batch run: one vitest run that checks many sandbox variants (faults, latitudes, degenerate targets),
 * each with its own target file, so that the selftest does not start a process, import the harness and
 * read the business document again for every variant. The selftest (selftest/variants/) starts the
 * variants' sandboxes, writes a manifest and, per variant and suite file, a wrapper file:
 *
 *   enterVariant(<variant id>), then a dynamic import of <suite file>?variant=<variant id>
 *
 * The query makes the suite file a module of its own per variant (it declares its tests for that
 * variant's target), while the harness's modules are loaded once per worker and keep what they learn
 * per target (run-scope.ts). CONFORMANCE_BATCH names the manifest; the global setup probes every
 * variant's target and hands the workers what each needs.
 */
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import type { ProbeFailure } from '../request/probe.ts';
import type { Area } from '../areas.ts';
import { enterScope } from './run-scope.ts';

export interface BatchVariant {
  id: string;
  targetFile: string;
  /** Only the tests of these requirements are declared. */
  only?: string[];
}

export interface BatchManifest {
  /** The folder of the wrapper files, relative to the project root. */
  dir: string;
  variants: BatchVariant[];
}

/** What the global setup hands the workers about each variant. */
export interface ProvidedVariant {
  targetFile: string;
  only?: string[];
  unreachable: Partial<Record<Area, ProbeFailure>>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    batch?: Record<string, ProvidedVariant>;
  }
}

export function readBatchManifest(file: string): BatchManifest {
  return JSON.parse(readFileSync(file, 'utf8')) as BatchManifest;
}

/** Called by a wrapper file before it imports its suite file: that file works for this variant. */
export function enterVariant(id: string): void {
  const variant = inject('batch')?.[id];
  if (!variant) throw new Error(`variant ${id} is not in this batch's manifest`);
  enterScope({
    targetFile: variant.targetFile,
    variant: id,
    only: variant.only ? new Set(variant.only) : undefined,
    unreachable: variant.unreachable,
  });
}
