/**
 * The pacer's schedules keep each key's ordinary slots sorted and search them, where they once read
 * every reservation of the key on every move: the same rule, faster. This proves it is the same rule:
 * the former implementation, kept here as it was, and the current one give the very same slot for
 * every call of any sequence of reservations and settlements.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intervalMs, LATE_MS, type PaceKey, Schedules, spareOf } from '../../harness/request/pacer.ts';

interface Reservation {
  at: number;
  span: number;
  spanned: boolean;
  clear: boolean;
}

/** The schedules as they were before their reservations were sorted: each key's reservations in one list, read whole. */
class ReferenceSchedules {
  private readonly slots = new Map<string, Reservation[]>();

  reserve(keys: readonly PaceKey[], now: number, spanMs = 0): number {
    for (const k of keys) {
      const kept = Math.max(k.intervalMs, (k.windowMs ?? 0) + LATE_MS);
      this.slots.set(
        k.key,
        (this.slots.get(k.key) ?? []).filter((r) => r.at + r.span > now - kept),
      );
    }
    const spareAt = (k: PaceKey, slot: number) => spanMs > 0 && this.hasSpare(k, slot, spanMs);
    let slot = now;
    for (let moved = true; moved; ) {
      moved = false;
      for (const k of keys) {
        if (spareAt(k, slot)) continue;
        const clash = this.slots
          .get(k.key)!
          .find((r) => (spanMs > 0 || !r.spanned || r.clear) && slot < r.at + r.span + k.intervalMs && r.at < slot + spanMs + k.intervalMs);
        if (clash !== undefined) {
          slot = clash.at + clash.span + k.intervalMs;
          moved = true;
        }
      }
    }
    for (const k of keys)
      this.slots.get(k.key)!.push({ at: slot, span: spanMs, spanned: spanMs > 0, clear: spanMs > 0 && !spareAt(k, slot) });
    return slot;
  }

  private hasSpare(k: PaceKey, slot: number, spanMs: number): boolean {
    if (!k.spare || !k.windowMs) return false;
    const from = slot - k.windowMs;
    const to = slot + spanMs + LATE_MS + k.windowMs;
    const near = this.slots.get(k.key)!.filter((r) => r.spanned && r.at < to && r.at + r.span + LATE_MS > from).length;
    return near < k.spare;
  }

  settle(keys: readonly PaceKey[], slot: number, spanMs: number, departedAt?: number): void {
    for (const k of keys) {
      const list = this.slots.get(k.key);
      const i = list?.findIndex((r) => r.at === slot && r.span === spanMs) ?? -1;
      if (i < 0) continue;
      if (departedAt === undefined) list!.splice(i, 1);
      else list![i] = { ...list![i], at: Math.max(slot, Math.min(departedAt, slot + spanMs)), span: 0 };
    }
  }
}

const paced = (key: string, requests: number, perSeconds: number): PaceKey => {
  const limit = { requests, perSeconds };
  return { key, intervalMs: intervalMs(limit, 0.5), windowMs: perSeconds * 1000, spare: spareOf(limit, 0.5) };
};

/**
 * The budgets calls draw from: the sandbox's fast service (hundreds of slots kept, 22 spare), groups
 * with the spec's slower limits (no spare, or a few), a small window where spares run out, a rate-limit
 * test's cool-down under the service's own key (another interval and no window: it keeps less), and
 * keys with no spacing at all.
 */
const KEYS: PaceKey[] = [
  paced('svc', 1000, 1),
  paced('svc', 10, 1),
  { key: 'svc', intervalMs: 300 },
  paced('g1', 10, 1),
  paced('g2', 3, 1),
  paced('g3', 1000, 1),
  { key: 'g4', intervalMs: 2.2, windowMs: 60, spare: 2 },
  { key: 'g5', intervalMs: 0 },
  { key: 'g6', intervalMs: 5, windowMs: 40, spare: 1 },
];

type Call =
  | { kind: 'reserve'; keys: number[]; advance: number; span: number }
  | { kind: 'settle'; which: number; departure: 'none' | 'within' | 'before' | 'after' | 'nan' | 'other-slot'; fraction: number };

const call: fc.Arbitrary<Call> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('reserve' as const),
      // One key, or a service with a group (a business request); now and then the same key twice.
      keys: fc.oneof(
        fc.tuple(fc.nat(KEYS.length - 1)).map(([a]) => [a]),
        fc.tuple(fc.constantFrom(0, 1, 5), fc.integer({ min: 3, max: KEYS.length - 1 })).map(([a, b]) => [a, b]),
        fc.tuple(fc.nat(KEYS.length - 1), fc.nat(KEYS.length - 1)).map(([a, b]) => [a, b]),
      ),
      // Time stands still (several workers ask at once), creeps (they queue ahead), or leaps (old slots end).
      advance: fc.oneof(
        fc.constant(0),
        fc.double({ min: 0, max: 3, noNaN: true }),
        fc.double({ min: 0, max: 40, noNaN: true }),
        fc.double({ min: 0, max: 3000, noNaN: true }),
      ),
      span: fc.oneof(
        { weight: 4, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.double({ min: 0, max: 900, noNaN: true }) },
        { weight: 1, arbitrary: fc.integer({ min: 100, max: 1000 }) },
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('settle' as const),
      which: fc.oneof(fc.nat(8), fc.nat()),
      departure: fc.constantFrom('none', 'within', 'within', 'before', 'after', 'nan', 'other-slot'),
      fraction: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  },
);

/** Plays the calls on both schedules from `start`, and returns where they first differ (none: they agreed on every slot). */
function play(calls: readonly Call[], start: number): string | undefined {
  const reference = new ReferenceSchedules();
  const current = new Schedules();
  const given: Array<{ keys: PaceKey[]; slot: number; span: number }> = [];
  let now = start;
  for (const [n, c] of calls.entries()) {
    if (c.kind === 'reserve') {
      now += c.advance;
      const keys = c.keys.map((i) => KEYS[i]);
      const [expected, actual] = [reference.reserve(keys, now, c.span), current.reserve(keys, now, c.span)];
      if (!Object.is(expected, actual)) return `call ${n}: reserve gave ${actual}, the reference ${expected}`;
      given.push({ keys, slot: actual, span: c.span });
    } else if (given.length > 0) {
      // Mostly one of the latest slots, as workers settle theirs soon after.
      const { keys, slot, span } = given[given.length - 1 - (c.which % given.length)];
      const departedAt = {
        none: undefined,
        within: slot + c.fraction * span,
        before: slot - 1 - c.fraction * 10,
        after: slot + span + c.fraction * 100,
        nan: Number.NaN,
        'other-slot': slot,
      }[c.departure];
      const at = c.departure === 'other-slot' ? slot + 0.5 : slot;
      reference.settle(keys, at, span, departedAt);
      current.settle(keys, at, span, departedAt);
    }
  }
  return undefined;
}

describe('Schedules, against the former implementation', () => {
  it('gives the very same slot for every call of random sequences of reservations and settlements', () => {
    fc.assert(
      fc.property(
        fc.array(call, { minLength: 1, maxLength: 400 }),
        fc.constantFrom(0, Date.parse('2026-11-27T08:00:00Z') + 0.25),
        (calls, start) => {
          expect(play(calls, start)).toBeUndefined();
        },
      ),
      { numRuns: 150 },
    );
  });

  it('gives the very same slots over a long run of a busy service, workers queued ahead and now and then late', () => {
    let seed = 22;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const calls: Call[] = [];
    for (let i = 0; i < 20_000; i++) {
      if (random() < 0.2) {
        calls.push({ kind: 'settle', which: Math.floor(random() * 8), departure: random() < 0.5 ? 'none' : 'within', fraction: random() });
        continue;
      }
      // Mostly groups as fast as the service, now and then one of the spec's slow ones.
      const group = random() < 0.02 ? [3, 4][Math.floor(random() * 2)] : [5, 6, 8][Math.floor(random() * 3)];
      calls.push({
        kind: 'reserve',
        keys: random() < 0.7 ? [0, group] : [0],
        // About the service's interval on average: the queue ahead comes and goes.
        advance: random() < 0.3 ? 0 : random() * 9,
        span: random() < 0.01 ? 100 + random() * 700 : 0,
      });
    }
    expect(play(calls, Date.parse('2026-11-27T08:00:00Z'))).toBeUndefined();
  });
});
