import type { SandboxArea } from '../types.ts';

/** A named defect the sandbox can switch on, breaking one requirement the way a real backend might. */
export interface Fault {
  id: string;
  area: SandboxArea;
  description: string;
  /** Requirement ids whose tests must fail while this fault is on. */
  catches: string[];
}

export class FaultSet {
  private readonly on: Set<string>;
  constructor(
    private readonly catalog: ReadonlyMap<string, Fault>,
    ids: Iterable<string>,
  ) {
    this.on = new Set(ids);
    for (const id of this.on) {
      if (!catalog.has(id)) throw new Error(`unknown fault "${id}"; known faults: ${[...catalog.keys()].join(', ')}`);
    }
  }

  /** Whether the fault is on. Asking for an id the catalog lacks is a programming error. */
  has(id: string): boolean {
    if (!this.catalog.has(id)) throw new Error(`sandbox code asks for fault "${id}", which is not in the catalog`);
    return this.on.has(id);
  }

  get ids(): string[] {
    return [...this.on];
  }
}
