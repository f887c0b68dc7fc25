import type { ErrorObject } from 'ajv';
import type { CapturedResponse } from '../request/http.ts';
import { pointerSteps } from '../text/json.ts';
import { schemaRegistry } from '../spec/schemas.ts';
import { failure, type Failure } from './failure.ts';
import { mediaMatches } from '../request/media-type.ts';

/** The body parsed as JSON. */
export function jsonBody(res: CapturedResponse, requirement: string): Failure[] {
  if (res.rawBody === '') return [failure(requirement, 'a JSON body', 'an empty body')];
  if (res.jsonError) return [failure(requirement, 'a JSON body', `a body that is not JSON (${res.jsonError})`)];
  return [];
}

/** The JSON body conforms to the schema with `$id` (ajv, allErrors); one failure per ajv error. */
export function conformsTo(res: CapturedResponse, schemaId: string, requirement: string): Failure[] {
  const notJson = jsonBody(res, requirement);
  if (notJson.length) return notJson;
  return valueConformsTo(res.json, schemaId, requirement);
}

export function valueConformsTo(value: unknown, schemaId: string, requirement: string): Failure[] {
  const validate = schemaRegistry().validator(schemaId);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) =>
    failure(requirement, schemaExpectation(e), receivedAt(value, e.instancePath), e.instancePath || '/'),
  );
}

function schemaExpectation(e: ErrorObject): string {
  const where = e.schemaPath.replace(/^.*\/schemas\//, '');
  return `${e.message ?? e.keyword}${e.keyword === 'enum' ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})` : ''} [${where}]`;
}

function receivedAt(value: unknown, pointer: string): string {
  let node: unknown = value;
  for (const part of pointerSteps(pointer)) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  const text = JSON.stringify(node);
  return text === undefined ? 'nothing' : text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** The Content-Type is one of `allowed`, compared as media types (parameters such as charset apart). */
export function contentTypeIn(res: CapturedResponse, allowed: readonly string[], requirement: string): Failure[] {
  const raw = res.headers['content-type'];
  if (allowed.some((media) => mediaMatches(media, raw))) return [];
  return [failure(requirement, `Content-Type ${allowed.join(' or ')}`, raw ? `Content-Type ${raw}` : 'no Content-Type')];
}

/**
 * A policy over the fields a table of the spec lists without marking them required: the value carries
 * every field the schema with `$id` requires (specs/schemas/<area>/*-listed.json). One failure names
 * every absent field by its JSON pointer; what the fields hold is the type schema's, judged elsewhere.
 */
export function fieldsPresent(value: unknown, schemaId: string, expected: string, requirement: string): Failure[] {
  const validate = schemaRegistry().validator(schemaId);
  if (validate(value)) return [];
  const absent = (validate.errors ?? [])
    .filter((e) => e.keyword === 'required')
    .map((e) => `${e.instancePath}/${(e.params as { missingProperty: string }).missingProperty}`);
  if (!absent.length) return [];
  const shown = absent.length > 12 ? `${absent.slice(0, 12).join(', ')}, … (${absent.length} in all)` : absent.join(', ');
  return [failure(requirement, expected, `no ${shown}`)];
}
