import { describe, expect, it } from 'vitest';
import { seedFor } from '../../harness/text/seeds.ts';

describe('seedFor', () => {
  it('gives the same seed for the same purpose and parts', () => {
    expect(seedFor(42, 'beneficiaries', 3)).toBe(seedFor(42, 'beneficiaries', 3));
  });

  it('gives different seeds to different purposes, indices and run seeds', () => {
    const seeds = new Set<number>();
    for (const purpose of ['beneficiaries', 'payments', 'order-number']) for (let i = 0; i < 200; i++) seeds.add(seedFor(7, purpose, i));
    expect(seeds.size).toBe(600);
    expect(seedFor(1, 'payments', 0)).not.toBe(seedFor(2, 'payments', 0));
    // the parts are joined unambiguously: ('a', 12) is not ('a1', 2)
    expect(seedFor(1, 'a', 12)).not.toBe(seedFor(1, 'a1', 2));
    expect(seedFor(1, 'a', '1', 2)).not.toBe(seedFor(1, 'a', 12));
  });

  it('is an unsigned 32-bit integer, as fast-check takes', () => {
    for (let i = 0; i < 50; i++) {
      const s = seedFor(0xffffffff, 'x', i);
      expect(Number.isInteger(s) && s >= 0 && s <= 0xffffffff).toBe(true);
    }
  });
});
