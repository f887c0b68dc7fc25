/**
 * GET {business_url}/openapi/docs/openapi.yaml (spec 4.5, 9): the sandbox's own hand-written OpenAPI
 * 3.0 document, served as YAML without credentials. With a document fault on, the served copy is
 * edited (see document-faults.ts); the clean text is served byte for byte.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { CORE_SCHEMA, dump } from 'js-yaml';
import { parse } from 'yaml';
import type { FaultSet } from '../../faults/types.ts';
import { DOCUMENT_FAULTS } from './document-faults.ts';
import { requestIdOf, sendBusinessError } from './errors.ts';

export const DOCUMENT_PATH = '/openapi/docs/openapi.yaml';
const FILE = fileURLToPath(new URL('./openapi.yaml', import.meta.url));

let text: string | undefined;
let parsed: Record<string, unknown> | undefined;

export function documentText(): string {
  return (text ??= readFileSync(FILE, 'utf8'));
}

/**
 * The clean document, parsed once; callers must not modify it. Parsing its YAML takes about a second, so
 * its JSON twin (the same value: a selftest checks that JSON carries it exactly) is kept in the temporary
 * folder under the hash of the text, for every later sandbox.
 */
export function cleanDocument(): Record<string, unknown> {
  if (parsed) return parsed;
  const text = documentText();
  const twin = join(tmpdir(), `pc-sandbox-document-${createHash('sha256').update(text).digest('hex').slice(0, 32)}.json`);
  try {
    parsed = JSON.parse(readFileSync(twin, 'utf8')) as Record<string, unknown>;
  } catch {
    parsed = parse(text) as Record<string, unknown>;
    try {
      writeFileSync(`${twin}.${process.pid}`, JSON.stringify(parsed));
      renameSync(`${twin}.${process.pid}`, twin);
    } catch {
      // A read-only temporary folder: the next sandbox parses the YAML again.
    }
  }
  return parsed;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** "METHOD /path" of every operation the clean document marks with x-mtls-required: true. */
export function mtlsOperations(): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries(
    (cleanDocument().paths ?? {}) as Record<string, Record<string, { 'x-mtls-required'?: boolean }>>,
  )) {
    for (const method of METHODS) if (item[method]?.['x-mtls-required'] === true) out.push(`${method.toUpperCase()} ${path}`);
  }
  return out;
}

/** A change of the served document: its parsed form, its text, or a status instead of it. */
export interface DocumentChange {
  edit?: (doc: Record<string, unknown>) => void;
  text?: (yaml: string) => string;
  /** The route answers this status with the business error body instead of the document. */
  status?: number;
}

/** A change of the target file's business section, for a fault whose defect is in what the file and the document say together. */
export type TargetChange = (section: Record<string, unknown>) => Record<string, unknown>;

/** A fault or latitude that changes the served document, by id. */
export type DocumentVariation = DocumentChange & { id: string };

/** The document as this sandbox serves it with its faults and latitudes: the text, or a status to answer instead. */
export function servedDocument(
  faults: FaultSet,
  variations: readonly DocumentVariation[] = DOCUMENT_FAULTS,
): { status: number } | { text: string } {
  const on = variations.filter((f) => faults.has(f.id));
  const refusal = on.find((f) => f.status !== undefined);
  if (refusal) return { status: refusal.status! };
  const edits = on.filter((f) => f.edit);
  let served = documentText();
  if (edits.length) {
    const copy = structuredClone(cleanDocument());
    for (const fault of edits) fault.edit!(copy);
    // js-yaml writes the edited copy in a third of the time `yaml` takes (about 40 ms against 140 ms for
    // each variant), in the core schema: a string that would read as another type is quoted, so both the
    // harness's readers give back the edited value (selftest/business/sandbox-document.test.ts).
    served = dump(copy, { schema: CORE_SCHEMA, lineWidth: -1, noRefs: true });
  }
  for (const fault of on) if (fault.text) served = fault.text(served);
  return { text: served };
}

export function registerDocument(app: FastifyInstance, faults: FaultSet, variations: readonly DocumentVariation[] = DOCUMENT_FAULTS): void {
  const served = servedDocument(faults, variations);
  app.get(DOCUMENT_PATH, async (request, reply) => {
    if ('status' in served) return sendBusinessError(request, reply, served.status, 'NOT_FOUND', 'the specification file is not available');
    return reply.code(200).header('x-request-id', requestIdOf(request)).type('application/yaml; charset=utf-8').send(served.text);
  });
}
