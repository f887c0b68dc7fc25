/**
 * Validation of a document against the official OpenAPI schemas (@seriousme/openapi-schema-validator,
 * which carries the 2.0 / 3.0 / 3.1 / 3.2 JSON Schemas), plus the internal `$ref`s that point nowhere,
 * which the schemas cannot see. The validator's raw errors are mostly noise from `oneOf` alternatives
 * ("must have required property '$ref'" for every object that is not a Reference): per location only
 * the most specific errors are kept, so a finding reads like "responses/200: must have required
 * property 'description'".
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { pointerSteps } from '../../text/json.ts';
import { templateKey } from './paths.ts';
import { brokenRefs, escapePointer, resolvePointer } from './refs.ts';

export interface Finding {
  /** A JSON pointer into the document. */
  at: string;
  message: string;
}

export interface ValidationResult {
  /** "3.0", "3.1", ... as the validator read it; undefined when it found no supported version. */
  version?: string;
  findings: Finding[];
}

interface AjvError {
  instancePath?: string;
  schemaPath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

const EXPLAINERS = new Set(['oneOf', 'anyOf', 'if', 'not']);

function describe(e: AjvError): string {
  const extra =
    e.keyword === 'additionalProperties'
      ? ` (${String(e.params?.additionalProperty)})`
      : e.keyword === 'enum'
        ? ` (${JSON.stringify(e.params?.allowedValues)})`
        : '';
  return `${e.message ?? e.keyword}${extra}`;
}

/** Keeps, per location, the errors that say what is wrong rather than which alternative failed. */
export function condense(errors: AjvError[]): Finding[] {
  const byPath = new Map<string, AjvError[]>();
  for (const e of errors) {
    const at = e.instancePath ?? '';
    byPath.set(at, [...(byPath.get(at) ?? []), e]);
  }
  const paths = [...byPath.keys()];
  const findings: Finding[] = [];
  for (const [at, list] of byPath) {
    // An alternative's complaint about a deeper location explains this one: keep the deeper one only.
    const explainedDeeper = paths.some((p) => p !== at && p.startsWith(`${at}/`));
    const specific = list.filter(
      (e) =>
        !EXPLAINERS.has(e.keyword ?? '') &&
        !/\/Reference\//.test(e.schemaPath ?? '') &&
        !(e.keyword === 'required' && e.params?.missingProperty === '$ref'),
    );
    if (specific.length) {
      for (const message of new Set(specific.map(describe))) findings.push({ at, message });
    } else if (!explainedDeeper) {
      findings.push({ at, message: describe(list[0]) });
    }
  }
  return findings.sort((a, b) => a.at.localeCompare(b.at));
}

export async function validateOpenApi(document: Record<string, unknown>): Promise<ValidationResult> {
  const validator = new Validator({ allErrors: true } as ConstructorParameters<typeof Validator>[0]);
  // The validator gives up on the whole document at the first dangling `$ref`: those are reported
  // below, and the validator gets a copy where each one is replaced by an empty object.
  const { unresolved } = brokenRefs(document);
  const copy = structuredClone(document);
  for (const site of unresolved) {
    const holder = resolvePointer(copy, `#${site.at}`) as Record<string, unknown>;
    delete holder.$ref;
  }
  const result = await validator.validate(copy);
  const findings: Finding[] = [];
  if (!result.valid) {
    const errors = result.errors;
    if (Array.isArray(errors)) findings.push(...condense(errors as AjvError[]));
    else findings.push({ at: '', message: String(errors) });
  }
  for (const site of unresolved) findings.push({ at: site.at, message: `$ref "${site.ref}" does not resolve inside the document` });
  findings.push(...sameTemplates(document));
  const version = result.valid || Array.isArray(result.errors) ? validator.version : undefined;
  if (version !== undefined && !version.startsWith('3.'))
    findings.unshift({ at: '', message: `an OpenAPI 3.x document was expected, this is version ${version}` });
  return { version, findings };
}

/** Paths that differ only in parameter names, which OpenAPI forbids (and the catalog could not tell apart). */
function sameTemplates(document: Record<string, unknown>): Finding[] {
  const paths = document.paths && typeof document.paths === 'object' ? Object.keys(document.paths) : [];
  const byTemplate = new Map<string, string[]>();
  for (const path of paths) byTemplate.set(templateKey(path), [...(byTemplate.get(templateKey(path)) ?? []), path]);
  return [...byTemplate.values()]
    .filter((group) => group.length > 1)
    .map((group) => ({
      at: `/paths/${escapePointer(group[1])}`,
      message: `the paths ${group.join(' and ')} differ only in parameter names, which OpenAPI forbids`,
    }));
}

/** "/paths/~1api~1v1~1card/get/responses/200" -> "paths./api/v1/card.get.responses.200" */
export function readablePointer(pointer: string): string {
  if (pointer === '') return '(document root)';
  return pointerSteps(pointer).join(' › ');
}
