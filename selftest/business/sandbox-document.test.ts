/**
 * The sandbox's business document and its faults: the clean document is served byte for byte and is
 * valid; each document fault really changes what is served, and breaks the change note or document
 * fact it names (here, without a suite run; the fault run proves it end to end); drift reports what a
 * fault changed; a note whose parent is gone is not located, never held.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { currentNotDeprecated, notMarkedMtls } from '../../harness/business/checks/document.ts';
import type { Failure } from '../../harness/checks/failure.ts';
import { catalogOperations, changeNote } from '../../harness/business/openapi/catalog.ts';
import { evaluateChangeNote } from '../../harness/business/openapi/change-notes.ts';
import { dereferenceDocument } from '../../harness/business/openapi/dereference.ts';
import {
  additionsOptional,
  certificatesInPem,
  heavyLoadErrorDocumented,
  loyaltyHistoryErrorsDocumented,
} from '../../harness/business/openapi/document-facts.ts';
import { computeDrift } from '../../harness/business/openapi/drift.ts';
import { OperationIndex } from '../../harness/business/openapi/paths.ts';
import { validateOpenApi } from '../../harness/business/openapi/validate.ts';
import { requirements } from '../../harness/spec/requirements.ts';
import { parseYamlFast } from '../../harness/text/yaml-fast.ts';
import { FaultSet } from '../../sandbox/faults/types.ts';
import { parseOpenApiText } from '../../harness/business/openapi/parse.ts';
import { loadLatitudes, loadVariations } from '../../sandbox/faults/index.ts';
import { DOCUMENT_FAULTS } from '../../sandbox/services/business/document-faults.ts';
import { DOCUMENT_LATITUDES } from '../../sandbox/services/business/document-latitudes.ts';
import { DOCUMENT_VARIATIONS } from '../../sandbox/services/business/index.ts';
import { businessFaults as documentFaults } from '../../sandbox/services/business/faults.ts';
import { cleanDocument, mtlsOperations, servedDocument } from '../../sandbox/services/business/document.ts';
import { ROOT } from '../helpers.ts';

const catalog = new Map(documentFaults.map((f) => [f.id, f]));
const servedBy = new Map<string, ReturnType<typeof servedDocument>>();
/** What the sandbox serves with these faults on, made once per set of faults (the per-fault tests read it twice). */
const served = (...ids: string[]) => {
  const key = ids.join(',');
  if (!servedBy.has(key)) servedBy.set(key, servedDocument(new FaultSet(catalog, ids)));
  return servedBy.get(key)!;
};
const FILE = join(ROOT, 'sandbox', 'services', 'business', 'openapi.yaml');
/** A served text read as the harness reads it (js-yaml where it gives yaml's value). */
const parse = (text: string) => parseYamlFast(text) as Record<string, unknown>;

describe('the sandbox business document', () => {
  it('is served byte for byte without faults, and is valid OpenAPI 3.0', async () => {
    const clean = served();
    expect(clean).toEqual({ text: readFileSync(FILE, 'utf8') });
    expect(await validateOpenApi(parse(readFileSync(FILE, 'utf8')))).toEqual({ version: '3.0', findings: [] });
  });

  it('writes into the target file the operations it marks x-mtls-required, never the cards list or a single card', () => {
    const list = mtlsOperations();
    expect(list.length).toBeGreaterThan(10);
    expect(list).not.toContain('GET /api/v1/card');
    expect(list).not.toContain('GET /api/v1/card/{ucid}');
    expect(list).toContain('POST /api/v1/payment/ruble-transfer/pay');
  });

  it('has a document fault for every change note, each naming known business requirements', () => {
    const caught = new Set(documentFaults.flatMap((f) => f.catches));
    expect([...requirements().keys()].filter((id) => /^BUS-(CHG|CAT|DOC|DRF)-/.test(id) && !caught.has(id))).toEqual([]);
    for (const fault of documentFaults) {
      expect(fault.area).toBe('business');
      expect(fault.catches.length).toBeGreaterThan(0);
      for (const id of fault.catches) expect(requirements().get(id)?.area, `${fault.id} -> ${id}`).toBe('business');
    }
  });

  it.each(DOCUMENT_FAULTS.map((f) => f.id))('fault %s changes what is served', (id) => {
    const clean = served() as { text: string };
    const faulty = served(id);
    if ('status' in faulty) expect(faulty.status).toBeGreaterThanOrEqual(400);
    else expect(faulty.text).not.toBe(clean.text);
  });
});

const allVariations = await loadVariations();
const latitudes = new Set((await loadLatitudes()).map((l) => l.id));

describe('the document latitudes', () => {
  const ids = DOCUMENT_VARIATIONS.map((v) => v.id).filter((id) => latitudes.has(id));
  const servedWith = async (id: string) =>
    servedDocument(new FaultSet(new Map(allVariations.map((v) => [v.id, v])), [id]), DOCUMENT_VARIATIONS) as { text: string };

  it('are the document latitudes and those of the parts that change a status the document lists', () => {
    expect(ids).toEqual(expect.arrayContaining([...DOCUMENT_LATITUDES.map((l) => l.id), 'bus-lat-transfer-200', 'bus-lat-ndfl3-conflict']));
  });

  it.each(ids)('%s changes what is served, and the document stays readable, valid OpenAPI', async (id) => {
    const { text } = await servedWith(id);
    expect(text).not.toBe(readFileSync(FILE, 'utf8'));
    const parsed = parseOpenApiText(text);
    expect(parsed.ok, id).toBe(true);
    if (parsed.ok) expect((await validateOpenApi(parsed.value)).findings, id).toEqual([]);
  });
});

describe('drift against the catalog', () => {
  const driftOf = (id: string) => {
    const text = (served(id) as { text: string }).text;
    return computeDrift(new OperationIndex(parse(text)), catalogOperations(), 'http://sandbox/doc');
  };

  it('is empty for the clean document', () => {
    const drift = computeDrift(new OperationIndex(parse(readFileSync(FILE, 'utf8'))), catalogOperations(), 'u');
    expect([drift.notInCatalog, drift.missingFromDocument, drift.removedButServed]).toEqual([[], [], []]);
    expect(drift.documentOperations).toBe(157);
  });

  it('names a missing operation, a removed one served, and an operation the catalog does not know', () => {
    expect(driftOf('bus-doc-operation-missing').missingFromDocument).toEqual([
      { operation: 'GET /api/v1/counterparty/okved', status: 'current' },
    ]);
    expect(driftOf('bus-doc-removed-served').removedButServed).toEqual(['POST /api/v1/self-employed/payment-registry/fiscalize']);
    const moved = driftOf('bus-doc-version-changed');
    expect(moved.notInCatalog).toEqual(['GET /api/v2/statement']);
    expect(moved.missingFromDocument).toEqual([{ operation: 'GET /api/v1/statement', status: 'current' }]);
  });
});

/** The document checks of suites/business/document.test.ts that a fault can name, as pure functions of the index. */
const CHECKS: Record<string, (index: OperationIndex, id: string) => Failure[]> = {
  'BUS-DOC-004': heavyLoadErrorDocumented,
  'BUS-DOC-005': loyaltyHistoryErrorsDocumented,
  'BUS-DOC-006': additionsOptional,
  'BUS-DOC-007': certificatesInPem,
  'BUS-DRF-001': (index, id) => currentNotDeprecated(index, catalogOperations(), id),
  'BUS-MTL-001': (index, id) =>
    ['GET /api/v1/card', 'GET /api/v3/card', 'GET /api/v1/card/{ucid}'].flatMap((op) => notMarkedMtls(index, op, id)),
};

const indexOf = async (text: string) => new OperationIndex(await dereferenceDocument(parse(text)));

describe('each edit fault of the document breaks what it names', () => {
  const judged = DOCUMENT_FAULTS.filter((f) => f.edit && f.catches.every((id) => id.startsWith('BUS-CHG-') || id in CHECKS));

  it('covers every change note and every document fact with a check here', () => {
    expect(judged.length).toBeGreaterThan(140);
  });

  it.each(judged.map((f) => f.id))('%s', async (id) => {
    const fault = DOCUMENT_FAULTS.find((f) => f.id === id)!;
    const value = parse((served(id) as { text: string }).text);
    // What is served is the edited document itself, as the harness reads it.
    const edited = structuredClone(cleanDocument());
    fault.edit!(edited);
    expect(isDeepStrictEqual(value, edited), 'the served text reads as the edited document').toBe(true);
    const index = new OperationIndex(await dereferenceDocument(value));
    for (const requirement of fault.catches) {
      if (requirement.startsWith('BUS-CHG-')) expect(evaluateChangeNote(index, changeNote(requirement)).kind, requirement).toBe('broken');
      else expect(CHECKS[requirement](index, requirement).length, requirement).toBeGreaterThan(0);
    }
  });

  it('and the clean document passes each of those checks', async () => {
    const index = await indexOf(readFileSync(FILE, 'utf8'));
    for (const [id, check] of Object.entries(CHECKS)) expect(check(index, id), id).toEqual([]);
  });
});

describe('an absence never holds because its parent is gone', () => {
  // biome-ignore lint/suspicious/noExplicitAny: an edit reaches anywhere into the parsed document
  const edited = async (edit: (doc: Record<string, any>) => void) => {
    const doc = parse(readFileSync(FILE, 'utf8'));
    edit(doc);
    return new OperationIndex(await dereferenceDocument(doc));
  };

  it('is not located when the checkout request body is not described', async () => {
    const index = await edited((doc) => delete doc.paths['/api/v2/checkout/order'].post.requestBody);
    for (const id of ['BUS-CHG-001', 'BUS-CHG-020', 'BUS-CHG-025', 'BUS-CHG-074'])
      expect(evaluateChangeNote(index, changeNote(id)).kind, id).toBe('not-located');
  });

  it('is not located when the order read describes no answer (the fields are looked for at any depth of the order)', async () => {
    const index = await edited((doc) => delete doc.paths['/api/v2/checkout/order/{shopId}/by/{orderId}'].get.responses['200'].content);
    for (const id of ['BUS-CHG-030', 'BUS-CHG-031']) expect(evaluateChangeNote(index, changeNote(id)).kind, id).toBe('not-located');
  });

  it('holds where the delivery section is a free-form object: it declares none of the fields v2 does not have', async () => {
    const index = await edited((doc) => (doc.components.schemas.Delivery = { type: 'object', description: 'Delivery details' }));
    for (const id of ['BUS-CHG-030', 'BUS-CHG-031']) expect(evaluateChangeNote(index, changeNote(id)).kind, id).toBe('holds');
  });

  it('is not located when the operation is served under another version', async () => {
    const index = await edited((doc) => {
      doc.paths['/api/v2/statement'] = doc.paths['/api/v1/statement'];
      delete doc.paths['/api/v1/statement'];
    });
    for (const id of ['BUS-CHG-032', 'BUS-CHG-034', 'BUS-CHG-102'])
      expect(evaluateChangeNote(index, changeNote(id)).kind, id).toBe('not-located');
  });
});
