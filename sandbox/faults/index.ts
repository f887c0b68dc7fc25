/** The catalog of every injectable fault, gathered from each service's faults.ts. */
import { loadServices } from '../services/index.ts';
import type { Fault } from './types.ts';

export async function loadFaults(): Promise<Fault[]> {
  const all = (await loadServices()).flatMap((m) => m.faults);
  const seen = new Set<string>();
  for (const f of all) {
    if (seen.has(f.id)) throw new Error(`fault id ${f.id} is defined twice`);
    seen.add(f.id);
  }
  return all;
}

