/** The areas the sandbox serves, one service each. */
export const SANDBOX_AREAS = ['speech', 'identity', 'invest', 'insurance', 'business'] as const;
export type SandboxArea = (typeof SANDBOX_AREAS)[number];

/** A named change of the sandbox that a run can switch on: a fault or a latitude. */
export interface Variation {
  id: string;
  area: SandboxArea;
  description: string;
}

/** A named defect the sandbox can switch on, breaking one requirement the way a real backend might. */
export interface Fault extends Variation {
  /** Requirement ids whose tests must fail while this fault is on. */
  catches: string[];
}

/**
 * The mirror of a fault: a named change of the sandbox's answers *within what the spec allows*. While it
 * is on, no test of a `spec` or `configuration` requirement may fail (selftest/latitude-run.ts).
 */
export interface Latitude extends Variation {
  /** The spec's own words that allow the change, each found verbatim in the spec (selftest/sandbox/latitudes.test.ts). */
  allows: string[];
  /** How those words allow it, where that needs saying. */
  reading?: string;
}

export const isLatitude = (v: Variation): v is Latitude => Array.isArray((v as Latitude).allows);

/** The variations switched on in one sandbox: faults and latitudes, by id. */
export class FaultSet {
  private readonly on: Set<string>;
  constructor(
    private readonly catalog: ReadonlyMap<string, Variation>,
    ids: Iterable<string>,
  ) {
    this.on = new Set(ids);
    for (const id of this.on) {
      if (!catalog.has(id)) throw new Error(`unknown fault or latitude "${id}"; known: ${[...catalog.keys()].join(', ')}`);
    }
  }

  /** Whether the fault or latitude is on. Asking for an id the catalog lacks is a programming error. */
  has(id: string): boolean {
    if (!this.catalog.has(id)) throw new Error(`sandbox code asks for "${id}", which is not in the catalog of faults and latitudes`);
    return this.on.has(id);
  }

  get ids(): string[] {
    return [...this.on];
  }
}
