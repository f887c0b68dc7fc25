/**
 * `partner-conformance certify` (`npm run certify`): runs the whole suite at certification depth against
 * the target (resolved as `run` resolves it) and writes a certification pack; `certify verify <dir>`
 * checks one. Exit codes: certify 0 certifiable, 1 not certifiable (a pack says why, also when nothing
 * could be checked: an unreachable target is not certifiable), 2 the run could not start or was interrupted
 * and no pack was written; verify 0 accepted, 1 not accepted (the reason names the file), 2 bad usage.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { ToolError } from '../errors.ts';
import { certificationVerdict } from '../certify/verdict.ts';
import { maskedTargetFile } from '../certify/masked-target.ts';
import { PackFolderError, preparePackFolder, writePack } from '../certify/pack.ts';
import { KEY_ENV, KEY_FILE_ENV, loadSigningKey, SigningKeyError, type SigningKey } from '../certify/signing.ts';
import { specDigest, suiteIdentity } from '../certify/suite-identity.ts';
import { verifyPack } from '../certify/verify.ts';
import type { RunSummary } from '../report/records.ts';
import { requirements } from '../spec/requirements.ts';
import { DEPTHS, depthOf, type Depth } from '../runner/depth.ts';
import { reportDirOf, runSettings, targetFileOf, variableOf, WAIVERS_ENV } from '../runner/settings.ts';
import { AREAS, type Area } from '../areas.ts';
import { helpOf, type Command, type CommandOption } from './command.ts';
import { interruption } from './interruption.ts';
import { parseArgs } from './args.ts';
import { checkRunInputs } from './run-inputs.ts';
import { planRun, type RunPlan } from './run.ts';
import { startStandaloneSandbox, type StandaloneSandbox } from './sandbox-process.ts';
import { firstUnknown, unknownOptionMessage } from './unknown-options.ts';
import { runVitest } from './vitest-process.ts';

/** Bad usage: reported as one line, exit 2. */
class UsageError extends Error {}

/** The options of a command: values by flag (a switch present gives 'true'), and the rest (unknown flags too). */
function optionsOf(
  argv: readonly string[],
  options: readonly CommandOption[],
): { values: Record<string, string | undefined>; positionals: string[] } {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs(argv, {
      values: options.filter((o) => o.value).map((o) => o.flag),
      switches: options.filter((o) => !o.value).map((o) => o.flag),
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const unknown = firstUnknown(parsed.rest, []);
  if (unknown)
    throw new UsageError(
      unknownOptionMessage(
        unknown,
        options.map((o) => o.flag),
      ),
    );
  return {
    values: { ...parsed.values, ...Object.fromEntries([...parsed.switches].map((flag) => [flag, 'true'])) },
    positionals: parsed.rest,
  };
}

/** The depth of a certification, unless --depth, --runs, CONFORMANCE_DEPTH or CONFORMANCE_RUNS says otherwise. */
export const CERTIFICATION_DEPTH: Depth = 'nightly';
export const CERTIFIER_ENV = 'CONFORMANCE_CERTIFIER';

const CERTIFY_OPTIONS: CommandOption[] = [
  { flag: '--target', value: 'FILE', meaning: 'the target file (default: CONFORMANCE_TARGET, else the embedded sandbox)' },
  {
    flag: '--waivers',
    value: 'FILE',
    meaning: `known failures accepted for a time (default: ${WAIVERS_ENV}, else the target file's waivers: key, else waivers.yaml beside it)`,
  },
  { flag: '--areas', value: 'A,B', meaning: "the mission: only these areas of the target file (default: the target file's areas)" },
  {
    flag: '--depth',
    value: 'D',
    meaning: `quick | standard | nightly (default ${CERTIFICATION_DEPTH}: ${DEPTHS[CERTIFICATION_DEPTH]} runs per property)`,
  },
  { flag: '--runs', value: 'N', meaning: 'property-test runs per property, instead of a depth (CONFORMANCE_RUNS)' },
  { flag: '--seed', value: 'N', meaning: 'the property-test seed (CONFORMANCE_SEED; recorded in the pack)' },
  {
    flag: '--out',
    value: 'DIR',
    meaning: 'the pack folder (default: <CONFORMANCE_REPORT_DIR or reports>/certification); emptied first if it holds an earlier pack',
  },
  {
    flag: '--key',
    value: 'FILE',
    meaning: `PEM private key that signs the pack, Ed25519 (EdDSA) or P-256 (ES256); default ${KEY_ENV} (the PEM), else ${KEY_FILE_ENV}; without one the pack is unsigned and says so`,
  },
  { flag: '--certifier', value: 'NAME', meaning: `who certifies, recorded in the signed manifest (default ${CERTIFIER_ENV})` },
];

const VERIFY_OPTIONS: CommandOption[] = [
  { flag: '--public-key', value: 'FILE', meaning: "the certifier's PEM public key: the pack is accepted only when it signed the pack" },
  { flag: '--thumbprint', value: 'TP', meaning: "the certifier's published key thumbprint (RFC 7638, SHA-256), instead of --public-key" },
  { flag: '--allow-unsigned', meaning: 'accept an unsigned pack whose hashes match (proves no authorship)' },
];

async function verifyMain(argv: string[]): Promise<number> {
  const { values, positionals } = optionsOf(argv, VERIFY_OPTIONS);
  if (positionals.length !== 1) throw new UsageError('certify verify needs exactly one pack folder');
  const dir = resolve(positionals[0]);
  // A path that names no folder is a mistyped argument (exit 2), not a pack that failed its checks (exit 1).
  const kind = statSync(dir, { throwIfNoEntry: false });
  if (!kind?.isDirectory())
    throw new UsageError(`${dir} ${kind ? 'is not a folder' : 'does not exist'}; certify verify takes the folder of a pack`);
  const anchor = values['--public-key']
    ? { publicKeyFile: values['--public-key'] }
    : values['--thumbprint']
      ? { thumbprint: values['--thumbprint'] }
      : undefined;
  const result = await verifyPack(dir, { anchor, allowUnsigned: values['--allow-unsigned'] === 'true' });
  for (const line of result.checks) console.log(`  ok       ${line}`);
  for (const line of result.problems) console.log(`  PROBLEM  ${line}`);
  if (result.thumbprint) console.log(`signing key thumbprint: ${result.thumbprint}`);
  console.log(
    result.accepted
      ? `pack accepted: ${dir} (${result.certifiable ? 'certifiable' : 'NOT certifiable'}, as its report says)`
      : `pack NOT accepted: ${result.problems.length} problem(s)`,
  );
  return result.accepted ? 0 : 1;
}

interface Resolved {
  targetFile: string;
  source: string;
  sandbox?: StandaloneSandbox;
}

/** The target as `run` resolves it; the embedded sandbox is started alone, so that its target file can be recorded. */
async function resolveTarget(option: string | undefined, stop: AbortSignal): Promise<Resolved> {
  const file = option ?? targetFileOf();
  if (file) return { targetFile: resolve(file), source: basename(file) };
  const faults = runSettings(process.env).sandboxFaults;
  const sandbox = await startStandaloneSandbox(faults, stop);
  return {
    targetFile: sandbox.targetFile,
    source: `the embedded sandbox${faults.length ? ` with faults ${faults.join(', ')}` : ''}`,
    sandbox,
  };
}

/** The run's depth as environment: --runs, else --depth, else what the environment says, else certification depth. */
function depthEnv(values: Record<string, string | undefined>): Record<string, string> {
  const runs = values['--runs'];
  if (runs !== undefined) {
    if (!/^[1-9][0-9]*$/.test(runs)) throw new UsageError(`SETTING_INVALID: --runs must be a positive integer, got "${runs}"`);
    return { CONFORMANCE_RUNS: runs };
  }
  if (values['--depth'] || variableOf('CONFORMANCE_RUNS') || variableOf('CONFORMANCE_DEPTH')) return {};
  return { CONFORMANCE_DEPTH: CERTIFICATION_DEPTH, CONFORMANCE_RUNS: String(DEPTHS[CERTIFICATION_DEPTH]) };
}

/** The run's environment and checked inputs, planned as `run` plans them (its options, its validation). */
async function planCertification(values: Record<string, string | undefined>, targetFile: string, runDir: string) {
  const argv = ['--target', targetFile, '--reports', runDir];
  for (const flag of ['--areas', '--depth', '--seed', '--waivers']) if (values[flag]) argv.push(flag, values[flag]!);
  let plan: RunPlan;
  try {
    plan = await planRun(argv, process.env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const env = { ...plan.env, ...depthEnv(values) };
  return { env, inputs: await checkRunInputs(env, process.env, plan.namedBy) };
}

async function certifyMain(argv: string[]): Promise<number> {
  const { values, positionals } = optionsOf(argv, CERTIFY_OPTIONS);
  if (positionals.length)
    throw new UsageError(
      `certify runs the whole suite and takes no files (got ${positionals.join(' ')}); a narrower certification names fewer areas (--areas, or the target file's areas)`,
    );
  let key: SigningKey | undefined;
  try {
    key = await loadSigningKey(values['--key']);
  } catch (error) {
    if (error instanceof SigningKeyError) throw new UsageError(error.message);
    throw error;
  }
  const outDir = resolve(values['--out'] ?? join(reportDirOf(), 'certification'));
  const startedAt = new Date().toISOString();
  // From here on a signal (or npm's end) stops the certification in order: the sandbox and temporary folders go with it.
  const stop = interruption();
  let resolved: Resolved | undefined;
  let runDir: string | undefined;
  try {
    resolved = await resolveTarget(values['--target'], stop);
    runDir = mkdtempSync(join(tmpdir(), 'pc-certify-run-'));
    const { env, inputs } = await planCertification(values, resolved.targetFile, runDir);
    if (stop.aborted) return notCertified(String(stop.reason));
    preparePackFolder(outDir);
    console.log(`certification run: ${resolved.source}; pack: ${outDir}`);
    await runVitest([], env, stop);
    let summary: RunSummary;
    try {
      summary = JSON.parse(readFileSync(join(runDir, 'conformance.json'), 'utf8')) as RunSummary;
    } catch {
      if (stop.aborted) return notCertified(String(stop.reason));
      console.error('partner-conformance certify: the run wrote no summary (see the output above); no pack was written');
      return 2;
    }
    // A run cut short (vitest itself may have been signalled) certifies nothing, whatever it had checked.
    if (stop.aborted || summary.status === 'interrupted') return notCertified(String(stop.reason ?? summary.interruption?.by));
    const endedAt = new Date().toISOString();
    const target = inputs.target!;
    const mission = (summary.areas ?? target.areas) as Area[];
    const spec = specDigest();
    const verdict = certificationVerdict({
      summary,
      registry: requirements(),
      areas: mission,
      allAreas: AREAS,
      specMissing: 'missing' in spec ? spec.missing : undefined,
    });
    const manifest = await writePack({
      dir: outDir,
      summary,
      runReportDir: runDir,
      key,
      manifest: {
        suite: suiteIdentity(),
        spec,
        target: {
          name: target.name,
          kind: target.kind,
          areas: mission,
          vendorConventions: target.vendorConventions,
          strictPolicy: target.strictPolicy,
          source: resolved.source,
          file: maskedTargetFile(resolved.targetFile, target.redactor),
        },
        run: { depth: summary.runs ? depthOf(summary.runs) : 'unknown', runs: summary.runs, seed: summary.seed, startedAt, endedAt },
        waivers:
          inputs.waivers && summary.waivers
            ? { file: summary.waivers.file, sha256: inputs.waivers.sha256, uses: summary.waivers.uses }
            : null,
        documents: summary.documents ?? [],
        counts: summary.counts,
        verdict,
        ...((values['--certifier'] ?? variableOf(CERTIFIER_ENV))
          ? { certifiedBy: values['--certifier'] ?? variableOf(CERTIFIER_ENV) }
          : {}),
        signing: key
          ? { signed: true, alg: key.alg, thumbprint: key.thumbprint }
          : { signed: false, why: `no signing key was given (--key, ${KEY_ENV} or ${KEY_FILE_ENV})` },
      },
    });
    console.log('');
    console.log(`certification: ${verdict.certifiable ? 'CERTIFIABLE' : 'NOT CERTIFIABLE'}`);
    for (const line of verdict.certifiable ? verdict.basis : verdict.reasons) console.log(`  - ${line}`);
    console.log(
      `pack: ${outDir} (report.html, results.json, junit.xml, manifest.json${key ? ', manifest.jws' : ''}${manifest.documents.length ? ', fetched/' : ''}${summary.evidence ? ', evidence/' : ''})`,
    );
    console.log(
      key
        ? `signed ${key.alg} with ${key.from}; key thumbprint ${key.thumbprint} (publish it for verification)`
        : 'UNSIGNED: no signing key was given; verify will not accept this pack without --allow-unsigned',
    );
    return verdict.certifiable ? 0 : 1;
  } catch (error) {
    // Whatever an interrupted stage ended with (the sandbox, signalled with this process's group, exits too), the certification stopped.
    if (stop.aborted) return notCertified(String(stop.reason));
    if (error instanceof ToolError || error instanceof PackFolderError) {
      console.error(`partner-conformance certify: ${error.message}`);
      console.error('the certification run did not start; no pack was written');
      return 2;
    }
    throw error;
  } finally {
    if (runDir) rmSync(runDir, { recursive: true, force: true });
    await resolved?.sandbox?.stop();
  }
}

/** An interrupted certification (`by`: what stopped it): no pack, exit 2. */
function notCertified(by: string): number {
  console.error(`partner-conformance certify: the certification run was interrupted (${by}); no pack was written`);
  return 2;
}

export const certifyCommand: Command = {
  name: 'certify',
  summary: `Runs the whole suite at certification depth (${DEPTHS[CERTIFICATION_DEPTH]} runs per property) and writes a signed certification pack: report.html, results.json, junit.xml, evidence/ (every exchange, HAR), manifest.json, manifest.jws. "certify verify DIR" checks a pack.`,
  usage:
    'partner-conformance certify [--target FILE] [--waivers FILE] [--areas A,B] [--depth D | --runs N] [--seed N] [--out DIR] [--key FILE] [--certifier NAME]\n       partner-conformance certify verify DIR [--public-key FILE | --thumbprint TP] [--allow-unsigned]',
  options: [...CERTIFY_OPTIONS, ...VERIFY_OPTIONS.map((o) => ({ ...o, meaning: `(verify) ${o.meaning}` }))],
  async main(argv) {
    try {
      if (argv.includes('--help') || argv.includes('-h')) {
        console.log(helpOf(certifyCommand));
        return 0;
      }
      return argv[0] === 'verify' ? await verifyMain(argv.slice(1)) : await certifyMain(argv);
    } catch (error) {
      if (error instanceof UsageError || error instanceof SigningKeyError) {
        console.error(`partner-conformance certify: ${error.message}`);
        return 2;
      }
      throw error;
    }
  },
};
