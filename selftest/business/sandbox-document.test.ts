/**
 * The sandbox's business document and its faults: the clean document is served byte for byte and is
 * valid; each document fault really changes what is served; drift reports what a fault changed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { catalogOperations } from '../../harness/openapi/catalog.ts';
import { computeDrift } from '../../harness/openapi/drift.ts';
import { OperationIndex } from '../../harness/openapi/paths.ts';
import { validateOpenApi } from '../../harness/openapi/validate.ts';
import { requirements } from '../../harness/requirements.ts';
import { FaultSet } from '../../sandbox/faults/types.ts';
import { DOCUMENT_FAULTS } from '../../sandbox/services/business/document-faults.ts';
import { businessFaults as documentFaults } from '../../sandbox/services/business/faults.ts';
import { mtlsOperations, servedDocument } from '../../sandbox/services/business/document.ts';
import { ROOT } from '../helpers.ts';

const catalog = new Map(documentFaults.map((f) => [f.id, f]));
const served = (...ids: string[]) => servedDocument(new FaultSet(catalog, ids));
const FILE = join(ROOT, 'sandbox', 'services', 'business', 'openapi.yaml');

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

  it('has at least 12 document faults, each naming known business requirements', () => {
    expect(documentFaults.length).toBeGreaterThanOrEqual(12);
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

describe('drift against the catalog', () => {
  const driftOf = (id: string) => {
    const text = (served(id) as { text: string }).text;
    return computeDrift(new OperationIndex(parse(text)), catalogOperations(), 'http://sandbox/doc');
  };

  it('is empty for the clean document', () => {
    const drift = computeDrift(new OperationIndex(parse(readFileSync(FILE, 'utf8'))), catalogOperations(), 'u');
    expect([drift.notInCatalog, drift.missingFromDocument, drift.removedButServed]).toEqual([[], [], []]);
    expect(drift.documentOperations).toBe(156);
  });

  it('names a missing operation, a removed one served, and an operation the catalog does not know', () => {
    expect(driftOf('bus-doc-operation-missing').missingFromDocument).toEqual([{ operation: 'GET /api/v1/counterparty/okved', status: 'current' }]);
    expect(driftOf('bus-doc-removed-served').removedButServed).toEqual(['POST /api/v1/self-employed/payment-registry/fiscalize']);
    const moved = driftOf('bus-doc-version-changed');
    expect(moved.notInCatalog).toEqual(['GET /api/v2/statement']);
    expect(moved.missingFromDocument).toEqual([{ operation: 'GET /api/v1/statement', status: 'current' }]);
  });
});
