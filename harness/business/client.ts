/** How the business suites get the served OpenAPI document: fetched once per worker, shared by every test. */
import { changeNoteFailures, documentUnreadable } from './checks/document.ts';
import type { Failure } from '../checks/failure.ts';
import { inconclusive } from '../errors.ts';
import type { ChangeNote } from './openapi/catalog.ts';
import { evaluateChangeNote } from './openapi/change-notes.ts';
import { loadServedDocument, type ReadableDocument, type ServedDocument } from './openapi/load.ts';
import { NotLocated } from './openapi/locate.ts';
import type { RequirementContext } from '../test/suite.ts';

export function servedDocument(t: RequirementContext): Promise<ServedDocument> {
  return loadServedDocument(t.client, t.target);
}

/**
 * The readable document, or a failure of BUS-DOC-001 saying the document could not be read and why: a
 * test that depends on it (specs/requirements.yaml `dependsOn`) ends inconclusive naming it, so one
 * unreadable document is one defect, not one per check.
 */
export async function readableDocument(t: RequirementContext): Promise<ReadableDocument> {
  const served = await servedDocument(t);
  if (served.readable) return served.readable;
  t.expectNone([documentUnreadable(served, `a readable OpenAPI document at ${served.url}, which ${t.id} checks`)]);
  throw new Error('unreachable: expectNone throws on a failure');
}

/** Runs a document check; what the document does not describe ends the test inconclusive, never passed. */
export async function expectFacts(t: RequirementContext, check: (doc: ReadableDocument) => Failure[]): Promise<void> {
  const doc = await readableDocument(t);
  let failures: Failure[];
  try {
    failures = check(doc);
  } catch (error) {
    if (error instanceof NotLocated) throw inconclusive('NOT_LOCATED', error.message);
    throw error;
  }
  t.expectNone(failures);
}

/** One change note: holds passes, broken fails, not located is inconclusive, not declared (where the note is conditional) too. */
export async function expectChangeNote(t: RequirementContext, note: ChangeNote): Promise<void> {
  const outcome = evaluateChangeNote((await readableDocument(t)).index, note);
  const where = `${note.operation}, ${note.in}${note.path.length ? ` › ${note.path.join(' › ')}` : ''}`;
  if (outcome.kind === 'not-located')
    throw inconclusive('NOT_LOCATED', `${note.text}: not located in the document (${where}): ${outcome.reason}`);
  if (outcome.kind === 'not-declared') throw inconclusive('NOT_SUPPORTED', `${note.text}: ${outcome.reason}`);
  t.expectNone(changeNoteFailures(outcome, t.id));
}
