/**
 * The token of an ordinary surrender request. Where the target file says the 20 requests per second
 * count per token (`rateLimit.per: token`, as the sandbox's own file does) and names a `tokenPool`,
 * ordinary requests go out with `token` and the pool's tokens in turn, each paced under its own budget
 * (harness/request/token-budgets.ts), so that the run is not held to one token's pace. Without `per: token`
 * (every file that does not say so) every request goes with `token`, one budget for the service. The
 * rate-limit tests never come here: their burst and pace go with `token` alone.
 */
import { insuranceConfig } from './config.ts';
import { perScope } from '../runner/run-scope.ts';
import { credentialOf, type Target } from '../config/target.ts';

// Workers start at different places in the pool, so that their first requests do not share a token.
const turn = perScope(() => ({ next: process.pid }));

export function ordinaryToken(target: Target): string {
  const token = credentialOf(target, 'insurance', 'token');
  const config = insuranceConfig(target);
  const pool = config.tokenPool;
  if (config.rateLimit?.per !== 'token' || !pool?.length) return token;
  // `token` first, then the pool's, in turn (no copy of a pool of thousands per request).
  const at = turn().next++ % (pool.length + 1);
  return at === 0 ? token : pool[at - 1];
}
