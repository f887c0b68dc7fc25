/**
 * npm run bench: figures of the suite's own speed, printed one per line and written to
 * reports/bench.json. This machine is shared and noisy, so each comparison is a ratio of two
 * measurements taken in the same run, interleaved; no figure is ever a pass/fail test.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { fetch, request } from 'undici';
import { invalidCases } from '../generators/invalid-cases.ts';
import { surrenderRequest } from '../generators/insurance/surrender.ts';
import { sampleRequest } from '../harness/insurance/requests.ts';
import { SURRENDER_REQUEST } from '../harness/insurance/surrender.ts';
import { HttpClient } from '../harness/request/http.ts';
import { Redactor } from '../harness/secrets/redact.ts';
import { schemaRegistry } from '../harness/spec/schemas.ts';
import { targetOf, type TargetFileData } from '../harness/config/target.ts';
import { loadFaults } from '../sandbox/faults/index.ts';
import { startSandbox } from '../sandbox/server.ts';
import { runBatch } from '../selftest/variants/batch.ts';
import { suiteFilesFor } from '../selftest/variants/common.ts';

interface Figure {
  name: string;
  value: number;
  unit: string;
  note?: string;
}

const figures: Figure[] = [];
function report(name: string, value: number, unit: string, note?: string) {
  figures.push({ name, value: Number(value.toPrecision(4)), unit, note });
  console.log(`${name}: ${value.toPrecision(4)} ${unit}${note ? `  (${note})` : ''}`);
}

async function timeIt(fn: () => Promise<void> | void, iterations: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await fn();
  return (performance.now() - start) / iterations;
}

/** Interleaves two measurements `rounds` times and returns the median time of each. */
async function compare(
  a: () => Promise<void> | void,
  b: () => Promise<void> | void,
  iterations: number,
  rounds = 5,
): Promise<[number, number]> {
  const ta: number[] = [];
  const tb: number[] = [];
  for (let r = 0; r < rounds; r++) {
    ta.push(await timeIt(a, iterations));
    tb.push(await timeIt(b, iterations));
  }
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  return [median(ta), median(tb)];
}

let compiles = 0;
const sandbox = await startSandbox();
try {
  const url = `${sandbox.urls.http}/insurance/invest/axiom/providers-api/v1/contracts/surrender/create/`;
  // A request the sandbox rejects (401 before validation) keeps its rate limiter out of the timing.
  const body = JSON.stringify(sampleRequest());
  const [viaRequest, viaFetch] = await compare(
    async () => void (await (await request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).body.text()),
    async () => void (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text()),
    200,
  );
  report('loopback round trip, undici request', viaRequest * 1000, 'µs per request');
  report('loopback round trip, undici fetch / request', viaFetch / viaRequest, 'ratio', 'above 1: request is faster');

  const registry = schemaRegistry();
  const validate = registry.validator(SURRENDER_REQUEST);
  const values = fc.sample(surrenderRequest(), { numRuns: 200, seed: 1 });
  const [compiled, recompiled] = await compare(
    () => void values.forEach((v) => validate(v)),
    () => {
      // A fresh $id beside the original keeps its relative $refs resolvable.
      const fresh = registry.ajv.compile({
        ...registry.schema(SURRENDER_REQUEST),
        $id: `${SURRENDER_REQUEST.replace(/\.json$/, '')}-${++compiles}.json`,
      });
      values.forEach((v) => fresh(v));
    },
    5,
  );
  report('surrender request validation, compiled once', (compiled * 1e6) / values.length, 'ns per value');
  report('validation with a compile per batch / compiled once', recompiled / compiled, 'ratio', 'why the registry compiles each $id once');

  const genMs = await timeIt(() => void fc.sample(surrenderRequest(), { numRuns: 100 }), 5);
  report('valid surrender request generation', (genMs * 1000) / 100, 'µs per value');
  const invalidMs = await timeIt(() => void invalidCases(SURRENDER_REQUEST, values[0]), 20);
  report(
    'invalid cases of one request (derived and verified with ajv)',
    invalidMs,
    'ms per request',
    `${invalidCases(SURRENDER_REQUEST, values[0]).length} cases`,
  );

  const redactor = new Redactor();
  for (let i = 0; i < 20; i++) redactor.register(`secret-value-${i}-${'x'.repeat(20)}`);
  const text = `curl -H 'authorization: Bearer secret-value-3-${'x'.repeat(20)}' ${'lorem ipsum '.repeat(400)}`;
  const redactMs = await timeIt(() => void redactor.redact(text), 500);
  report('redaction of a 5 KB failure message with 20 secrets', redactMs * 1000, 'µs');

  // What a property test does per value (generate, send through the harness's client, validate the
  // answer), against the bare loopback round trip measured above.
  const target = targetOf('bench', {
    name: 'bench',
    kind: 'sandbox',
    services: { insurance: { url: `${sandbox.urls.http}/insurance`, token: 'bench-no-such-token' } },
  } as TargetFileData);
  const client = new HttpClient(target);
  const answerSchema = registry.validator(SURRENDER_REQUEST);
  const perValue = await timeIt(async () => {
    const [value] = fc.sample(surrenderRequest(), { numRuns: 1 });
    const res = await client.send({
      area: 'insurance',
      operation: 'POST surrender',
      sideEffect: 'read',
      method: 'POST',
      url,
      json: value,
      pacing: 'burst',
    });
    answerSchema(res.json);
  }, 200);
  report('property test value (generate, send, validate) against the loopback', 1000 / perValue, 'values per second');
  report('property test value / bare loopback round trip', perValue / viaRequest, 'ratio', "the harness's own cost per request, above 1");
} finally {
  await sandbox.close();
}

/** A child's wall and CPU time (user + system, itself and its children), from bash's `times`. */
function childCost(command: string[], env: Record<string, string>): { wallMs: number; cpuMs: number } {
  const started = performance.now();
  const out = spawnSync('bash', ['-c', '"$@" >/dev/null 2>&1; times', 'bash', ...command], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  const seconds = (t: string) => {
    const m = /(\d+)m([\d.]+)s/.exec(t);
    return m ? Number(m[1]) * 60 + Number(m[2]) : 0;
  };
  const children = (out.stdout.trim().split('\n')[1] ?? '').split(/\s+/);
  return { wallMs: performance.now() - started, cpuMs: (seconds(children[0] ?? '') + seconds(children[1] ?? '')) * 1000 };
}

/** The conformance run of `args` against a fresh embedded sandbox: its cost and how many tests it ran. */
function suiteRun(args: string[]): { wallMs: number; cpuMs: number; tests: number } {
  const dir = mkdtempSync(join(tmpdir(), 'pc-bench-'));
  try {
    const cost = childCost([process.execPath, 'bin/partner-conformance.mjs', 'run', '--reports', dir, ...args], {
      CONFORMANCE_PROGRESS: '0',
    });
    let tests = 0;
    try {
      const counts = (JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { counts: Record<string, number> }).counts;
      tests = (counts.passed ?? 0) + (counts.failed ?? 0);
    } catch {
      tests = 0;
    }
    return { ...cost, tests };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The suite's own CPU: a run of one test from one insurance file, of one test while every insurance file
// is collected, and of the whole insurance area. Their differences are a file's preparation before its
// first test and a test's own cost; the first is what every run pays before anything is checked.
const INSURANCE_FILES = readdirSync('suites/insurance').filter((f) => f.endsWith('.test.ts')).length;
// Each run names the area, so that the three start the same sandbox (a run of some areas serves only those).
// Each run twice, the cheaper counted: on a shared machine a single run of a few seconds of CPU is off by a
// second now and then, more than a file's whole preparation.
const cheaper = (args: string[]) => [suiteRun(args), suiteRun(args)].sort((a, b) => a.cpuMs - b.cpuMs)[0];
const one = cheaper(['--areas', 'insurance', 'suites/insurance/limits.test.ts', '--testNamePattern', 'INS-LIM-001']);
const oneOfAll = cheaper(['--areas', 'insurance', '--grep', 'INS-LIM-001']);
const area = cheaper(['--areas', 'insurance']);
report('a conformance run of one test: CPU (command line, vitest, sandbox, one worker prepared)', one.cpuMs, 'ms');
const perFile = (oneOfAll.cpuMs - one.cpuMs) / Math.max(1, INSURANCE_FILES - 1);
report(
  'CPU per suite file before its first test (insurance files collected)',
  perFile,
  'ms per file',
  // The harness is imported once per worker: what is left per file is below what two runs differ by.
  perFile <= 0 ? 'below the noise: collecting the other files cost nothing measurable' : undefined,
);
report(
  'CPU per test (insurance area)',
  (area.cpuMs - oneOfAll.cpuMs) / Math.max(1, area.tests - oneOfAll.tests),
  'ms per test',
  `${area.tests} tests`,
);
report('insurance area run: wall', area.wallMs / 1000, 's', `CPU ${(area.cpuMs / 1000).toFixed(1)} s on ${cpus().length} cores`);

// The fault run: faults share batch runs, each against its own sandbox; one fault alone against eight.
const faults = (await loadFaults()).filter((f) => f.area === 'insurance').slice(0, 8);
const alone = await runBatch([{ id: faults[0].id, switches: [faults[0].id], files: suiteFilesFor(faults[0]), only: faults[0].catches }]);
const eight = await runBatch(faults.map((f) => ({ id: f.id, switches: [f.id], files: suiteFilesFor(f), only: f.catches })));
report('fault run, one insurance fault in its own batch run', alone.wallMs / 1000, 's');
report(
  'fault run, seconds per fault in a batch of eight',
  eight.wallMs / 1000 / faults.length,
  's per fault',
  `batch ${(eight.wallMs / 1000).toFixed(1)} s`,
);
report(
  'fault run, a fault alone / a fault in a batch of eight',
  alone.wallMs / (eight.wallMs / faults.length),
  'ratio',
  'above 1: batches are cheaper',
);

mkdirSync('reports', { recursive: true });
writeFileSync(
  'reports/bench.json',
  JSON.stringify({ format: 'partner-conformance/bench@1', generatedAt: new Date().toISOString(), node: process.version, figures }, null, 2),
);
console.log('written reports/bench.json');
