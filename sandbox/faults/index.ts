/** The catalogs of every injectable fault and latitude, gathered from each service's index.ts. */
import { loadServices } from '../services/index.ts';
import type { Fault, Latitude, Variation } from './types.ts';

function unique<T extends Variation>(all: T[]): T[] {
  const seen = new Set<string>();
  for (const v of all) {
    if (seen.has(v.id)) throw new Error(`fault or latitude id ${v.id} is defined twice`);
    seen.add(v.id);
  }
  return all;
}

export async function loadFaults(): Promise<Fault[]> {
  return unique((await loadServices()).flatMap((m) => m.faults));
}

export async function loadLatitudes(): Promise<Latitude[]> {
  return unique((await loadServices()).flatMap((m) => m.latitudes));
}

/** Faults and latitudes together: ids are unique across both. */
export async function loadVariations(): Promise<Variation[]> {
  const modules = await loadServices();
  return unique(modules.flatMap((m): Variation[] => [...m.faults, ...m.latitudes]));
}
