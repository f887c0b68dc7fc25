/**
 * The business operation groups of specs/rate-limits.yaml (`businessGroups`): which documented limit paces a
 * business operation, and under which shared budget key. An operation in no group is paced at the
 * file's `undocumentedDefault`, all such operations under one key; a target file may declare a group's
 * limit for itself (`services.business.rateGroups`). Every business request counts
 * against the business service's limit as well (the client reserves both at once), whatever its token:
 * a request with no token or a bad one counts against its operation's group like any other.
 */
import { documentedRateLimits } from './rate-limits.ts';
import type { RateLimit, Target } from '../config/target.ts';

const PREFIX = 'business:';

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
  const file = documentedRateLimits() as ReturnType<typeof documentedRateLimits> & { businessGroups?: BusinessGroup[] };
  return (file.businessGroups ?? []).map((g, i) => {
    if (typeof g.key !== 'string' || typeof g.pattern !== 'string' || !(g.requests > 0) || !(g.perSeconds > 0)) {
      throw new Error(`specs/rate-limits.yaml: businessGroups[${i}] needs key, pattern, requests and perSeconds`);
    }
    return { key: g.key, re: new RegExp(g.pattern), limit: { requests: g.requests, perSeconds: g.perSeconds } };
  });
}

/**
 * The limit that paces a group: the target file's own for it (`services.business.rateGroups`, by the
 * group's key in specs/rate-limits.yaml, or `undocumented`), else the documented one.
 */
export function groupLimit(target: Target, group: RateGroup): RateLimit {
  const name = group.key.startsWith(PREFIX) ? group.key.slice(PREFIX.length) : undefined;
  return (name !== undefined ? target.services.business?.rateGroups?.[name] : undefined) ?? group.limit;
}

/** The group a pace key names ("business:ndfl3", "business:undocumented"), if it is one. */
export function businessRateGroupByKey(key: string): RateGroup | undefined {
  groups ??= load();
  if (key === `${PREFIX}undocumented`) return { key, limit: documentedRateLimits().undocumentedDefault };
  const found = groups.find((g) => `${PREFIX}${g.key}` === key);
  return found && { key, limit: found.limit };
}

/** The group of a business operation, by its path template ("/api/v1/card/{ucid}"). */
export function businessRateGroup(pathTemplate: string): RateGroup {
  groups ??= load();
  const found = groups.find((g) => g.re.test(pathTemplate));
  if (found) return { key: `${PREFIX}${found.key}`, limit: found.limit };
  return { key: `${PREFIX}undocumented`, limit: documentedRateLimits().undocumentedDefault };
}
