/**
 * Client-side pacing. Ordinary requests of one service are spaced evenly at `paceFraction` of the
 * documented limit (no bursts, so a token-bucket server with a small bucket is safe too). The schedule
 * lives in one pacer server started by the vitest globalSetup, so the budget holds across all workers;
 * a process without one (a bench, a script) paces locally.
 */
import { createServer, type Server } from 'node:http';
import { request } from 'undici';
import type { RateLimit } from './target.ts';

/** Even spacing: each reservation is `interval` ms after the previous one, never in the past. */
export class Schedule {
  private next = 0;
  constructor(private readonly intervalMs: number) {}

  reserve(now: number): number {
    const slot = Math.max(now, this.next);
    this.next = slot + this.intervalMs;
    return slot;
  }
}

export function intervalMs(limit: RateLimit, fraction: number): number {
  return (limit.perSeconds * 1000) / (limit.requests * fraction);
}

export interface Pacer {
  /** Resolves when a request under `key` may be sent. */
  wait(key: string, intervalMs: number): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class LocalPacer implements Pacer {
  private readonly schedules = new Map<string, Schedule>();

  reserve(key: string, interval: number): number {
    let schedule = this.schedules.get(`${key}@${interval}`);
    if (!schedule) this.schedules.set(`${key}@${interval}`, (schedule = new Schedule(interval)));
    return schedule.reserve(Date.now()) - Date.now();
  }

  async wait(key: string, interval: number): Promise<void> {
    const ms = this.reserve(key, interval);
    if (ms > 0) await sleep(ms);
  }
}

/** Asks the shared pacer server for a slot; falls back to local pacing if the server is gone. */
export class RemotePacer implements Pacer {
  private readonly local = new LocalPacer();
  constructor(private readonly baseUrl: string) {}

  async wait(key: string, interval: number): Promise<void> {
    let ms: number;
    try {
      const res = await request(`${this.baseUrl}/slot?key=${encodeURIComponent(key)}&interval=${interval}`, { headersTimeout: 2000, bodyTimeout: 2000 });
      ms = Number(await res.body.text());
    } catch {
      ms = this.local.reserve(key, interval);
    }
    if (ms > 0) await sleep(ms);
  }
}

export async function startPacerServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const pacer = new LocalPacer();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://pacer');
    const key = url.searchParams.get('key') ?? 'default';
    const interval = Number(url.searchParams.get('interval') ?? '0');
    res.end(String(pacer.reserve(key, Number.isFinite(interval) ? interval : 0)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, close: () => new Promise((r) => server.close(() => r())) };
}
