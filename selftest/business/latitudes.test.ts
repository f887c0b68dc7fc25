/**
 * The business latitudes (sandbox/services/business: document-latitudes.ts, latitudes.ts,
 * runtime/latitudes.ts, ndfl3/latitudes.ts): each one folds into its part's modifiers without naming a
 * rule the part lacks, and the service-wide answer edits change what they say they change.
 */
import { describe, expect, it } from 'vitest';
import { loadVariations } from '../../sandbox/faults/index.ts';
import { FaultSet } from '../../sandbox/faults/types.ts';
import { SERVICE_LATITUDES } from '../../sandbox/services/business/latitudes.ts';
import { ndfl3Modifiers } from '../../sandbox/services/business/ndfl3/fault-modifiers.ts';
import { NDFL3_LATITUDES } from '../../sandbox/services/business/ndfl3/latitudes.ts';
import { runtimeModifiers } from '../../sandbox/services/business/runtime/fault-modifiers.ts';
import { innChecksumHolds, RUNTIME_LATITUDES } from '../../sandbox/services/business/runtime/latitudes.ts';

const catalog = new Map((await loadVariations()).map((v) => [v.id, v]));
const on = (id: string) => new FaultSet(catalog, [id]);
const edit = (id: string) => SERVICE_LATITUDES.find((l) => l.id === id)!.answer;
const json = (status: number, body: unknown) => ({ status, headers: { 'content-type': 'application/json' }, body });

describe('business latitudes', () => {
  it('fold into the runtime and 3-NDFL modifiers, each alone', () => {
    for (const l of [...RUNTIME_LATITUDES, ...SERVICE_LATITUDES])
      expect(() => runtimeModifiers(on(l.id), [...RUNTIME_LATITUDES, ...SERVICE_LATITUDES]), l.id).not.toThrow();
    for (const l of [...NDFL3_LATITUDES, ...SERVICE_LATITUDES])
      expect(() => ndfl3Modifiers(on(l.id), [...NDFL3_LATITUDES, ...SERVICE_LATITUDES]), l.id).not.toThrow();
  });

  it('write a UTC date-time at +03:00 with milliseconds, the same instant', () => {
    const out = edit('bus-lat-offset-times')(
      json(200, { createdAt: '2026-01-10T22:30:00Z', day: '2026-01-10', note: 'at 2026-01-10T22:30:00Z' }),
    );
    expect(out.body).toEqual({ createdAt: '2026-01-11T01:30:00.000+03:00', day: '2026-01-10', note: 'at 2026-01-10T22:30:00Z' });
    expect(Date.parse((out.body as { createdAt: string }).createdAt)).toBe(Date.parse('2026-01-10T22:30:00Z'));
  });

  it('move the error details into the message, or empty them on a 403', () => {
    const error = json(403, {
      errorId: '1',
      errorCode: 'FORBIDDEN',
      errorMessage: 'the token lacks the scope',
      errorDetails: { scope: 'card/get is required' },
    });
    expect(edit('bus-lat-no-error-details')(error).body).toEqual({
      errorId: '1',
      errorCode: 'FORBIDDEN',
      errorMessage: 'the token lacks the scope: scope card/get is required',
    });
    expect(edit('bus-lat-403-reasons-in-message')(error).body).toMatchObject({
      errorMessage: 'the token lacks the scope: scope card/get is required',
      errorDetails: {},
    });
    expect(edit('bus-lat-no-error-details')(json(200, { errorDetails: { a: 'b' } })).body).toEqual({ errorDetails: { a: 'b' } });
  });

  it('keep members and values when the keys move, and add a field only to successes', () => {
    const body = { a: 1, b: { c: 2, d: [{ e: 3, f: 4 }] } };
    expect(edit('bus-lat-key-order')(json(200, body)).body).toEqual(body);
    expect(edit('bus-lat-extra-fields')(json(200, { cards: [{ ucid: 1 }] })).body).toMatchObject({
      traceId: expect.any(String),
      cards: [{ ucid: 1, traceId: expect.any(String) }],
    });
    expect(edit('bus-lat-extra-fields')(json(404, { errorId: '1' })).body).toEqual({ errorId: '1' });
  });

  it('verify an inn by the weights of the tax service', () => {
    expect(['7707083893', '500100732259'].map(innChecksumHolds)).toEqual([true, true]);
    expect(['7707083894', '500100732250', '772000000019'].map(innChecksumHolds)).toEqual([false, false, false]);
  });
});
