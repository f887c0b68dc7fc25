/**
 * generators/schema-arbitrary.ts makes each string arbitrary once per process (a pattern, a length range,
 * e-mail addresses) and reuses it: building one costs about 10 ms. Reuse must change no generated value:
 * an arbitrary made once gives, for every seed, what one made for the occasion gives, whatever was
 * sampled from it before; and the business requests generated from the sandbox's document are the same
 * in whatever order the operations ask for them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OpenApiRequests } from '../../generators/business/openapi.ts';
import { schemaArbitrary } from '../../generators/schema-arbitrary.ts';
import { operationPlans } from '../../harness/business/runtime/plan.ts';
import { schemaRegistry } from '../../harness/spec/schemas.ts';
import { parseYamlFast } from '../../harness/text/yaml-fast.ts';
import { ROOT } from '../helpers.ts';

const text = readFileSync(join(ROOT, 'sandbox', 'services', 'business', 'openapi.yaml'), 'utf8');
const document = parseYamlFast(text) as Record<string, unknown>;
const patterns = [...new Set([...text.matchAll(/pattern: "((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string))];
const SEEDS = [1, 7, 42, 1_000_003, -5];

/** The string schema as a schema of its own in the registry, so that schemaArbitrary makes (or reuses) its arbitrary. */
function viaRegistry(schema: Record<string, unknown>, name: string): fc.Arbitrary<unknown> {
  const registry = schemaRegistry();
  const $id = `urn:partner-conformance:selftest:arbitrary-reuse:${name}`;
  if (!registry.schemas.has($id)) registry.addLenient({ $id, ...schema });
  return schemaArbitrary($id, { registry });
}

describe('a string arbitrary made once', () => {
  it('reads the patterns of the document', () => {
    expect(patterns.length).toBeGreaterThan(30);
  });

  it.each(patterns.map((p, i) => [p, i] as const))('%s gives what a new one gives, for every seed, used before or not', (pattern, i) => {
    const schema = { type: 'string', pattern, minLength: 1, maxLength: 64 };
    const reused = viaRegistry(schema, `p${i}`);
    // Used before: samples of other seeds first.
    fc.sample(reused, { seed: 99, numRuns: 30 });
    fc.sample(viaRegistry(schema, `p${i}-again`), { seed: 3, numRuns: 5 });
    for (const seed of SEEDS) {
      const fresh = fc.stringMatching(new RegExp(pattern, 'u')).filter((s) => [...s].length >= 1 && [...s].length <= 64);
      expect(fc.sample(reused, { seed, numRuns: 10 }), `${pattern}, seed ${seed}`).toEqual(fc.sample(fresh, { seed, numRuns: 10 }));
    }
  });

  it('e-mail addresses and free text likewise', () => {
    const email = viaRegistry({ type: 'string', format: 'email' }, 'email');
    const text = viaRegistry({ type: 'string', minLength: 2, maxLength: 9 }, 'text');
    fc.sample(email, { seed: 5, numRuns: 30 });
    fc.sample(text, { seed: 5, numRuns: 30 });
    const word = fc.stringMatching(/^[a-z][a-z0-9]{1,9}$/);
    const freshEmail = fc.tuple(word, word, fc.constantFrom('ru', 'com', 'org', 'net')).map(([l, d, t]) => `${l}@${d}.${t}`);
    for (const seed of SEEDS) {
      expect(fc.sample(email, { seed, numRuns: 10 })).toEqual(fc.sample(freshEmail, { seed, numRuns: 10 }));
      expect(fc.sample(text, { seed, numRuns: 10 })).toEqual(
        fc.sample(fc.string({ minLength: 2, maxLength: 9, unit: 'grapheme-ascii' }), { seed, numRuns: 10 }),
      );
    }
  });
});

describe('the business requests generated from the document', () => {
  it('are the same in whatever order the operations ask for them', () => {
    const ops = operationPlans(document, [], 20261127);
    const inOrder = new OpenApiRequests(document);
    const forward = ops.map((op) => inOrder.valid(op.model, { seed: op.seed, count: 2 }));
    const reversed = new OpenApiRequests(document);
    const backward = [...ops].reverse().map((op) => reversed.valid(op.model, { seed: op.seed, count: 2 }));
    expect(backward.reverse()).toEqual(forward);
    expect(forward.length).toBeGreaterThan(100);
  });
});
