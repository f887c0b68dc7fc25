/**
 * Dereferencing with @apidevtools/json-schema-ref-parser: internal references only (an external one
 * would be fetched by the library's own HTTP client, past the suite's safety gate and pacer), and
 * circular references kept as object cycles. Walk the result with a visited set.
 *
 * A `$ref` that points nowhere, or outside the document, is replaced by a marker object before the
 * library runs, so the rest of the document still dereferences and a check that reaches the marker
 * can say exactly what it could not follow (`unfollowedRef`).
 */
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { brokenRefs, resolvePointer } from './refs.ts';

const UNRESOLVED = 'x-conformance-unresolved-ref';
const EXTERNAL = 'x-conformance-external-ref';

/** When a dereferenced node stands for a `$ref` the suite did not follow, why. */
export function unfollowedRef(node: unknown): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const record = node as Record<string, unknown>;
  if (typeof record[UNRESOLVED] === 'string') return `its $ref "${record[UNRESOLVED]}" does not resolve inside the document`;
  if (typeof record[EXTERNAL] === 'string') return `it is an external $ref "${record[EXTERNAL]}", which this suite does not fetch`;
  return undefined;
}

export async function dereferenceDocument(document: Record<string, unknown>): Promise<Record<string, unknown>> {
  const copy = structuredClone(document);
  const { unresolved, external } = brokenRefs(copy);
  for (const [sites, marker] of [
    [unresolved, UNRESOLVED],
    [external, EXTERNAL],
  ] as const) {
    for (const site of sites) {
      const holder = resolvePointer(copy, `#${site.at}`) as Record<string, unknown>;
      delete holder.$ref;
      holder[marker] = site.ref;
    }
  }
  try {
    return (await $RefParser.dereference(copy, {
      resolve: { external: false },
      dereference: { circular: true },
      continueOnError: true,
    })) as Record<string, unknown>;
  } catch (error) {
    // continueOnError gathers what is left (a reference the scan above missed) and keeps the partial result.
    const partial = (error as { files?: { schema?: unknown } }).files?.schema;
    if (partial && typeof partial === 'object') return partial as Record<string, unknown>;
    throw error;
  }
}
