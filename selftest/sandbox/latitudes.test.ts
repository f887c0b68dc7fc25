/**
 * The latitude catalog (sandbox/services/<area>/latitudes.ts): the mirror of the faults. Every latitude
 * quotes the spec's own words that allow it, has an id no fault or other latitude has, and is an edit
 * around its handler (or, in business, a document edit picked by id), so it can never silently do nothing.
 */
import { describe, expect, it } from 'vitest';
import { loadSpecDocument, specContains } from '../../harness/spec/spec-document.ts';
import { loadLatitudes, loadVariations } from '../../sandbox/faults/index.ts';
import { isModifier } from '../../sandbox/faults/modifiers.ts';
import { FaultSet } from '../../sandbox/faults/types.ts';

const spec = loadSpecDocument();
const latitudes = await loadLatitudes();

describe('latitude catalog', () => {
  it('ids are unique across faults and latitudes', async () => {
    await expect(loadVariations()).resolves.toBeInstanceOf(Array);
  });

  it('every latitude quotes words the spec says, verbatim', () => {
    const missing = latitudes.flatMap((l) =>
      l.allows.length ? l.allows.filter((q) => !specContains(spec, q)).map((q) => `${l.id}: "${q}"`) : [`${l.id}: allows nothing`],
    );
    expect(missing).toEqual([]);
  });

  it('every latitude is an edit around its handler', () => {
    expect(latitudes.filter((l) => l.area !== 'business' && !isModifier(l)).map((l) => l.id)).toEqual([]);
  });

  it('a latitude id switches on like a fault id', () => {
    const catalog = new Map(latitudes.map((l) => [l.id, l]));
    for (const l of latitudes) expect(new FaultSet(catalog, [l.id]).has(l.id)).toBe(true);
  });
});
