/**
 * The business operation groups of specs/limits.yaml (`businessGroups`): which documented limit paces a
 * business operation, and under which shared budget key. An operation in no group is paced at the
 * file's `undocumentedDefault`, all such operations under one key. Every business request counts
 * against the business service's limit as well (the client reserves both at once), whatever its token:
 * a request with no token or a bad one counts against its operation's group like any other.
 */
import { documentedLimits } from './limits.ts';
import type { RateLimit } from './target.ts';

interface BusinessGroup extends RateLimit {
  key: string;
  pattern: string;
}

export interface RateGroup {
  key: string;
  limit: RateLimit;
}

let groups: Array<{ key: string; re: RegExp; limit: RateLimit }> | undefined;

function load() {
  const file = documentedLimits() as ReturnType<typeof documentedLimits> & { businessGroups?: BusinessGroup[] };
  return (file.businessGroups ?? []).map((g, i) => {
    if (typeof g.key !== 'string' || typeof g.pattern !== 'string' || !(g.requests > 0) || !(g.perSeconds > 0)) {
      throw new Error(`specs/limits.yaml: businessGroups[${i}] needs key, pattern, requests and perSeconds`);
    }
    return { key: g.key, re: new RegExp(g.pattern), limit: { requests: g.requests, perSeconds: g.perSeconds } };
  });
}

/** The group of a business operation, by its path template ("/api/v1/card/{ucid}"). */
export function businessRateGroup(pathTemplate: string): RateGroup {
  groups ??= load();
  const found = groups.find((g) => g.re.test(pathTemplate));
  if (found) return { key: `business:${found.key}`, limit: found.limit };
  return { key: 'business:undocumented', limit: documentedLimits().undocumentedDefault };
}
