/**
 * The generators in both directions, proven with ajv over every schema in specs/schemas:
 * generated valid values validate; every invalid case fails on exactly the rule it claims.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SCHEMA_BASE, schemaRegistry } from '../../harness/spec/schemas.ts';
import { failsOnRule, invalidCaseArbitrary, invalidCases } from '../../generators/invalid-cases.ts';
import { schemaArbitrary } from '../../generators/schema-arbitrary.ts';
import { surrenderRequest } from '../../generators/insurance/surrender.ts';
import { SURRENDER_REQUEST } from '../../harness/insurance/surrender.ts';

const registry = schemaRegistry();
/**
 * Schemas of specs/schemas that describe data (the target file's schema is configuration, not generated).
 * The registry is one per worker, and a business file that ran before in the same worker has added the
 * schemas it converted from a served document: those are not ours to prove here, and with them the count
 * of tests changed with the order the files ran in (53 or 503).
 */
const ids = [...registry.schemas.keys()].filter((id) => id.startsWith(`${SCHEMA_BASE}/`) && !id.includes('/common/'));

describe('schemaArbitrary: generated values are valid', () => {
  it.each(ids)('%s', (id) => {
    const validate = registry.validator(id);
    fc.assert(
      fc.property(schemaArbitrary(id), (value) => {
        if (!validate(value))
          throw new Error(`generated ${JSON.stringify(value).slice(0, 300)} is invalid: ${JSON.stringify(validate.errors)}`);
      }),
      { numRuns: 60, seed: 7 },
    );
  });
});

describe('invalidCases: each case breaks the rule it names', () => {
  it.each(ids)('%s', (id) => {
    const validate = registry.validator(id);
    fc.assert(
      fc.property(schemaArbitrary(id), (value) => {
        for (const c of invalidCases(id, value)) {
          expect(validate(c.value), c.description).toBe(false);
          expect(failsOnRule(validate.errors, c), `${c.description}: ${JSON.stringify(validate.errors)}`).toBe(true);
        }
      }),
      { numRuns: 30, seed: 11 },
    );
  });

  it('covers every rule of the surrender request', () => {
    const value = fc.sample(surrenderRequest(), { numRuns: 1, seed: 3 })[0];
    const rules = new Set(invalidCases(SURRENDER_REQUEST, value).map((c) => `${c.rule}@${c.path.replace(/\/\d+/g, '/*')}`));
    for (const expected of [
      'required@',
      'required@/surrender/*',
      'minLength@/contractId',
      'maxLength@/contractId',
      'enum@/productType',
      'minItems@/surrender',
      'maxItems@/surrender',
      'format@/updateDate',
      'format@/surrender/*/calcPeriodFrom',
      'enum@/surrender/*/currency',
      'type@/surrender/*/surrenderValue',
    ]) {
      expect(rules, expected).toContain(expected);
    }
  });

  it('names the rule in words a reader can act on', () => {
    const value = fc.sample(surrenderRequest(), { numRuns: 1, seed: 5 })[0];
    const long = invalidCases(SURRENDER_REQUEST, value).find((c) => c.rule === 'maxLength' && c.path === '/contractId');
    expect(long?.description).toBe('contractId of 129 characters (maxLength 128)');
  });

  it('keeps a case invalid while shrinking', () => {
    const validate = registry.validator(SURRENDER_REQUEST);
    // A property that fails on every case forces fast-check to shrink all the way; every value it
    // tries on the way must still be invalid on its named rule.
    const seen: boolean[] = [];
    const result = fc.check(
      fc.property(invalidCaseArbitrary(SURRENDER_REQUEST, surrenderRequest()), (c) => {
        seen.push(!validate(c.value) && failsOnRule(validate.errors, c));
        return false;
      }),
      { numRuns: 5, seed: 13 },
    );
    expect(result.failed).toBe(true);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.every(Boolean)).toBe(true);
  });
});
