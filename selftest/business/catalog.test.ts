/**
 * The business catalog against a second, hand-written reading of spec 4.5 (spec-4-5.ts), the change
 * notes against requirements.yaml, and the document suite against the change notes it must run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogOperations, changeNotes } from '../../harness/business/openapi/catalog.ts';
import { operationKey } from '../../harness/business/openapi/paths.ts';
import { requirements } from '../../harness/spec/requirements.ts';
import { ROOT } from '../helpers.ts';
import { specOperations } from './spec-4-5.ts';

describe('specs/catalog/business-operations.yaml', () => {
  const rows = catalogOperations();
  const spec = specOperations();

  it('has as many rows as the hand expansion of 4.5 (160), none twice', () => {
    expect(spec).toHaveLength(160);
    expect(new Set(spec.map((s) => s.key)).size).toBe(160);
    expect(rows).toHaveLength(spec.length);
  });

  it('has exactly the operations of the hand expansion, with the same status', () => {
    const catalog = new Map(rows.map((r) => [operationKey(r.method, r.path), r.status]));
    const expected = new Map(spec.map((s) => [s.key, s.status]));
    expect([...expected.keys()].filter((k) => !catalog.has(k))).toEqual([]);
    expect([...catalog.keys()].filter((k) => !expected.has(k))).toEqual([]);
    expect([...expected].filter(([k, status]) => catalog.get(k) !== status)).toEqual([]);
    const optional = new Set(rows.filter((r) => r.optional).map((r) => operationKey(r.method, r.path)));
    expect([...optional].sort()).toEqual(
      spec
        .filter((s) => s.optional)
        .map((s) => s.key)
        .sort(),
    );
  });

  it('names the version segment of each path, and a successor that is a current row for each deprecated one', () => {
    for (const row of rows) expect(row.version, `${row.method} ${row.path}`).toBe(/\/(v\d+)\//.exec(row.path)?.[1] ?? 'none');
    const current = new Set(rows.filter((r) => r.status === 'current').map((r) => operationKey(r.method, r.path)));
    for (const row of rows.filter((r) => r.status === 'deprecated')) {
      const [method, path] = String(row.replacedBy).split(' ');
      expect(current.has(operationKey(method, path)), `${row.method} ${row.path} -> ${row.replacedBy}`).toBe(true);
    }
  });

  it('never puts the cards list or the single-card read behind a client certificate (spec 5.5)', () => {
    for (const key of ['GET /api/v1/card', 'GET /api/v1/card/{}']) {
      expect(rows.find((r) => operationKey(r.method, r.path) === key)?.mtlsDefault, key).toBe(false);
    }
  });

  it('classes every GET as read', () => {
    expect(rows.filter((r) => r.method === 'GET' && r.sideEffect !== 'read').map((r) => r.path)).toEqual([]);
  });
});

describe('specs/catalog/change-notes.yaml', () => {
  const notes = changeNotes();
  const catalog = new Map(catalogOperations().map((r) => [operationKey(r.method, r.path), r]));

  it('has ids BUS-CHG-001 upwards without gaps, each a requirement with the same section and text', () => {
    notes.forEach((note, i) => {
      expect(note.id).toBe(`BUS-CHG-${String(i + 1).padStart(3, '0')}`);
      const req = requirements().get(note.id);
      expect(req, note.id).toBeDefined();
      expect(req!.section, note.id).toBe(note.section);
      expect(req!.text, note.id).toBe(note.text);
    });
  });

  it('repeats each reading beside its requirement; a spec note quotes the spec, a policy note says its reading', () => {
    for (const note of notes) {
      const req = requirements().get(note.id)!;
      expect(req.reading, note.id).toBe(note.reading);
      expect(req.source, note.id).toMatch(/^(spec|policy)$/);
      if (req.source === 'spec')
        expect(
          [req.quote].flat().every((q) => typeof q === 'string' && q.length > 10),
          note.id,
        ).toBe(true);
      else expect(note.reading, note.id).toBeTruthy();
    }
  });

  it('locates every assertion on a current or deprecated catalog operation', () => {
    for (const note of notes) {
      for (const operation of note.operations) {
        const [method, path] = operation.split(' ');
        expect(catalog.get(operationKey(method, path))?.status, `${note.id} ${operation}`).toMatch(/^(current|deprecated)$/);
      }
    }
  });

  it('is run by suites/business/document.test.ts, each assertion exactly once', () => {
    const text = readFileSync(join(ROOT, 'suites', 'business', 'document.test.ts'), 'utf8');
    const named = [...text.matchAll(/'(BUS-CHG-\d{3})'/g)].map((m) => m[1]);
    expect(named.sort()).toEqual(notes.map((n) => n.id).sort());
  });
});
