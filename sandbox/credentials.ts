/**
 * Fixed development credentials of the sandbox, per area, documented in each service's README and
 * written inline into the target file the sandbox makes. They open nothing but this sandbox. A caller
 * may override any of them (the selftest runs with marker secrets and greps every output for them).
 */
export type Credentials = Record<string, Record<string, string>>;

export function mergeCredentials(defaults: Credentials, overrides: Partial<Credentials> = {}): Credentials {
  const merged: Credentials = {};
  for (const area of new Set([...Object.keys(defaults), ...Object.keys(overrides)])) {
    merged[area] = { ...(defaults[area] ?? {}), ...(overrides[area] ?? {}) };
  }
  return merged;
}
