/** How the business suites get the served OpenAPI document: fetched once per worker, shared by every test. */
import { failure } from '../../harness/checks/failure.ts';
import { loadServedDocument, type ReadableDocument, type ServedDocument } from '../../harness/openapi/load.ts';
import type { RequirementContext } from '../../harness/suite.ts';

export function servedDocument(t: RequirementContext): Promise<ServedDocument> {
  return loadServedDocument(t.client, t.target);
}

/** The readable document, or a failure of this test saying the document could not be read and why. */
export async function readableDocument(t: RequirementContext): Promise<ReadableDocument> {
  const served = await servedDocument(t);
  if (served.readable) return served.readable;
  t.expectNone([failure(t.id, `a readable OpenAPI document at ${served.url}`, `the document could not be read, so this cannot be checked (see BUS-DOC-001): ${served.unreadable}`)]);
  throw new Error('unreachable: expectNone throws on a failure');
}
