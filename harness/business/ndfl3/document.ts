/**
 * The 3-NDFL payloads are "not shown" in the spec; the target's own served document (spec 9) is the
 * only description of them. Answers are checked against it, and the bodies the suite sends are first
 * checked against it, so that a partner whose document describes other payloads gets a skip with the
 * reason instead of a false alarm.
 */
import { documentUnreadable } from '../checks/document.ts';
import { businessRefusal } from '../checks/runtime.ts';
import { failure, type Failure } from '../../checks/failure.ts';
import { isSuccess } from '../../checks/answer.ts';
import { inconclusive } from '../../errors.ts';
import type { CapturedResponse, HttpClient } from '../../request/http.ts';
import { isJsonLabelled } from '../../request/media-type.ts';
import { DocumentSchemas } from '../openapi/json-schema.ts';
import { loadServedDocument, type ReadableDocument } from '../openapi/load.ts';
import { locateRoot, NotLocated } from '../openapi/locate.ts';
import type { Target } from '../../config/target.ts';

const compiled = new WeakMap<ReadableDocument, DocumentSchemas>();

function schemasOf(readable: ReadableDocument): DocumentSchemas {
  let schemas = compiled.get(readable);
  if (!schemas) compiled.set(readable, (schemas = new DocumentSchemas(readable.document)));
  return schemas;
}

interface Run {
  target: Target;
  client: HttpClient;
}

/**
 * The answer's JSON body conforms to the schema the served document gives for its status. `required`:
 * an answer the document gives no body schema is a failure (a read must be described); otherwise such
 * an answer has nothing to conform to. A document that cannot be read is BUS-DOC-001's failure, which
 * the requirements that judge against it take as given.
 */
export async function conformsToServedDocument(
  run: Run,
  operation: string,
  res: CapturedResponse,
  requirement: string,
  options: { required?: boolean } = { required: true },
): Promise<Failure[]> {
  const served = await loadServedDocument(run.client, run.target);
  if (!served.readable)
    return options.required ? [documentUnreadable(served, `a readable OpenAPI document at ${served.url} to check the answer against`)] : [];
  let schema: Record<string, unknown>;
  try {
    const root = locateRoot(served.readable.index, operation, 'response', String(res.status));
    if (root.kind !== 'body') throw new NotLocated(`no body schema for the ${res.status} response of ${operation}`);
    schema = root.schema;
  } catch (error) {
    if (!(error instanceof NotLocated)) throw error;
    return options.required
      ? [failure(requirement, `the served document describes the HTTP ${res.status} answer of ${operation}`, error.message)]
      : [];
  }
  if (res.jsonError || res.rawBody === '')
    return [failure(requirement, 'a JSON body', res.jsonError ? `a body that is not JSON (${res.jsonError})` : 'an empty body')];
  if (!isJsonLabelled(res))
    return [
      failure(
        requirement,
        `Content-Type application/json for the JSON body of ${operation} ${res.status}`,
        `Content-Type ${res.headers['content-type'] ?? '(none)'}`,
      ),
    ];
  const validate = schemasOf(served.readable).validator(schema, 'response');
  if (validate(res.json)) return [];
  return (validate.errors ?? []).map((e) =>
    failure(
      requirement,
      `${e.message ?? e.keyword} (served document, ${operation} ${res.status})`,
      JSON.stringify(pick(res.json, e.instancePath)) ?? 'nothing',
      e.instancePath || '/',
    ),
  );
}

/**
 * Accepted as documented: a 2xx whose body conforms to what the served document gives for it (an empty
 * 200, or `{}`, is no evidence that a call was accepted where the document promises an answer). A
 * refusal for the credentials or the form, a 404 of a request that exists, or a server error fails; a
 * business refusal (a 400 or 422 of a rule beyond the served schema, a 409) ends the test inconclusive.
 */
export async function acceptedAsDocumented(
  run: Run,
  operation: string,
  res: CapturedResponse,
  requirement: string,
  what: string,
): Promise<Failure[]> {
  if (isSuccess(res.status)) return conformsToServedDocument(run, operation, res, requirement, { required: false });
  const business = businessRefusal(res.status);
  if (business)
    throw inconclusive(
      'PRECONDITION_MISSING',
      `${what} ${business}: ${res.rawBody.length > 200 ? `${res.rawBody.slice(0, 200)}…` : res.rawBody}`,
    );
  return [failure(requirement, `${what} accepted (2xx)`, `HTTP ${res.status}`)];
}

function pick(value: unknown, pointer: string): unknown {
  let node = value;
  for (const part of pointer.split('/').slice(1))
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  return node;
}

/**
 * Why `body` does not fit the request body the served document describes for `operation`, or
 * undefined when it fits, or when the document does not say (then the suite's reading stands).
 */
export async function bodyMisfit(run: Run, operation: string, body: unknown): Promise<string | undefined> {
  const served = await loadServedDocument(run.client, run.target);
  if (!served.readable) return undefined;
  let schema: Record<string, unknown>;
  try {
    const root = locateRoot(served.readable.index, operation, 'requestBody');
    if (root.kind !== 'body') return undefined;
    schema = root.schema;
  } catch (error) {
    if (error instanceof NotLocated) return undefined;
    throw error;
  }
  const validate = schemasOf(served.readable).validator(schema, 'request');
  if (validate(body)) return undefined;
  const errors = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`);
  return `the served document describes another request body for ${operation} than the one this suite builds (${errors.join('; ')})`;
}
