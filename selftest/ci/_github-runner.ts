/**
 * The jobs of a GitHub Actions workflow run as a runner runs them, for the selftest: each job in a fresh
 * checkout, its `run:` steps in order with bash -e (the runner's default shell), workflow, job and step
 * `env:` and `${{ }}` expressions filled in, step outputs through $GITHUB_OUTPUT, a step skipped after a
 * failure unless its `if:` says always(). The actions the templates use are done by their meaning:
 * checkout (a clone), setup-node (the node already here), upload- and download-artifact (a folder per
 * artifact), cache restore and save (a folder per key, restored by key or prefix), and the JUnit
 * publisher (its file must exist, and it needs `permissions: checks: write`, as on GitHub). Any other
 * action or expression is refused: the test must know everything the workflow does.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { parse } from 'yaml';
import { runCaptured } from '../helpers.ts';

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}

interface Job {
  if?: string;
  needs?: string | string[];
  permissions?: Record<string, string>;
  env?: Record<string, unknown>;
  strategy?: { matrix?: Record<string, unknown[]> };
  steps: Step[];
}

export interface Workflow {
  env?: Record<string, unknown>;
  jobs: Record<string, Job>;
}

export interface RunnerContext {
  /** The repository to check out. */
  repo: string;
  /** Where jobs, artifacts and the cache live. */
  work: string;
  event: string;
  runId: string;
  secrets: Record<string, string>;
  vars: Record<string, string>;
  /** The runner's own environment (PATH first of all). */
  baseEnv: Record<string, string>;
  stepTimeoutMs: number;
}

export interface StepResult {
  name: string;
  outcome: 'success' | 'failure' | 'skipped';
  output: string;
}

export interface JobResult {
  job: string;
  workspace: string;
  steps: StepResult[];
  failed: boolean;
}

export function readWorkflow(file: string): Workflow {
  return parse(readFileSync(file, 'utf8'), { maxAliasCount: -1 }) as Workflow;
}

/** `${{ … }}` with what the templates use: matrix, github, secrets, vars (with a `|| 'default'`), steps' outputs. */
function evaluate(
  expression: string,
  scope: { matrix: Record<string, unknown>; outputs: Record<string, Record<string, string>>; ctx: RunnerContext },
): string {
  const term = (text: string): string | undefined => {
    const t = text.trim();
    const literal = /^'([^']*)'$/.exec(t);
    if (literal) return literal[1];
    const [head, ...rest] = t.split('.');
    if (head === 'matrix' && rest.length === 1) return String(scope.matrix[rest[0]]);
    if (head === 'github' && t === 'github.run_id') return scope.ctx.runId;
    if (head === 'github' && t === 'github.event_name') return scope.ctx.event;
    if (head === 'secrets' && rest.length === 1) return scope.ctx.secrets[rest[0]] ?? '';
    if (head === 'vars' && rest.length === 1) return scope.ctx.vars[rest[0]];
    if (head === 'steps' && rest.length === 3 && rest[1] === 'outputs') return scope.outputs[rest[0]]?.[rest[2]] ?? '';
    throw new Error(`the selftest's runner does not know the expression "${t}"`);
  };
  return (
    expression
      .split('||')
      .map(term)
      .find((v) => v !== undefined && v !== '') ?? ''
  );
}

/** Whether an `if:` holds: always(), and comparisons of github.event_name, joined by &&. */
function holds(condition: string | undefined, failedBefore: boolean, event: string): boolean {
  if (condition === undefined) return !failedBefore;
  const terms = condition.split('&&').map((t) => t.trim());
  const always = terms.includes('always()');
  for (const t of terms.filter((x) => x !== 'always()')) {
    const m = /^github\.event_name\s*(==|!=)\s*'([^']*)'$/.exec(t);
    if (!m) throw new Error(`the selftest's runner does not know the condition "${t}"`);
    if ((m[1] === '==') !== (event === m[2])) return false;
  }
  return always || !failedBefore;
}

type Scope = Parameters<typeof evaluate>[1];
const fill = (text: string, scope: Scope) => text.replace(/\$\{\{(.*?)\}\}/g, (_m, e: string) => evaluate(e, scope));
const envOf = (env: Record<string, unknown> | undefined, scope: Scope) =>
  Object.fromEntries(Object.entries(env ?? {}).map(([k, v]) => [k, fill(String(v), scope)]));

function bash(
  script: string,
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ code: number | null; output: string }> {
  const file = join(dirname(cwd), `step-${Date.now()}-${Math.random().toString(36).slice(2)}.sh`);
  writeFileSync(file, script);
  return runCaptured('bash', ['-e', file], { cwd, env, timeoutMs });
}

/** The least common folder of paths (upload-artifact's root). */
function commonRoot(paths: string[]): string {
  const parts = paths.map((p) => resolve(p).split('/'));
  const out: string[] = [];
  for (let i = 0; parts.every((p) => p[i] !== undefined && p[i] === parts[0][i]); i++) out.push(parts[0][i]);
  return out.join('/') || '/';
}

const globToRegExp = (glob: string) => new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);

/** The actions the templates use, by their meaning. Returns the step's output text; throws to fail it. */
function action(step: Step, job: Job, workspace: string, ctx: RunnerContext, scope: Scope): string {
  const uses = step.uses!.replace(/@.*$/, '');
  const w = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, fill(String(v), scope)]));
  const artifacts = join(ctx.work, 'artifacts');
  const cache = join(ctx.work, 'cache');
  switch (uses) {
    case 'actions/checkout':
      execFileSync('git', ['clone', '-q', ctx.repo, workspace]);
      return 'checked out';
    case 'actions/setup-node':
      return `node ${process.version}`;
    case 'actions/upload-artifact': {
      // The artifact's root is the one folder given, or the least common folder of all the paths given (found or not).
      const given = w.path
        .split('\n')
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p) => join(workspace, p));
      const root = given.length === 1 ? given[0] : commonRoot(given);
      const found = given.filter((p) => existsSync(p));
      for (const p of found) cpSync(p, join(artifacts, w.name, relative(root, p)), { recursive: true });
      return found.length ? `uploaded ${w.name}` : `no files for artifact ${w.name}`;
    }
    case 'actions/download-artifact': {
      const names = existsSync(artifacts) ? readdirSync(artifacts) : [];
      const chosen = w.name ? names.filter((n) => n === w.name) : names.filter((n) => globToRegExp(w.pattern).test(n));
      for (const name of chosen)
        cpSync(join(artifacts, name), w.name ? join(workspace, w.path) : join(workspace, w.path, name), { recursive: true });
      return `downloaded ${chosen.join(', ')}`;
    }
    case 'actions/cache/restore': {
      const keys = existsSync(cache) ? readdirSync(cache) : [];
      const hit =
        keys.find((k) => k === w.key) ??
        keys
          .filter((k) => k.startsWith(w['restore-keys']))
          .sort((a, b) => statSync(join(cache, b)).mtimeMs - statSync(join(cache, a)).mtimeMs)[0];
      if (hit) cpSync(join(cache, hit), join(workspace, w.path), { recursive: true });
      return hit ? `restored ${hit}` : 'cache not found';
    }
    case 'actions/cache/save':
      if (existsSync(join(cache, w.key))) return `cache ${w.key} exists`;
      if (existsSync(join(workspace, w.path))) cpSync(join(workspace, w.path), join(cache, w.key), { recursive: true });
      return `saved ${w.key}`;
    case 'mikepenz/action-junit-report': {
      if (job.permissions?.checks !== 'write') throw new Error('publishing a check run needs permissions: checks: write');
      const text = readFileSync(join(workspace, w.report_paths), 'utf8');
      if (!text.includes('<testsuites')) throw new Error(`${w.report_paths} is no JUnit report`);
      return `published ${w.report_paths}`;
    }
    default:
      throw new Error(`the selftest's runner does not know the action ${step.uses}`);
  }
}

/** Runs one job (one matrix entry) in a fresh workspace. */
export async function runJob(
  workflow: Workflow,
  name: string,
  ctx: RunnerContext,
  matrix: Record<string, unknown> = {},
): Promise<JobResult> {
  const job = workflow.jobs[name];
  const workspace = join(
    ctx.work,
    'jobs',
    `${name}${Object.values(matrix)
      .map((v) => `-${v}`)
      .join('')}`,
    'workspace',
  );
  rmSync(dirname(workspace), { recursive: true, force: true });
  mkdirSync(dirname(workspace), { recursive: true });
  const outputs: Record<string, Record<string, string>> = {};
  const scope: Scope = { matrix, outputs, ctx };
  const jobEnv = { ...envOf(workflow.env, scope), ...envOf(job.env, scope) };
  const steps: StepResult[] = [];
  let failed = false;
  for (const step of job.steps) {
    const label = fill(step.name ?? step.uses ?? step.run ?? '', scope);
    if (!holds(step.if, failed, ctx.event)) {
      steps.push({ name: label, outcome: 'skipped', output: '' });
      continue;
    }
    let outcome: StepResult['outcome'] = 'success';
    let output = '';
    if (step.uses) {
      try {
        output = action(step, job, workspace, ctx, scope);
      } catch (error) {
        output = (error as Error).message;
        outcome = 'failure';
      }
    } else {
      const outputFile = join(dirname(workspace), `output-${steps.length}`);
      writeFileSync(outputFile, '');
      const env = { ...ctx.baseEnv, CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_OUTPUT: outputFile, ...jobEnv, ...envOf(step.env, scope) };
      const ran = await bash(fill(step.run ?? '', scope), workspace, env, ctx.stepTimeoutMs);
      output = ran.output;
      if (ran.code !== 0) outcome = 'failure';
      if (step.id)
        outputs[step.id] = Object.fromEntries(
          readFileSync(outputFile, 'utf8')
            .split('\n')
            .filter((l) => l.includes('='))
            .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
        );
    }
    if (outcome === 'failure') failed = true;
    steps.push({ name: label, outcome, output });
  }
  return { job: name, workspace, steps, failed };
}

/** Whether a job runs for the context's event (its `if:`, given the jobs it needs ran). */
export const jobRuns = (workflow: Workflow, name: string, ctx: RunnerContext) => holds(workflow.jobs[name].if, false, ctx.event);
