/**
 * Where an assertion starts in a dereferenced document: the operation (by the path-matching rule of
 * paths.ts), then its request body, success response body or a parameter. Each miss is reported in
 * words a reader can act on ("could not find the request body of POST /api/v2/checkout/order").
 */
import { unfollowedRef } from './dereference.ts';
import type { OperationIndex, DocumentOperation } from './paths.ts';
import { parseOperationName } from './paths.ts';
import type { Location } from './catalog.ts';
import { isJsonObject } from '../../text/json.ts';
import { isJsonMedia, mediaEssence } from '../../request/media-type.ts';

export type Schema = Record<string, unknown>;

export type Root =
  | { kind: 'operation'; describe: string; operation: DocumentOperation }
  | { kind: 'body'; describe: string; schema: Schema; required: boolean }
  | { kind: 'parameter'; describe: string; parameter: Record<string, unknown>; schema?: Schema }
  | { kind: 'absent-parameter'; describe: string; operation: string };

export class NotLocated extends Error {}

/** Throws NotLocated when the node is a `$ref` the suite could not follow. */
export function followed(node: unknown, what: string): void {
  const why = unfollowedRef(node);
  if (why) throw new NotLocated(`could not follow ${what}: ${why}`);
}

/** The JSON media type of a content map: application/json, else the first +json one. */
export function jsonMedia(content: unknown): [string, Record<string, unknown>] | undefined {
  if (!isJsonObject(content)) return undefined;
  const entries = Object.entries(content).filter(([, v]) => isJsonObject(v)) as Array<[string, Record<string, unknown>]>;
  return entries.find(([k]) => mediaEssence(k) === 'application/json') ?? entries.find(([k]) => isJsonMedia(k));
}

function bodySchema(content: unknown, what: string): Schema {
  const media = jsonMedia(content);
  if (!media) {
    const has = isJsonObject(content) ? Object.keys(content).join(', ') : '';
    throw new NotLocated(`${what} has no JSON media type${has ? ` (it has ${has})` : ' (no content)'}`);
  }
  followed(media[1].schema, `the schema of ${what}`);
  if (!isJsonObject(media[1].schema)) throw new NotLocated(`${what} (${media[0]}) has no schema`);
  return media[1].schema;
}

/** Success statuses in order: explicit codes 200..299 ascending, then the 2XX range. */
function successStatuses(responses: Record<string, unknown>): string[] {
  const explicit = Object.keys(responses)
    .filter((k) => /^2\d\d$/.test(k))
    .sort();
  return [...explicit, ...Object.keys(responses).filter((k) => k.toUpperCase() === '2XX')];
}

export function locateRoot(index: OperationIndex, operationName: string, where: Location, status?: string): Root {
  const { method, path } = parseOperationName(operationName);
  const found = index.find(method, path);
  if (!found) {
    const near = index.nearMisses(method, path);
    throw new NotLocated(
      `could not find the operation ${method} ${path} in the document${near.length ? ` (it has ${near.join('; ')})` : ''}`,
    );
  }
  const name = `${found.method} ${found.path}`;
  if (where === 'operation') return { kind: 'operation', describe: name, operation: found };
  if (where === 'requestBody') {
    const body = found.operation.requestBody;
    followed(body, `the request body of ${name}`);
    if (!isJsonObject(body)) throw new NotLocated(`could not find the request body of ${name}`);
    return {
      kind: 'body',
      describe: `the request body of ${name}`,
      schema: bodySchema(body.content, `the request body of ${name}`),
      required: body.required === true,
    };
  }
  if (where === 'response') {
    const responses = found.operation.responses;
    if (!isJsonObject(responses)) throw new NotLocated(`could not find the responses of ${name}`);
    const candidates = status ? [status] : successStatuses(responses);
    if (!candidates.length) throw new NotLocated(`could not find a success (2xx) response of ${name}`);
    for (const code of candidates) {
      const response = responses[code];
      followed(response, `the ${code} response of ${name}`);
      if (isJsonObject(response) && jsonMedia(response.content)) {
        return {
          kind: 'body',
          describe: `the ${code} response body of ${name}`,
          schema: bodySchema(response.content, `the ${code} response of ${name}`),
          required: true,
        };
      }
    }
    throw new NotLocated(`could not find a JSON body in the ${candidates.join(', ')} response(s) of ${name}`);
  }
  const [, location, paramName] = /^(query|path|header):(.+)$/.exec(where)!;
  const { parameter, unfollowed } = findParameter(found, location, paramName);
  const describe = `the ${location} parameter ${paramName.startsWith('~') ? `named like /${paramName.slice(1)}/i` : paramName} of ${name}`;
  if (unfollowed.length && !parameter)
    throw new NotLocated(`could not find ${describe}: some parameters could not be followed (${unfollowed.join('; ')})`);
  // The operation is the located parent of its parameters: a missing one is absent, not unlocated.
  if (!parameter) return { kind: 'absent-parameter', describe, operation: name };
  const schema = isJsonObject(parameter.schema)
    ? parameter.schema
    : isJsonObject(parameter.content)
      ? (jsonMedia(parameter.content)?.[1].schema as Schema | undefined)
      : undefined;
  if (schema) followed(schema, `the schema of ${describe}`);
  return { kind: 'parameter', describe, parameter, schema };
}

/** Operation-level parameters override path-item ones of the same name and location; "~re" matches names like /re/i. */
function findParameter(
  op: DocumentOperation,
  location: string,
  name: string,
): { parameter?: Record<string, unknown>; unfollowed: string[] } {
  const like = name.startsWith('~') ? new RegExp(name.slice(1), 'i') : undefined;
  const named = (p: Record<string, unknown>) =>
    like ? like.test(String(p.name)) : location === 'header' ? String(p.name).toLowerCase() === name.toLowerCase() : p.name === name;
  const same = (p: Record<string, unknown>) => p.in === location && named(p);
  const list = (v: unknown) => (Array.isArray(v) ? v.filter(isJsonObject) : []);
  const unfollowed: string[] = [];
  for (const p of [...list(op.operation.parameters), ...list(op.pathItem.parameters)]) {
    const why = unfollowedRef(p);
    if (why) unfollowed.push(why);
    else if (same(p)) return { parameter: p, unfollowed };
  }
  return { unfollowed };
}
