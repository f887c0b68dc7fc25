/**
 * Which budget a request counts against where a target file says its service's limit counts each
 * bearer token apart (`rateLimit.per: token`): its token's, named by where the token stands in the
 * target file (`services.insurance.tokenPool[2]`), never by its value; one budget for every token the
 * file does not name (a made-up token is still counted by the target, against something); one for all
 * requests without a token. Every worker reads the same file, so they name the same budgets.
 */
import { formatPath, stringsWithKind } from '../config/target-schema.ts';
import type { Target } from '../config/target.ts';
import type { Area } from '../areas.ts';

const BEARER = /^bearer\s+(\S+)\s*$/i;

export class TokenBudgets {
  private readonly names = new Map<Area, Map<string, string>>();

  constructor(private readonly target: Target) {}

  /** The budget of a request with these headers to `area`. */
  of(area: Area, headers: Record<string, string> | undefined): string {
    const authorization = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
    const token = BEARER.exec(authorization ?? '')?.[1];
    if (token === undefined) return 'no-token';
    return this.namesOf(area).get(token) ?? 'other-tokens';
  }

  private namesOf(area: Area): Map<string, string> {
    let names = this.names.get(area);
    if (!names) {
      names = new Map();
      const section = this.target.services[area];
      for (const { path, value, kind } of stringsWithKind(section, ['services', area]))
        if (kind === 'secret' && !names.has(value)) names.set(value, formatPath(path));
      this.names.set(area, names);
    }
    return names;
  }
}
