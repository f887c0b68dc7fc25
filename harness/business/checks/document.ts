/**
 * Checks of the business document (spec 4.5, 5.5, 9): served and readable, valid OpenAPI, the catalog's
 * operations present / deprecated / absent, a change note holding, and the client-certificate markings.
 * Pure functions of what was read; each returns failures naming the requirement.
 */
import type { CatalogOperation } from '../openapi/catalog.ts';
import type { Outcome } from '../openapi/change-notes.ts';
import { deprecatedButCurrent } from '../openapi/drift.ts';
import type { ServedDocument } from '../openapi/load.ts';
import { NotLocated } from '../openapi/locate.ts';
import { parseOperationName, type OperationIndex, type OperationName } from '../openapi/paths.ts';
import { describeProblem } from '../openapi/parse.ts';
import { readablePointer, type ValidationResult } from '../openapi/validate.ts';
import { failure, type Failure } from '../../checks/failure.ts';

const name = (op: OperationName) => `${op.method} ${op.path}`;

/**
 * BUS-DOC-001's failure for a document that cannot be read, in the same words wherever a check meets it:
 * its own test, and every check that reads the document and depends on it, show one defect.
 */
export function documentUnreadable(served: ServedDocument, expected: string): Failure {
  return {
    ...failure('BUS-DOC-001', expected, served.unreadable ?? 'the document could not be read'),
    defect: `the specification file ${served.url} could not be read as a YAML document`,
  };
}

/** Served with a 2xx and parsed as a YAML mapping; recoverable YAML errors (duplicate keys) still fail. */
export function documentServed(served: ServedDocument, requirement: string, serverError?: string): Failure[] {
  const expected = `GET ${served.url} answers 2xx with a YAML document`;
  if (served.unreadable) return [{ ...documentUnreadable(served, expected), requirement }];
  // A document served on a second try is still a document that was not served once: a retried 5xx counts.
  if (serverError)
    return [failure(requirement, `${expected}, every time it is fetched`, `${serverError} in this run (another fetch was served)`)];
  return served.yamlProblems.map((p) => failure(requirement, 'valid YAML', describeProblem(p, served.response.rawBody)));
}

/** Every finding of the OpenAPI validation; above ten, a first failure counts them by kind. */
export function openApiValid(result: ValidationResult, requirement: string): Failure[] {
  const expected = 'a valid OpenAPI 3.x document (official schema)';
  const out = result.findings.map((f) => failure(requirement, expected, f.message, readablePointer(f.at)));
  if (out.length > 10) {
    const counts = new Map<string, number>();
    for (const f of result.findings) counts.set(f.message, (counts.get(f.message) ?? 0) + 1);
    const summary = [...counts]
      .sort((a, b) => b[1] - a[1])
      .map(([m, n]) => `${n} × ${m}`)
      .join('; ');
    out.unshift(failure(requirement, expected, `${result.findings.length} findings: ${summary}`));
  }
  return out;
}

const SUCCESS = /^2(\d\d|XX)$/i;

/** Every operation documents at least one 2xx response (`default` alone does not say what success is). */
export function successDocumented(index: OperationIndex, requirement: string): Failure[] {
  return index.all
    .filter((op) => {
      const responses = op.operation.responses;
      return !(responses && typeof responses === 'object' && Object.keys(responses).some((k) => SUCCESS.test(k)));
    })
    .map((op) => {
      const codes = op.operation.responses && typeof op.operation.responses === 'object' ? Object.keys(op.operation.responses) : [];
      return failure(
        requirement,
        `${name(op)} documents a 2xx response`,
        codes.length ? `responses ${codes.join(', ')}` : 'no responses',
        `paths › ${op.path} › ${op.method.toLowerCase()}`,
      );
    });
}

function missing(index: OperationIndex, row: OperationName, requirement: string, expected: string): Failure[] {
  const near = index.nearMisses(row.method, row.path);
  return [failure(requirement, expected, `not in the document${near.length ? `; it has ${near.join('; ')}` : ''}`)];
}

export function operationPresent(index: OperationIndex, row: CatalogOperation, requirement: string): Failure[] {
  return index.find(row.method, row.path) ? [] : missing(index, row, requirement, `${name(row)} in the document's paths`);
}

export function operationDeprecated(index: OperationIndex, row: CatalogOperation, requirement: string): Failure[] {
  const found = index.find(row.method, row.path);
  if (!found) return missing(index, row, requirement, `${name(row)} in the document's paths, marked deprecated`);
  if (found.operation.deprecated === true) return [];
  return [
    failure(
      requirement,
      `${name(row)} marked deprecated: true${row.replacedBy ? ` (replaced by ${row.replacedBy})` : ''}`,
      `deprecated: ${JSON.stringify(found.operation.deprecated ?? null)}`,
    ),
  ];
}

export function operationAbsent(index: OperationIndex, row: CatalogOperation, requirement: string): Failure[] {
  const found = index.find(row.method, row.path);
  return found ? [failure(requirement, `${name(row)} absent (removed)`, `served as ${found.method} ${found.path}`)] : [];
}

/** The failures of a located change note (none when it holds). Only located outcomes are taken: an unlocated one is inconclusive, never a pass. */
export function changeNoteFailures(outcome: Extract<Outcome, { kind: 'holds' | 'broken' }>, requirement: string): Failure[] {
  if (outcome.kind !== 'broken') return [];
  return outcome.problems.map((p) => failure(requirement, p.expected, `BROKEN: ${p.received}`, outcome.located));
}

/** Operations the catalog has as current that the document marks deprecated (found ones only; absence is BUS-CAT-001's). */
export function currentNotDeprecated(index: OperationIndex, catalog: CatalogOperation[], requirement: string): Failure[] {
  return deprecatedButCurrent(index, catalog).map((op) =>
    failure(
      requirement,
      `${op} not deprecated: spec 4.5 lists it as current and part 9 does not deprecate it`,
      'marked deprecated: true in the served document',
    ),
  );
}

const LOCK = '\u{1F512}';

/** Whether a document marks the operation as needing a client certificate: the `x-mtls-required`
 * extension (this project's sandbox) or the vendor's padlock in the summary or description. */
export function mtlsMarked(operation: Record<string, unknown>): boolean {
  if (operation['x-mtls-required'] === true) return true;
  return [operation.summary, operation.description].some((text) => typeof text === 'string' && text.includes(LOCK));
}

export function notMarkedMtls(index: OperationIndex, operation: string, requirement: string): Failure[] {
  const op = parseOperationName(operation);
  const found = index.find(op.method, op.path);
  if (!found) return missing(index, op, requirement, `${operation} in the document, without a client-certificate marking`);
  if (!mtlsMarked(found.operation)) return [];
  return [
    failure(requirement, `${operation} needs no client certificate (spec 5.5)`, `the document marks it (x-mtls-required: true or ${LOCK})`),
  ];
}

/**
 * The document's markings and the configured list agree, and name some operation (5.5: "Some methods need
 * a client certificate"): a document that marks none and a list that names none say no method does.
 * Operations absent from the document are BUS-CAT's business; where every listed one is absent and none
 * is marked, nothing is compared (NotLocated).
 */
export function mtlsMarkingsMatch(index: OperationIndex, configured: OperationName[], requirement: string): Failure[] {
  const marked = index.all.filter((op) => mtlsMarked(op.operation));
  if (!configured.length && !marked.length)
    return [
      failure(
        requirement,
        'some operation that needs a client certificate (5.5: "Some methods need a client certificate"), marked in the document and listed in services.business.mtlsOperations',
        'the document marks none and services.business.mtlsOperations lists none',
      ),
    ];
  if (!marked.length && !configured.some((op) => index.find(op.method, op.path)))
    throw new NotLocated('the document describes none of the operations services.business.mtlsOperations lists, and marks none');
  const out: Failure[] = [];
  const listed = new Set<string>();
  for (const op of configured) {
    const found = index.find(op.method, op.path);
    if (!found) continue;
    listed.add(found.key);
    if (!mtlsMarked(found.operation))
      out.push(
        failure(
          requirement,
          `${name(op)} marked as needing a client certificate (it is in services.business.mtlsOperations)`,
          'no x-mtls-required: true and no padlock',
        ),
      );
  }
  for (const op of marked) {
    if (!listed.has(op.key))
      out.push(
        failure(
          requirement,
          `${name(op)} not marked, as services.business.mtlsOperations does not list it`,
          'marked as needing a client certificate',
        ),
      );
  }
  return out;
}
