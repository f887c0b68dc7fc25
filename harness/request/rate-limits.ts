import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseYamlFast } from '../text/yaml-fast.ts';
import { parsedOnce } from '../text/parsed-once.ts';
import type { RateLimit } from '../config/target.ts';
import type { Area } from '../areas.ts';

interface LimitsFile {
  undocumentedDefault: RateLimit;
  services: Partial<Record<Area, RateLimit>>;
}

/** The documented rate limits of specs/rate-limits.yaml. */
export function documentedRateLimits(): LimitsFile {
  const file = fileURLToPath(new URL('../../specs/rate-limits.yaml', import.meta.url));
  return parsedOnce(readFileSync(file, 'utf8'), parseYamlFast, 'yaml') as LimitsFile;
}
