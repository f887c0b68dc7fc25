/**
 * manifest.json: what a certification pack binds together, signed as a whole (manifest.jws). It names the
 * suite (version, commit), the contract (the spec's SHA-256), the target (its file with every credential
 * masked), the documents the run fetched and judged (SHA-256 of each), the waivers, the run (seed, depth,
 * start and end), the counts and the verdict, and the SHA-256 of every other file of the pack, so that
 * changing one byte of any of them is found and named by `certify verify`.
 */
import type { Counts, FetchedDocument, WaiverUse } from '../report/records.ts';
import type { CertificationVerdict } from './verdict.ts';
import type { SpecDigest, SuiteIdentity } from './suite-identity.ts';

export const MANIFEST_FORMAT = 'partner-conformance/certification-manifest@1';
export const MANIFEST_FILE = 'manifest.json';
export const SIGNATURE_FILE = 'manifest.jws';

export interface PackFile {
  sha256: string;
  bytes: number;
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  suite: SuiteIdentity;
  spec: SpecDigest;
  target: {
    name: string;
    kind: string;
    /** The mission: the areas this certification covers. */
    areas: string[];
    vendorConventions: boolean;
    strictPolicy: boolean;
    /** The embedded sandbox, or the target file's name. */
    source: string;
    /** The target file as written, every credential masked. */
    file: unknown;
  };
  run: {
    /** quick | standard | nightly (harness/runner/depth.ts), or custom. */
    depth: string;
    /** Property-test runs per property. */
    runs?: number;
    seed?: number;
    startedAt: string;
    endedAt: string;
  };
  waivers: { file: string; sha256: string; uses: WaiverUse[] } | null;
  documents: FetchedDocument[];
  counts: Counts;
  verdict: { certifiable: boolean; reasons: string[]; basis: string[] };
  /** Who certified, as the certifier gave it (--certifier); absent when not given. */
  certifiedBy?: string;
  signing: { signed: true; alg: string; thumbprint: string } | { signed: false; why: string };
  /** Every file of the pack but manifest.json and manifest.jws, by path relative to the pack. */
  files: Record<string, PackFile>;
}

export type ManifestInput = Omit<Manifest, 'format' | 'files' | 'verdict' | 'counts'> & { verdict: CertificationVerdict; counts: Counts };

export function buildManifest(input: ManifestInput, files: Record<string, PackFile>): Manifest {
  const { verdict, ...rest } = input;
  return {
    format: MANIFEST_FORMAT,
    ...rest,
    verdict: { certifiable: verdict.certifiable, reasons: verdict.reasons, basis: verdict.basis },
    files,
  };
}

/** manifest.json's bytes: the exact bytes the signature covers. */
export const manifestBytes = (manifest: Manifest) => Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8');
