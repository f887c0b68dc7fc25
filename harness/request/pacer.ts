/**
 * Client-side pacing. A request reserves one slot in every schedule it falls under at once: its
 * service's (the documented limit holds for the whole service, whatever the token, the group, or no
 * token at all) and, for a business operation, its group's: the earliest time that keeps each key's
 * interval from every slot already reserved under it. Requests of a key are spaced at least its
 * interval apart (no bursts, so a token-bucket server with a small bucket is safe too), and leave
 * within LATE_MS of their slot or not at all. The schedules live in one pacer server started by the
 * vitest globalSetup, so every budget holds across all workers; a process without one (a bench, a
 * script, a selftest) paces locally.
 */
import { createServer, type Server } from 'node:http';
import { request } from 'undici';
import { ToolError } from '../errors.ts';
import { currentHolder } from './pace-hold.ts';
import { PaceCounter, type PaceCounts } from './pace-counts.ts';
import type { RateLimit } from '../config/target.ts';
import { RequestDeadline } from '../transport/deadline.ts';

/** One budget a request counts against: its key and the spacing its limit asks for. */
export interface PaceKey {
  key: string;
  intervalMs: number;
  /** The limit's window, and how many requests any one window of it can take besides its spaced slots (`spareOf`); none when absent. */
  windowMs?: number;
  spare?: number;
  /** A cool-down's hold of the key (HttpClient.quiet), not a request: not counted in the run's plan. */
  cooldown?: boolean;
}

/**
 * Slack between the pacer's slot and the wire: a request leaves a little after its slot (the worker's
 * timer, the pacer's answer), never before, and two requests may be late by different amounts. A
 * tenth of the window is room for 100 ms of such jitter before a one-second window could hold one
 * request too many.
 */
const WIRE_GUARD = 0.1;

/**
 * The spacing that keeps any window of the limit's length (`perSeconds`) at or under `fraction` of its
 * `requests`, counted in whole requests: 10/s at 0.5 allows 5 a second, 3/s at 0.5 allows 1, and a
 * budget below one request per window (1/s at 0.5) allows one request per 1/(requests × fraction).
 */
export function intervalMs(limit: RateLimit, fraction: number): number {
  const perWindow = limit.requests * fraction;
  const windowMs = limit.perSeconds * 1000;
  const spacing = perWindow >= 1 ? windowMs / Math.floor(perWindow) : windowMs / perWindow;
  return spacing * (1 + WIRE_GUARD);
}

/**
 * How many requests any one window can take besides the slots spaced by `intervalMs`, each leaving
 * within LATE_MS of its slot: the window's share in whole requests, less the most such slots a window
 * (LATE_MS longer) can hold. 10/s at 0.5 (5 a window) has none; the sandbox's 1000/s has 22. A request
 * whose worker missed its slot may take one of them, for as wide a span as it needs, where a key has
 * none to spare it must keep the span clear of every other slot.
 */
export function spareOf(limit: RateLimit, fraction: number): number {
  const perWindow = Math.floor(limit.requests * fraction);
  if (perWindow < 1) return 0;
  const windowMs = limit.perSeconds * 1000;
  return Math.max(0, perWindow - Math.ceil((windowMs + LATE_MS) / intervalMs(limit, fraction)));
}

/**
 * A reserved slot: its request leaves between `at` and `at + span` (plus LATE_MS). A spanned one is
 * either kept clear of every other slot (`clear`), or one of its key's spare requests. `seq` orders
 * reservations as they were made: where several clash, the rule moves past the earliest made.
 */
interface Reservation {
  at: number;
  span: number;
  spanned: boolean;
  clear: boolean;
  seq: number;
}

/**
 * One key's reservations. A fast limit keeps hundreds of them (the sandbox's 1000/s: every 2.2 ms of a
 * window and LATE_MS), so its ordinary slots (no span, at a finite time) are kept sorted by time, where
 * the few a test concerns are found by binary search; the rest (spanned ones: late requests, rare) are
 * read whole.
 */
interface KeySlots {
  points: Reservation[];
  others: Reservation[];
}

/** The first index of `list` (sorted by time) whose reservation passes `test`, a test that fails up to some time and passes from it on. */
function firstPassing(list: readonly Reservation[], test: (r: Reservation) => boolean): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test(list[mid])) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Of two reservations (either may be absent), the one made first. */
const earlier = (a: Reservation | undefined, b: Reservation) => (a === undefined || b.seq < a.seq ? b : a);

/**
 * The reserved slots of every key; `reserve` is the whole pacing rule. An ordinary request (no span)
 * gets the earliest time at or after `now` at least each key's interval away from every slot and
 * every clear span of that key: slots of a key are spaced evenly. A request whose worker missed its
 * slot (harness/request/http.ts) asks for a span in which it may leave: in a key with a spare request left in
 * every window its span can touch, it takes one (nothing else moves); otherwise its span is kept clear,
 * an interval away from every other slot and span of the key. Either way no window holds more than the
 * key's share. A request may take a gap before slots reserved further ahead (a business group with a
 * long queue does not hold back the service's other groups).
 */
export class Schedules {
  private readonly slots = new Map<string, KeySlots>();
  private made = 0;

  reserve(keys: readonly PaceKey[], now: number, spanMs = 0): number {
    for (const k of keys) this.prune(k.key, now - Math.max(k.intervalMs, (k.windowMs ?? 0) + LATE_MS));
    const spareAt = (k: PaceKey, slot: number) => spanMs > 0 && this.hasSpare(k, slot, spanMs);
    let slot = now;
    for (let moved = true; moved; ) {
      moved = false;
      for (const k of keys) {
        if (spareAt(k, slot)) continue;
        // A clash must move the slot forward: the moved slot is computed as the clash test computes its
        // bound, so that at Date.now() magnitudes, where sums round, it never counts as a clash again.
        const clash = this.firstClash(this.slots.get(k.key)!, k.intervalMs, slot, spanMs);
        if (clash !== undefined) {
          slot = clash.at + clash.span + k.intervalMs;
          moved = true;
        }
      }
    }
    for (const k of keys)
      this.add(this.slots.get(k.key)!, {
        at: slot,
        span: spanMs,
        spanned: spanMs > 0,
        clear: spanMs > 0 && !spareAt(k, slot),
        seq: this.made++,
      });
    return slot;
  }

  /** Forgets the key's reservations that ended by `after`: none of them can clash with or crowd a slot from now on. */
  private prune(key: string, after: number): void {
    let s = this.slots.get(key);
    if (s === undefined) this.slots.set(key, (s = { points: [], others: [] }));
    const kept = (r: Reservation) => r.at + r.span > after;
    const ended = firstPassing(s.points, kept);
    if (ended > 0) s.points.splice(0, ended);
    if (!s.others.every(kept)) s.others = s.others.filter(kept);
  }

  /**
   * The first made of the key's reservations that a slot (with its span) would come too close to; a
   * span-0 request is not held back by spare spans. The slots that clash lie in one run of the sorted
   * ones: from the first whose end plus the interval is past the slot, while they start before its end
   * plus the interval.
   */
  private firstClash(s: KeySlots, intervalMs: number, slot: number, spanMs: number): Reservation | undefined {
    const bound = slot + spanMs + intervalMs;
    let first: Reservation | undefined;
    const { points } = s;
    for (let i = firstPassing(points, (r) => slot < r.at + r.span + intervalMs); i < points.length && points[i].at < bound; i++)
      first = earlier(first, points[i]);
    for (const r of s.others)
      if ((spanMs > 0 || !r.spanned || r.clear) && slot < r.at + r.span + intervalMs && r.at < bound) first = earlier(first, r);
    return first;
  }

  private add(s: KeySlots, r: Reservation): void {
    if (!r.spanned && r.span === 0 && Number.isFinite(r.at))
      s.points.splice(
        firstPassing(s.points, (p) => p.at > r.at),
        0,
        r,
      );
    else s.others.push(r);
  }

  /** Whether every window a span from `slot` can touch has a spare request of the key left. */
  private hasSpare(k: PaceKey, slot: number, spanMs: number): boolean {
    if (!k.spare || !k.windowMs) return false;
    const from = slot - k.windowMs;
    const to = slot + spanMs + LATE_MS + k.windowMs;
    let near = 0;
    for (const r of this.slots.get(k.key)!.others) if (r.spanned && r.at < to && r.at + r.span + LATE_MS > from) near++;
    return near < k.spare;
  }

  /**
   * What became of a reservation: sent at `departedAt` (its span shrinks to that moment, and the rest
   * of it is free again), or never sent (undefined: the whole of it is free again).
   */
  settle(keys: readonly PaceKey[], slot: number, spanMs: number, departedAt?: number): void {
    for (const k of keys) {
      const s = this.slots.get(k.key);
      if (s === undefined) continue;
      const { points, others } = s;
      // The first made of the reservations at this slot with this span, and the list that holds it.
      let list = points;
      let i = -1;
      for (let p = firstPassing(points, (r) => r.at >= slot); p < points.length && points[p].at === slot; p++)
        if (points[p].span === spanMs && (i < 0 || points[p].seq < points[i].seq)) i = p;
      for (let o = 0; o < others.length; o++)
        if (others[o].at === slot && others[o].span === spanMs && (i < 0 || others[o].seq < list[i].seq)) [list, i] = [others, o];
      if (i < 0) continue;
      if (departedAt === undefined) {
        list.splice(i, 1);
        continue;
      }
      // A spanned slot that was used stays what it was (spare or clear), narrowed to its departure.
      const r = list[i];
      const at = Math.max(slot, Math.min(departedAt, slot + spanMs));
      if (list === points && at !== r.at) {
        // Only a departure that is no time (NaN) moves an ordinary slot: it is no longer one to sort.
        points.splice(i, 1);
        others.push(r);
      }
      r.at = at;
      r.span = 0;
    }
  }
}

export interface Pacer {
  /**
   * Resolves with the slot (a Date.now() time) once it has come: a request under all `keys` may leave
   * until `spanMs` plus LATE_MS after it (the client holds it to that at the wire:
   * transport/departure.ts). Rejects with the signal's reason when it aborts first.
   */
  wait(keys: readonly PaceKey[], signal?: AbortSignal, spanMs?: number): Promise<number>;
  /** Tells the schedule what became of a slot it gave: see Schedules.settle. */
  settle(keys: readonly PaceKey[], slot: number, spanMs: number, departedAt?: number): Promise<void>;
}

/** A sleep that ends early, rejecting, when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * How long after its slot (and span) a request may still leave: half of the wire guard of a one-second
 * window, so that one request late by this much next to one on time still keeps every window. A
 * request that would leave later (its worker was busy, descheduled, or still opening a connection) is
 * stopped at the wire and takes a new slot, with a span as wide as its worker has shown it needs.
 */
export const LATE_MS = 50;

/**
 * Waits for a slot given as an absolute time (Date.now() on this machine: the pacer server is always on
 * loopback). Whoever the waiting code works for (a test's budget, shared work and its callers) is held
 * from the ask until the slot: the wait the pacer imposes is not the target's time (harness/request/pace-hold.ts).
 */
async function waitForSlot(reserve: () => Promise<number>, signal?: AbortSignal): Promise<number> {
  const holder = currentHolder();
  const asking = holder?.holdOpen();
  let slot: number;
  try {
    slot = await reserve();
    holder?.holdUntil(slot);
  } finally {
    asking?.();
  }
  await sleep(slot - Date.now(), signal);
  return slot;
}

export class LocalPacer implements Pacer {
  private readonly schedules = new Schedules();
  /** The requests each key was given a slot for (harness/request/pace-counts.ts). */
  readonly counts = new PaceCounter();

  /** The slot, as a Date.now() time. */
  reserve(keys: readonly PaceKey[], spanMs = 0): number {
    this.counts.reserved(keys);
    return this.schedules.reserve(keys, Date.now(), spanMs);
  }

  wait(keys: readonly PaceKey[], signal?: AbortSignal, spanMs = 0): Promise<number> {
    return waitForSlot(async () => this.reserve(keys, spanMs), signal);
  }

  async settle(keys: readonly PaceKey[], slot: number, spanMs: number, departedAt?: number): Promise<void> {
    if (departedAt === undefined) this.counts.withdrawn(keys);
    this.schedules.settle(keys, slot, spanMs, departedAt);
  }
}

/** How long a worker waits for the shared pacer's answer: the main process may be busy, never this long. */
const PACER_ANSWER_MS = 30_000;

/**
 * Asks the shared pacer server for a slot. There is no local fallback: a worker pacing alone would
 * break the budget every other worker keeps. A pacer that does not answer is a SUITE_ERROR; the
 * test's budget ending first aborts the wait.
 */
export class RemotePacer implements Pacer {
  constructor(private readonly baseUrl: string) {}

  wait(keys: readonly PaceKey[], signal?: AbortSignal, spanMs = 0): Promise<number> {
    return waitForSlot(() => this.ask('/slot', { keys, spanMs }, signal), signal);
  }

  async settle(keys: readonly PaceKey[], slot: number, spanMs: number, departedAt?: number): Promise<void> {
    await this.ask('/settle', { keys, spanMs, slot, departedAt });
  }

  private async ask(path: string, body: unknown, testSignal?: AbortSignal): Promise<number> {
    const deadline = new RequestDeadline(PACER_ANSWER_MS, testSignal);
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          const res = await request(`${this.baseUrl}${path}`, { method: 'POST', body: JSON.stringify(body), signal: deadline.signal });
          const text = await res.body.text();
          const slot = Number(text);
          if (res.statusCode !== 200 || !Number.isFinite(slot)) throw new Error(`answered ${res.statusCode}: ${text.slice(0, 200)}`);
          return slot;
        } catch (error) {
          // A kept-alive connection the server closed just as it was reused: ask again on a fresh one (a lost slot costs nothing).
          const reused = /other side closed|ECONNRESET|socket hang up/i.test(
            `${(error as Error).message} ${(error as { code?: string }).code}`,
          );
          if (!reused || attempt >= 3 || deadline.abortedBy) throw error;
        }
      }
    } catch (error) {
      if (deadline.abortedBy === 'test-budget' || deadline.abortedBy === 'interrupted') throw error;
      throw new ToolError(
        'SUITE_ERROR',
        `the shared pacer at ${this.baseUrl} gave no slot (${deadline.abortedBy === 'deadline' ? `no answer within ${PACER_ANSWER_MS} ms` : (error as Error).message})`,
      );
    } finally {
      deadline.dispose();
    }
  }
}

interface Ask {
  keys: PaceKey[];
  spanMs: number;
  slot?: number;
  departedAt?: number;
}

function parseAsk(text: string): Ask {
  const { keys, spanMs, slot, departedAt } = (JSON.parse(text) ?? {}) as {
    keys?: unknown;
    spanMs?: unknown;
    slot?: unknown;
    departedAt?: unknown;
  };
  if (!Array.isArray(keys)) throw new Error('expected { keys, spanMs } with a list of keys');
  if (typeof spanMs !== 'number' || !(spanMs >= 0)) throw new Error('spanMs must be a number of at least 0');
  if ((slot !== undefined && typeof slot !== 'number') || (departedAt !== undefined && typeof departedAt !== 'number'))
    throw new Error('slot and departedAt are numbers');
  const parsed = keys.map((k: { key?: unknown; intervalMs?: unknown; windowMs?: unknown; spare?: unknown; cooldown?: unknown }) => {
    if (typeof k?.key !== 'string' || typeof k.intervalMs !== 'number' || !(k.intervalMs >= 0))
      throw new Error('each key needs key and intervalMs');
    const count = (v: unknown) => (typeof v === 'number' && v >= 0 ? v : undefined);
    return { key: k.key, intervalMs: k.intervalMs, windowMs: count(k.windowMs), spare: count(k.spare), cooldown: k.cooldown === true };
  });
  return { keys: parsed, spanMs, slot: slot as number | undefined, departedAt: departedAt as number | undefined };
}

/**
 * The shared pacer: POST /slot with the request's keys and span (JSON) answers the slot, a Date.now()
 * time; POST /settle with the keys, span, slot and the departure (or none) settles it. `counts` is what
 * the run's requests asked of each key so far.
 */
export async function startPacerServer(): Promise<{ url: string; close: () => Promise<void>; counts: () => PaceCounts }> {
  const pacer = new LocalPacer();
  const server: Server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      try {
        const ask = parseAsk(text);
        if (req.url === '/settle' && ask.slot !== undefined) {
          pacer.settle(ask.keys, ask.slot, ask.spanMs, ask.departedAt);
          res.end('0');
        } else res.end(String(pacer.reserve(ask.keys, ask.spanMs)));
      } catch (error) {
        res.writeHead(400).end((error as Error).message);
      }
    });
  });
  // Workers keep their connection to the pacer; closing it while idle only invites a reuse race.
  server.keepAliveTimeout = 10 * 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    counts: () => pacer.counts.snapshot(),
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
