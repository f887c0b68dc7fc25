/**
 * The costs token-pool-cost.test.ts compares, measured in a process of their own (a pool of 10,000
 * tokens loaded a few times takes tens of megabytes, and the selftest's other files measure their
 * process's memory): CPU time, the least of a few rounds taken in turn. Prints them as JSON:
 *   redact: per text, with one token, a pool of 1,000 and a pool of 10,000 (each text with a token of its pool)
 *   load: loading the target file (read, checked, the redactor built) with 2,500 and with 10,000 tokens
 *   leaked: how many of a sample of the pool's texts still show a token after redaction
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { loadTarget } from '../../harness/config/target.ts';
import { tempDir } from '../helpers.ts';

/** Texts redacted per round and pool: enough for a round to take tens of milliseconds. */
const TEXTS = 4_000;
const ROUNDS = 5;

/** Shaped as the pool: `tok-000000` … (ten characters, which the screen once left to a joint regex). */
const token = (i: number) => `tok-${String(i).padStart(6, '0')}`;
const ONE_TOKEN = 'insurance-partner-token';

function targetFile(pool: number): string {
  const file = join(tempDir('pc-pool-'), 'target.yaml');
  const insurance = {
    url: 'http://127.0.0.1:9/insurance',
    rateLimit: { requests: 20, perSeconds: 1, per: 'token' },
    token: ONE_TOKEN,
    ...(pool ? { tokenPool: Array.from({ length: pool }, (_, i) => token(i)) } : {}),
  };
  writeFileSync(file, stringify({ name: `pool-${pool}`, kind: 'sandbox', services: { insurance } }));
  return file;
}

/**
 * What a run redacts per exchange: its curl line, the request and answer bodies, the evidence entry, a
 * failure's snippet; each request with the token `bearerOf` gives it (a run without a pool sends its one
 * token, with a pool the pool's tokens in turn).
 */
function runTexts(bearerOf: (i: number) => string): string[] {
  return Array.from({ length: TEXTS }, (_, i) => {
    const bearer = bearerOf(i);
    const body = JSON.stringify({ contractId: `PC-${i}`, productType: 'investment', items: [{ period: '2026-01', value: '10.00' }] });
    return [
      `curl -sS -i -X POST 'http://127.0.0.1:9/insurance/contracts/surrender/create/' -H 'authorization: Bearer ${bearer}' -H 'content-type: application/json' --data-raw '${body}'`,
      body,
      JSON.stringify({ id: i, createdAt: '2026-11-21T16:40:02.113Z', contractId: `PC-${i}`, status: 'created' }),
      JSON.stringify({ request: { headers: [{ name: 'authorization', value: `Bearer ${bearer}` }], postData: { text: body } } }),
      `INS-LIM-002 §8 contractId of 129 characters is rejected with 400 or 422\n  Response: HTTP 201, body: {"createdAt":"2026-11-21T16:40:02.113Z",…}`,
    ][i % 5];
  });
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** The least CPU time of ROUNDS runs of each job, taken in turn (a busy machine slows a round, never speeds one up). */
function leastOf(jobs: Array<() => void>): number[] {
  const least = jobs.map(() => Number.POSITIVE_INFINITY);
  for (let round = 0; round < ROUNDS; round++)
    jobs.forEach((job, j) => {
      const from = cpuMs();
      job();
      least[j] = Math.min(least[j], cpuMs() - from);
    });
  return least;
}

const pools = [0, 1_000, 10_000].map((size) => ({
  target: loadTarget(targetFile(size)),
  texts: runTexts((i) => (size ? token((i * 37) % size) : ONE_TOKEN)),
}));
// Each redactor built and each text's secret met once before the clock runs: this is the work per text.
for (const { target, texts } of pools) texts.forEach((text) => target.redactor.redact(text));
const redact = leastOf(
  pools.map(
    ({ target, texts }) =>
      () =>
        texts.forEach((text) => target.redactor.redact(text)),
  ),
);
const leaked = pools[2].texts
  .slice(0, 100)
  .filter((text) => /tok-\d{6}|insurance-partner-token/.test(pools[2].target.redactor.redact(text)));

const load = (file: string) => () => loadTarget(file).redactor.redact('built');
const [quarter, whole] = [targetFile(2_500), targetFile(10_000)];
load(quarter)();
console.log(JSON.stringify({ redact, load: leastOf([load(quarter), load(whole)]), leaked: leaked.length, texts: TEXTS }));
