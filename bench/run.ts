/**
 * npm run bench: figures of the suite's own speed, printed one per line and written to
 * reports/bench.json. This machine is shared and noisy, so each comparison is a ratio of two
 * measurements taken in the same run, interleaved; no figure is ever a pass/fail test.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { fetch, request } from 'undici';
import { invalidCases } from '../generators/invalid-cases.ts';
import { SURRENDER_REQUEST, sampleRequest, surrenderRequest } from '../generators/insurance.ts';
import { Redactor } from '../harness/redact.ts';
import { schemaRegistry } from '../harness/schemas.ts';
import { startSandbox } from '../sandbox/server.ts';

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
async function compare(a: () => Promise<void> | void, b: () => Promise<void> | void, iterations: number, rounds = 5): Promise<[number, number]> {
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
      const fresh = registry.ajv.compile({ ...registry.schema(SURRENDER_REQUEST), $id: `${SURRENDER_REQUEST.replace(/\.json$/, '')}-${++compiles}.json` });
      values.forEach((v) => fresh(v));
    },
    5,
  );
  report('surrender request validation, compiled once', (compiled * 1e6) / values.length, 'ns per value');
  report('validation with a compile per batch / compiled once', recompiled / compiled, 'ratio', 'why the registry compiles each $id once');

  const genMs = await timeIt(() => void fc.sample(surrenderRequest(), { numRuns: 100 }), 5);
  report('valid surrender request generation', (genMs * 1000) / 100, 'µs per value');
  const invalidMs = await timeIt(() => void invalidCases(SURRENDER_REQUEST, values[0]), 20);
  report('invalid cases of one request (derived and verified with ajv)', invalidMs, 'ms per request', `${invalidCases(SURRENDER_REQUEST, values[0]).length} cases`);

  const redactor = new Redactor();
  for (let i = 0; i < 20; i++) redactor.register(`secret-value-${i}-${'x'.repeat(20)}`);
  const text = `curl -H 'authorization: Bearer secret-value-3-${'x'.repeat(20)}' ${'lorem ipsum '.repeat(400)}`;
  const redactMs = await timeIt(() => void redactor.redact(text), 500);
  report('redaction of a 5 KB failure message with 20 secrets', redactMs * 1000, 'µs');
} finally {
  await sandbox.close();
}

mkdirSync('reports', { recursive: true });
writeFileSync('reports/bench.json', JSON.stringify({ format: 'partner-conformance/bench@1', generatedAt: new Date().toISOString(), node: process.version, figures }, null, 2));
console.log('written reports/bench.json');
