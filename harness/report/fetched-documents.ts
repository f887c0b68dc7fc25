/**
 * Documents the run fetched from the target and judged (the business openapi.yaml), kept so that a report
 * can name exactly what was tested: the test process that fetched one writes its bytes to
 * `<reportDir>/fetched/<sha256 prefix>-<name>` with a sidecar `.json` (url, SHA-256, size, content type),
 * and the reporter lists the sidecars. The name comes from the content, so the workers that each fetch the
 * same document write the same file, and a target that served two versions during one run shows both.
 *
 * Recorded only in a run started by the CLI (`partner-conformance run` / `certify`, which always set
 * CONFORMANCE_REPORT_DIR: a fresh folder of the run's own), so unit tests that load a document write
 * nothing. Bytes that contain a credential of the target file (a registered secret, in any encoding)
 * are not kept (the hash still is); what only looks like a credential (a sample `token=` value or JWT of
 * the document's examples) is the document's own text, kept as served, and the sidecar says so.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redactor } from '../secrets/redact.ts';
import { writeWhole } from './publish.ts';
import type { FetchedDocument } from './records.ts';
import { makeDirs } from './report-dir.ts';
import { variableOf } from '../runner/settings.ts';

export const FETCHED_DIR = 'fetched';
const SIDECAR = '.json';

function nameOf(url: string): string {
  const last = new URL(url).pathname.split('/').filter(Boolean).pop() ?? 'document';
  return last.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80) || 'document';
}

/** Records a fetched document in the run's report folder; a no-op outside a CLI run. Never throws. */
export function recordFetchedDocument(
  url: string,
  body: string,
  contentType: string | undefined,
  redactor: Redactor,
  reportDir = variableOf('CONFORMANCE_REPORT_DIR'),
): void {
  if (!reportDir) return;
  try {
    const bytes = Buffer.from(body, 'utf8');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const dir = join(reportDir, FETCHED_DIR);
    makeDirs(dir);
    const file = `${sha256.slice(0, 12)}-${nameOf(url)}`;
    const shownUrl = redactor.redact(url);
    // Another worker of the run recorded the same bytes from the same URL: looking through a whole
    // document for secrets again (most of a second per worker) would write the same two files.
    if (recordedAs(join(dir, file + SIDECAR))?.url === shownUrl) return;
    const keep = !redactor.holdsSecret(body);
    if (keep) writeWhole(join(dir, file), bytes);
    const entry: FetchedDocument = { url: shownUrl, sha256, bytes: bytes.length, contentType, file: keep ? `${FETCHED_DIR}/${file}` : '' };
    if (!keep)
      entry.withheld =
        'the bytes contain a credential of the target file (a value the target file gives as a secret); only their hash is kept';
    else if (redactor.redact(body) !== body)
      entry.note =
        'kept as served: values shaped like credentials in it (a token= parameter, a JWT, a field named like a secret) are samples of the document, none of them a credential of the target file';
    writeWhole(join(dir, file + SIDECAR), JSON.stringify(entry, null, 2));
  } catch {
    // A report extra must never fail a test; the reporter simply lists no document.
  }
}

/** The sidecar already written for a document, if any. */
function recordedAs(sidecar: string): FetchedDocument | undefined {
  try {
    return JSON.parse(readFileSync(sidecar, 'utf8')) as FetchedDocument;
  } catch {
    return undefined;
  }
}

/** The documents recorded in a report folder, in a stable order. */
export function fetchedDocuments(reportDir: string): FetchedDocument[] {
  const dir = join(reportDir, FETCHED_DIR);
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith(SIDECAR))
      .sort();
  } catch {
    return [];
  }
  return names.map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as FetchedDocument);
}
