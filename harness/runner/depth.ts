/**
 * Depth: one setting for how hard a run tries. It sets the runs per property, and everything that scales
 * with them (the business runtime sends runs/25 valid requests per operation, the 3-NDFL model test
 * runs/5 command sequences, the insurance one-rule property runs/10 cases per rule).
 *   quick      5 runs     a pull-request job against the embedded sandbox
 *   standard   25 runs    the default
 *   nightly    100 runs   the nightly job and certification
 * CONFORMANCE_RUNS (or the target file's settings.runs) overrides the runs of a depth.
 */
export const DEPTHS = Object.freeze({ quick: 5, standard: 25, nightly: 100 } as const);
export type Depth = keyof typeof DEPTHS;

export function isDepth(value: string): value is Depth {
  return Object.hasOwn(DEPTHS, value);
}

/** The depth a number of runs corresponds to, for reports ("custom" when it is none of them). */
export function depthOf(runs: number): Depth | 'custom' {
  return (Object.keys(DEPTHS) as Depth[]).find((d) => DEPTHS[d] === runs) ?? 'custom';
}
