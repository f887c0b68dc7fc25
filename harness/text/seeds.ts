/**
 * Seeds derived by purpose. Every use of the run's seed names what it seeds and which one
 * (`seedFor(seed, 'beneficiaries', i)`): the parts are hashed together, so two uses differ whenever
 * their names or indices do, where numeric salts (`seed + 5000 + salt`) could land on each other.
 */
import { createHash } from 'node:crypto';

export type SeedPart = string | number;

export function seedFor(seed: number, purpose: string, ...parts: SeedPart[]): number {
  const text = JSON.stringify([purpose, ...parts]);
  return (seed ^ createHash('sha256').update(text).digest().readUInt32BE(0)) >>> 0;
}
