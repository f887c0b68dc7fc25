/**
 * Taxpayer numbers (inn) with valid check digits, for the rule suites' requests (unit-tested in the
 * selftest against the tax service's published weights).
 */
import { randomInt } from 'node:crypto';

/** A 10-digit inn with valid check digit. */
export function innLegal(): string {
  const d = Array.from({ length: 9 }, () => randomInt(10));
  d[0] = 1 + randomInt(9);
  const w = [2, 4, 10, 3, 5, 9, 4, 6, 8];
  return [...d, (w.reduce((s, x, i) => s + x * d[i], 0) % 11) % 10].join('');
}

/** A 12-digit inn with valid check digits. */
export function innIndividual(): string {
  const d = Array.from({ length: 10 }, () => randomInt(10));
  d[0] = 1 + randomInt(9);
  const c1 = ([7, 2, 4, 10, 3, 5, 9, 4, 6, 8].reduce((s, x, i) => s + x * d[i], 0) % 11) % 10;
  const c2 = ([3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8].reduce((s, x, i) => s + x * [...d, c1][i], 0) % 11) % 10;
  return [...d, c1, c2].join('');
}
