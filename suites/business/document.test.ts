/**
 * The business document level (spec 2.6, 4.5, 5.5, 7, 8, 9): the OpenAPI document served at
 * {business_url}/openapi/docs/openapi.yaml, fetched once for this whole file, checked for being
 * readable and valid, against the operation catalog, against the change notes of 2.6 / 8 / 9, for the
 * facts of 5.5, 7 and 9 a document can show, and for its client-certificate markings. Drift against the
 * catalog is written to <report dir>/drift.json. What the document does not describe ends a test
 * inconclusive (NOT_LOCATED), never passed.
 */
import { afterAll, describe } from 'vitest';
import {
  currentNotDeprecated,
  documentServed,
  mtlsMarkingsMatch,
  notMarkedMtls,
  openApiValid,
  operationAbsent,
  operationDeprecated,
  operationPresent,
  successDocumented,
} from '../../harness/business/checks/document.ts';
import { mtlsOperations } from '../../harness/business/openapi/business-target.ts';
import { catalogOperations, changeNote } from '../../harness/business/openapi/catalog.ts';
import { computeDrift, summariseDrift, writeDrift } from '../../harness/business/openapi/drift.ts';
import {
  additionsOptional,
  certificatesInPem,
  errorExamplesCarryDetails,
  heavyLoadErrorDocumented,
  loyaltyHistoryErrorsDocumented,
} from '../../harness/business/openapi/document-facts.ts';
import { alreadyLoaded, documentServerError } from '../../harness/business/openapi/load.ts';
import { NotLocated } from '../../harness/business/openapi/locate.ts';
import { parseOperationName } from '../../harness/business/openapi/paths.ts';
import { CARDS_WITHOUT_CERTIFICATE } from '../../harness/business/runtime/certificate.ts';
import { scoped } from '../../harness/runner/run-scope.ts';
import { runSettings } from '../../harness/runner/settings.ts';
import { requirementTest, runContext } from '../../harness/test/suite.ts';
import { expectChangeNote, expectFacts, readableDocument, servedDocument } from '../../harness/business/client.ts';

const rows = (status: string) => catalogOperations().filter((row) => row.status === status);
/** The rows a document must describe: not the specification file itself, nor a row only one reading of 4.5 gives. */
const required = (status: string) => rows(status).filter((row) => !row.optional);

describe('business document: served, YAML, OpenAPI', () => {
  requirementTest('BUS-DOC-001', async (t) => {
    const served = await servedDocument(t);
    t.expectNone(documentServed(served, t.id, documentServerError()), served.response);
  });

  requirementTest('BUS-DOC-002', async (t) => {
    await readableDocument(t);
    const served = await servedDocument(t);
    t.expectNone(openApiValid(await served.validation(), t.id));
  });

  requirementTest('BUS-DOC-003', async (t) => {
    const { index } = await readableDocument(t);
    t.expectNone(successDocumented(index, t.id));
  });
});

describe('business document: the operation catalog (4.5, 9)', () => {
  for (const row of required('current')) {
    requirementTest('BUS-CAT-001', { row: `${row.method} ${row.path} is present` }, async (t) => {
      t.expectNone(operationPresent((await readableDocument(t)).index, row, t.id));
    });
  }
  for (const row of rows('deprecated')) {
    requirementTest('BUS-CAT-002', { row: `${row.method} ${row.path} is present and marked deprecated` }, async (t) => {
      t.expectNone(operationDeprecated((await readableDocument(t)).index, row, t.id));
    });
  }
  for (const row of rows('removed')) {
    requirementTest('BUS-CAT-003', { row: `${row.method} ${row.path} (removed) is absent` }, async (t) => {
      t.expectNone(operationAbsent((await readableDocument(t)).index, row, t.id));
    });
  }

  requirementTest('BUS-DRF-001', async (t) => {
    await expectFacts(t, ({ index }) => {
      const current = required('current');
      if (!current.some((row) => index.find(row.method, row.path)))
        throw new NotLocated('the document describes none of the current operations of the catalog');
      return currentNotDeprecated(index, current, t.id);
    });
  });

  afterAll(
    scoped(async () => {
      const pending = alreadyLoaded(runContext().target);
      const served = pending && (await pending.catch(() => undefined));
      if (!served?.readable) return;
      const drift = computeDrift(served.readable.index, catalogOperations(), served.url);
      const file = writeDrift(runSettings().reportDir, drift);
      console.log(runContext().target.redactor.redact(summariseDrift(drift, file)));
    }),
  );
});

/** One test per assertion of specs/catalog/change-notes.yaml, grouped as 2.6 groups its facts. */
function changeNoteTests(...ids: string[]): void {
  for (const id of ids) {
    const note = changeNote(id);
    requirementTest(id, async (t) => expectChangeNote(t, note));
  }
}

describe('business document: change notes (2.6, 8, 9)', () => {
  describe('checkout order request (v2)', () => {
    changeNoteTests('BUS-CHG-001', 'BUS-CHG-002', 'BUS-CHG-003', 'BUS-CHG-004', 'BUS-CHG-005', 'BUS-CHG-006', 'BUS-CHG-007');
    changeNoteTests('BUS-CHG-008', 'BUS-CHG-009', 'BUS-CHG-010', 'BUS-CHG-011', 'BUS-CHG-012', 'BUS-CHG-013');
  });
  describe('checkout order response (v2)', () => {
    changeNoteTests('BUS-CHG-014', 'BUS-CHG-015', 'BUS-CHG-016', 'BUS-CHG-017', 'BUS-CHG-018', 'BUS-CHG-019');
  });
  describe('checkout fields that do not exist in v2', () => {
    changeNoteTests('BUS-CHG-020', 'BUS-CHG-021', 'BUS-CHG-022', 'BUS-CHG-023', 'BUS-CHG-024', 'BUS-CHG-025');
    changeNoteTests('BUS-CHG-026', 'BUS-CHG-027', 'BUS-CHG-028', 'BUS-CHG-029', 'BUS-CHG-030', 'BUS-CHG-031');
  });
  describe('statements and bank accounts', () => {
    changeNoteTests('BUS-CHG-032', 'BUS-CHG-033', 'BUS-CHG-034', 'BUS-CHG-035', 'BUS-CHG-036', 'BUS-CHG-037', 'BUS-CHG-038', 'BUS-CHG-039');
  });
  describe('nominal accounts and beneficiaries', () => {
    changeNoteTests('BUS-CHG-040', 'BUS-CHG-041', 'BUS-CHG-042', 'BUS-CHG-043', 'BUS-CHG-044', 'BUS-CHG-045');
  });
  describe('payments', () => {
    changeNoteTests('BUS-CHG-046', 'BUS-CHG-047', 'BUS-CHG-048', 'BUS-CHG-049');
  });
  describe('self-employed', () => {
    changeNoteTests('BUS-CHG-050', 'BUS-CHG-051', 'BUS-CHG-052', 'BUS-CHG-053', 'BUS-CHG-054', 'BUS-CHG-055', 'BUS-CHG-056');
  });
  describe('invoices, company, loyalty', () => {
    changeNoteTests('BUS-CHG-057', 'BUS-CHG-058', 'BUS-CHG-059', 'BUS-CHG-060', 'BUS-CHG-061', 'BUS-CHG-062', 'BUS-CHG-063');
  });
  describe('cards list (8, 2.6)', () => {
    changeNoteTests('BUS-CHG-064', 'BUS-CHG-065', 'BUS-CHG-066', 'BUS-CHG-067', 'BUS-CHG-068');
  });
  describe('deprecations (9)', () => {
    changeNoteTests('BUS-CHG-069', 'BUS-CHG-070', 'BUS-CHG-071', 'BUS-CHG-072');
  });
  describe('checkout order request and response, further fields', () => {
    changeNoteTests('BUS-CHG-073', 'BUS-CHG-074', 'BUS-CHG-075', 'BUS-CHG-076', 'BUS-CHG-077', 'BUS-CHG-078', 'BUS-CHG-079', 'BUS-CHG-080');
    changeNoteTests('BUS-CHG-081', 'BUS-CHG-082', 'BUS-CHG-083', 'BUS-CHG-084', 'BUS-CHG-085', 'BUS-CHG-086', 'BUS-CHG-087', 'BUS-CHG-088');
  });
  describe('statement operations, further fields', () => {
    changeNoteTests('BUS-CHG-089', 'BUS-CHG-090', 'BUS-CHG-091', 'BUS-CHG-092', 'BUS-CHG-093', 'BUS-CHG-094', 'BUS-CHG-095', 'BUS-CHG-096');
    changeNoteTests('BUS-CHG-097', 'BUS-CHG-098', 'BUS-CHG-099', 'BUS-CHG-100', 'BUS-CHG-101', 'BUS-CHG-102', 'BUS-CHG-103', 'BUS-CHG-104');
  });
  describe('bank accounts (v4), further fields', () => {
    changeNoteTests('BUS-CHG-105', 'BUS-CHG-106', 'BUS-CHG-107', 'BUS-CHG-108');
  });
  describe('nominal accounts, further fields', () => {
    changeNoteTests('BUS-CHG-109', 'BUS-CHG-110', 'BUS-CHG-111', 'BUS-CHG-112', 'BUS-CHG-113', 'BUS-CHG-114', 'BUS-CHG-115', 'BUS-CHG-116');
    changeNoteTests('BUS-CHG-117', 'BUS-CHG-118', 'BUS-CHG-119', 'BUS-CHG-144');
  });
  describe('payments, self-employed and salary, further fields', () => {
    changeNoteTests('BUS-CHG-120', 'BUS-CHG-121', 'BUS-CHG-122', 'BUS-CHG-123', 'BUS-CHG-124', 'BUS-CHG-125', 'BUS-CHG-126', 'BUS-CHG-127');
    changeNoteTests('BUS-CHG-128', 'BUS-CHG-129', 'BUS-CHG-150');
  });
  describe('invoices, individual data and loyalty, further fields', () => {
    changeNoteTests('BUS-CHG-130', 'BUS-CHG-131', 'BUS-CHG-132', 'BUS-CHG-133', 'BUS-CHG-134', 'BUS-CHG-135', 'BUS-CHG-136', 'BUS-CHG-137');
    changeNoteTests('BUS-CHG-138', 'BUS-CHG-139', 'BUS-CHG-145', 'BUS-CHG-146', 'BUS-CHG-147', 'BUS-CHG-148', 'BUS-CHG-149');
  });
  describe('cards list v3 and card responses (8, 2.6)', () => {
    changeNoteTests('BUS-CHG-140', 'BUS-CHG-141', 'BUS-CHG-142', 'BUS-CHG-143');
  });
});

describe('business document: errors, certificates and versions (5.5, 7, 9)', () => {
  requirementTest('BUS-DOC-004', async (t) => expectFacts(t, ({ index }) => heavyLoadErrorDocumented(index, t.id)));
  requirementTest('BUS-DOC-005', async (t) => expectFacts(t, ({ index }) => loyaltyHistoryErrorsDocumented(index, t.id)));
  requirementTest('BUS-DOC-006', async (t) => expectFacts(t, ({ index }) => additionsOptional(index, t.id)));
  requirementTest('BUS-DOC-007', async (t) => expectFacts(t, ({ index }) => certificatesInPem(index, t.id)));
  requirementTest('BUS-DOC-008', async (t) => expectFacts(t, ({ index }) => errorExamplesCarryDetails(index, t.id)));
});

describe('business document: client-certificate markings (5.5)', () => {
  for (const operation of CARDS_WITHOUT_CERTIFICATE) {
    requirementTest('BUS-MTL-001', { row: `${operation} is not marked as needing a client certificate` }, async (t) => {
      await expectFacts(t, ({ index }) => {
        const { method, path } = parseOperationName(operation);
        if (!index.find(method, path)) throw new NotLocated(`the document does not describe ${operation} (BUS-CAT-001 reports it)`);
        return notMarkedMtls(index, operation, t.id);
      });
    });
  }

  requirementTest('BUS-MTL-002', async (t) => {
    const configured = mtlsOperations(t.target);
    await expectFacts(t, ({ index }) => mtlsMarkingsMatch(index, configured, t.id));
  });
});
