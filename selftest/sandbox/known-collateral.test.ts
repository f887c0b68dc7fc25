/**
 * The list of collateral failures not fixed yet (selftest/known-collateral.ts) names only faults of the
 * sandbox's catalog and requirements of specs/requirements.yaml, each with why it is there: a stale or
 * mistyped entry would excuse nothing, or the wrong thing.
 */
import { describe, expect, it } from 'vitest';
import { requirements } from '../../harness/spec/requirements.ts';
import { loadServices } from '../../sandbox/services/index.ts';
import { isKnownCollateral, KNOWN_COLLATERAL } from '../known-collateral.ts';

describe('the known collateral list', () => {
  it('names faults of the catalog and requirements of the registry, none of them one the fault names', async () => {
    const catalog = new Map((await loadServices()).flatMap((service) => service.faults).map((f) => [f.id, f]));
    const registry = requirements();
    for (const [fault, known] of Object.entries(KNOWN_COLLATERAL)) {
      expect(catalog.has(fault), fault).toBe(true);
      expect(known.why.length, fault).toBeGreaterThan(0);
      if (known.requirements === '*') continue;
      for (const id of known.requirements) {
        expect(registry.has(id), `${fault}: ${id}`).toBe(true);
        expect(catalog.get(fault)!.catches, `${fault} names ${id}: it is no collateral`).not.toContain(id);
      }
    }
  });

  it('excuses only what it lists', () => {
    for (const [fault, known] of Object.entries(KNOWN_COLLATERAL)) {
      if (known.requirements === '*') continue;
      for (const id of known.requirements) expect(isKnownCollateral(fault, id), `${fault}: ${id}`).toBe(true);
      expect(isKnownCollateral(fault, 'INS-CTY-001'), fault).toBe(false);
    }
    expect(isKnownCollateral('ins-status-200', 'INS-CTY-001')).toBe(false);
  });
});
