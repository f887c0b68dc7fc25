/**
 * Drift between the served document and the catalog: operations the document has that the catalog
 * does not know, catalog operations (current or deprecated) the document lacks, removed ones it
 * still serves, and current ones it marks deprecated. Written to <report dir>/drift.json and
 * summarised on the console; the catalog tests (BUS-CAT-001..003, BUS-DRF-001) are where each kind
 * fails.
 */
import { join } from 'node:path';
import { printableJson } from '../../text/printable.ts';
import { reportFolderOf, writeWhole } from '../../report/publish.ts';
import { makeDirs } from '../../report/report-dir.ts';
import type { CatalogOperation } from './catalog.ts';
import { operationKey, type OperationIndex } from './paths.ts';

export interface Drift {
  format: 'partner-conformance/business-drift@1';
  generatedAt: string;
  documentUrl: string;
  documentOperations: number;
  catalogOperations: number;
  /** In the document, unknown to the catalog (parameter names as the document writes them). */
  notInCatalog: string[];
  /** Current or deprecated in the catalog, absent from the document (rows the document need not describe aside). */
  missingFromDocument: Array<{ operation: string; status: string }>;
  /** Removed in the catalog, still in the document. */
  removedButServed: string[];
  /** Current in the catalog, marked deprecated by the document. */
  deprecatedButCurrent: string[];
}

/** "METHOD /path" (as the catalog writes it) of every current catalog operation the document marks deprecated. */
export function deprecatedButCurrent(index: OperationIndex, catalog: CatalogOperation[]): string[] {
  return catalog
    .filter((row) => row.status === 'current' && index.find(row.method, row.path)?.operation.deprecated === true)
    .map((row) => `${row.method} ${row.path}`);
}

export function computeDrift(index: OperationIndex, catalog: CatalogOperation[], documentUrl: string): Drift {
  const known = new Set(catalog.map((row) => operationKey(row.method, row.path)));
  return {
    format: 'partner-conformance/business-drift@1',
    generatedAt: new Date().toISOString(),
    documentUrl,
    documentOperations: index.all.length,
    catalogOperations: catalog.length,
    notInCatalog: index.all.filter((op) => !known.has(op.key)).map((op) => `${op.method} ${op.path}`),
    missingFromDocument: catalog
      .filter((row) => row.status !== 'removed' && !row.optional && !index.find(row.method, row.path))
      .map((row) => ({ operation: `${row.method} ${row.path}`, status: row.status })),
    removedButServed: catalog
      .filter((row) => row.status === 'removed' && index.find(row.method, row.path))
      .map((row) => `${row.method} ${row.path}`),
    deprecatedButCurrent: deprecatedButCurrent(index, catalog),
  };
}

/** Writes drift.json into the run's report folder; returns where it will be once the run's reports are in place. */
export function writeDrift(reportDir: string, drift: Drift): string {
  makeDirs(reportDir);
  writeWhole(join(reportDir, 'drift.json'), `${printableJson(drift, 2)}\n`);
  return join(reportFolderOf(reportDir), 'drift.json');
}

export function summariseDrift(drift: Drift, file: string): string {
  const lines = [
    `business document drift (${drift.documentUrl}): ${drift.documentOperations} operations in the document, ${drift.catalogOperations} in the catalog; ` +
      `${drift.notInCatalog.length} unknown to the catalog, ${drift.missingFromDocument.length} missing from the document, ${drift.removedButServed.length} removed but served, ` +
      `${drift.deprecatedButCurrent.length} deprecated but current -> ${file}`,
  ];
  const list = (title: string, items: string[]) => {
    if (!items.length) return;
    lines.push(`  ${title}: ${items.slice(0, 8).join(', ')}${items.length > 8 ? `, … (${items.length - 8} more)` : ''}`);
  };
  list('unknown to the catalog', drift.notInCatalog);
  list(
    'missing from the document',
    drift.missingFromDocument.map((m) => `${m.operation} (${m.status})`),
  );
  list('removed but served', drift.removedButServed);
  list('deprecated but current in the catalog', drift.deprecatedButCurrent);
  return lines.join('\n');
}
