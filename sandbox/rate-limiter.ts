/** A sliding-window limiter: at most `limit` requests per `windowMs` per key. */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();
  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Records a hit and says whether it is within the limit, with what a 429 should tell. */
  hit(key: string, now = Date.now()): { allowed: boolean; remaining: number; resetMs: number } {
    const recent = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    const allowed = recent.length < this.limit;
    if (allowed) recent.push(now);
    this.hits.set(key, recent);
    const resetMs = recent.length ? recent[0] + this.windowMs - now : 0;
    return { allowed, remaining: Math.max(0, this.limit - recent.length), resetMs };
  }
}
