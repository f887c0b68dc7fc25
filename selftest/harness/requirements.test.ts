/** Every requirement has a test, every test names a known requirement, ids keep their shape. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REQUIREMENT_ID, requirements } from '../../harness/spec/requirements.ts';
import { ROOT } from '../helpers.ts';

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (name.endsWith('.ts')) yield path;
  }
}

const ID_IN_CODE = /['"`]((?:SPE|IDN|INV|INS|BUS|NDF)-[A-Z0-9]{2,10}-[0-9]{3})['"`]/g;

describe('requirements.yaml and the suites', () => {
  const registry = requirements();
  const used = new Map<string, string>();
  for (const file of files(join(ROOT, 'suites'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(ID_IN_CODE)) used.set(m[1], file);
  }

  it('loads with well-formed, unique ids', () => {
    expect(registry.size).toBeGreaterThan(0);
    for (const id of registry.keys()) expect(id).toMatch(REQUIREMENT_ID);
  });

  it('every id a suite names is in requirements.yaml', () => {
    const unknown = [...used.keys()].filter((id) => !registry.has(id));
    expect(unknown).toEqual([]);
  });

  it('every requirement is named by some suite', () => {
    const untested = [...registry.keys()].filter((id) => !used.has(id));
    expect(untested).toEqual([]);
  });
});
