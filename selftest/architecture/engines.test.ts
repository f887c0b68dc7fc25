/**
 * The Node version README promises is one every installed package accepts: `npm ci` once warned
 * EBADENGINE on Node 20 (fastify's light-my-request had moved to a cookie that asks for Node 22; the
 * lock now pins the light-my-request whose cookie runs on Node 18). Every package of package-lock.json
 * that names the Node versions it runs on must accept the oldest version README and package.json name.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';

type Version = [number, number, number];

/** "20", "20.19", "10.x", "6.*" or "20.19.0" as a version (what is left out is 0). */
function versionOf(text: string): Version {
  const [major, minor, patch] = text.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : 0));
  return [major, minor ?? 0, patch ?? 0];
}

const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** Whether `version` meets one comparator of the forms engines fields use here: *, >=X, >X, <X, ^X, ~X, X. */
function meets(version: Version, comparator: string): boolean {
  // Any version at all (allure's packages say "*").
  if (/^[*xX]$/.test(comparator)) return true;
  const match = /^(>=|>|<=|<|\^|~|=)?v?(\d+(?:\.(?:\d+|[xX*]))?(?:\.(?:\d+|[xX*]))?)$/.exec(comparator);
  if (!match) throw new Error(`a Node range of a form this test does not read: "${comparator}"`);
  const [, op = '=', text] = match;
  const bound = versionOf(text);
  const order = compare(version, bound);
  if (op === '>=') return order >= 0;
  if (op === '>') return order > 0;
  if (op === '<=') return order <= 0;
  if (op === '<') return order < 0;
  if (op === '^') return order >= 0 && (bound[0] > 0 ? version[0] === bound[0] : version[1] === bound[1]);
  if (op === '~') return order >= 0 && version[0] === bound[0] && version[1] === bound[1];
  // A bare version: its given parts must match.
  const given = text.split('.').filter((part) => /^\d+$/.test(part)).length;
  return version.slice(0, given).every((part, i) => part === bound[i]);
}

/** Whether `version` is in a range of `||` alternatives, each a set of comparators that all hold. */
function satisfies(version: Version, range: string): boolean {
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<|\^|~|=)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean)
      .every((comparator) => meets(version, comparator)),
  );
}

describe('the Node version the project names', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  const oldest = versionOf(pkg.engines.node.replace(/^>=\s*/, ''));

  it('is the one README names', () => {
    expect(pkg.engines.node).toBe('>=20.19');
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('Node 20.19 or newer');
  });

  it('is accepted by every installed package (npm ci warns EBADENGINE otherwise)', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
    };
    const refusing = Object.entries(lock.packages)
      .filter(([, p]) => p.engines && !Array.isArray(p.engines) && p.engines.node && !satisfies(oldest, p.engines.node))
      .map(([path, p]) => `${path}@${p.version}: node ${(p.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });

  it('is read as npm reads ranges (the check can fail)', () => {
    expect(satisfies([20, 19, 0], '>=22')).toBe(false);
    expect(satisfies([20, 19, 0], '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies([20, 18, 9], '^20.19.0 || >=22.12.0')).toBe(false);
    expect(satisfies([20, 19, 0], '>= 10.x')).toBe(true);
    expect(satisfies([20, 19, 0], '^10 || ^12 || >=14')).toBe(true);
  });
});
