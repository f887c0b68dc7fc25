/**
 * What the shared pacer gave slots for: per pace key, the requests and the spacing each took. The
 * floor of a key is the time its requests need at that spacing; the run's floor, the longest of them,
 * is the time the pacing alone requires (harness/request/pace-plan.ts prints both).
 */

/** What one pace key was asked for: its requests, and the spacing each took. */
export interface KeyCount {
  requests: number;
  intervalMs: number;
}

/** By pace key ("business", "business:ndfl3", "insurance#services.insurance.tokenPool[2]"). */
export type PaceCounts = Record<string, KeyCount>;

/** A key as the pacer is asked for it (harness/request/pacer.ts PaceKey). */
interface AskedKey {
  key: string;
  intervalMs: number;
  /** A cool-down's hold of the key, not a request. */
  cooldown?: boolean;
}

export class PaceCounter {
  private readonly keys = new Map<string, KeyCount>();

  reserved(keys: readonly AskedKey[]): void {
    for (const k of keys) {
      if (k.cooldown) continue;
      const count = this.keys.get(k.key) ?? { requests: 0, intervalMs: k.intervalMs };
      count.requests++;
      count.intervalMs = Math.max(count.intervalMs, k.intervalMs);
      this.keys.set(k.key, count);
    }
  }

  /** A slot given back unused: its request was never sent. */
  withdrawn(keys: readonly AskedKey[]): void {
    for (const k of keys) {
      const count = this.keys.get(k.key);
      if (!k.cooldown && count) count.requests--;
    }
  }

  snapshot(): PaceCounts {
    return Object.fromEntries([...this.keys].map(([key, count]) => [key, { ...count }]));
  }
}

/** The service a pace key stands for, and its business group where it is a group's (a token's key is its service's). */
export function partsOf(key: string): { service: string; group?: string } {
  const token = key.indexOf('#');
  if (token >= 0) return { service: key.slice(0, token) };
  const colon = key.indexOf(':');
  return colon < 0 ? { service: key } : { service: key.slice(0, colon), group: key.slice(colon + 1) };
}

export const floorOfKey = (count: KeyCount) => count.requests * count.intervalMs;

/** The time the pacing alone requires, and the key that requires it. */
export function floorOf(counts: PaceCounts): { ms: number; key?: string } {
  let floor: { ms: number; key?: string } = { ms: 0 };
  for (const [key, count] of Object.entries(counts)) if (floorOfKey(count) > floor.ms) floor = { ms: floorOfKey(count), key };
  return floor;
}
