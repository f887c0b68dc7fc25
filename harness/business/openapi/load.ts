/**
 * The served business document, fetched once per process (a vitest worker) and shared by every
 * document-level test: fetched through the HTTP client (safety gate, pacer), parsed with `yaml`,
 * dereferenced, indexed, and validated on first demand. A document that could not be read carries
 * the reason, so each test can fail with it instead of crashing; a transport error is cached too, so
 * an unreachable target costs one timeout, not one per test.
 */
import type { CapturedResponse, HttpClient } from '../../request/http.ts';
import { isJsonObject } from '../../text/json.ts';
import { PromiseMemo } from '../../test/memo.ts';
import { recordServerError, serverErrorOf } from '../../request/server-errors.ts';
import { cite } from '../../report/evidence-log.ts';
import { recordFetchedDocument } from '../../report/fetched-documents.ts';
import type { Target } from '../../config/target.ts';
import { businessDocumentUrl, DEFAULT_DOCUMENT_PATH } from './business-target.ts';
import { dereferenceDocument } from './dereference.ts';
import { parsedOnce } from '../../text/parsed-once.ts';
import { describeProblem, parseOpenApiText, type YamlProblem } from './parse.ts';
import { OperationIndex } from './paths.ts';
import { validateOpenApi, type ValidationResult } from './validate.ts';

export interface ReadableDocument {
  /** As parsed, `$ref`s intact. */
  raw: Record<string, unknown>;
  /** Dereferenced (object cycles where the document is recursive). */
  document: Record<string, unknown>;
  index: OperationIndex;
}

export interface ServedDocument {
  url: string;
  response: CapturedResponse;
  /** The document was refused without the bearer token and fetched with it. */
  neededToken: boolean;
  /** YAML problems, fatal or not (a duplicate key is reported but read past). */
  yamlProblems: YamlProblem[];
  /** Why the document could not be read; absent when it could. */
  unreadable?: string;
  readable?: ReadableDocument;
  validation(): Promise<ValidationResult>;
}

const OPERATION = `GET ${DEFAULT_DOCUMENT_PATH}`;
const ACCEPT = 'application/yaml, application/x-yaml, text/yaml, application/json;q=0.9, */*;q=0.5';
const cache = new PromiseMemo<string, ServedDocument>('keep');

const snippet = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text || '(empty)');

async function fetchDocument(
  client: HttpClient,
  target: Target,
  url: string,
): Promise<{ response: CapturedResponse; neededToken: boolean }> {
  const send = (headers: Record<string, string>) =>
    client.send({ area: 'business', operation: OPERATION, sideEffect: 'read', method: 'GET', url, headers });
  const response = await send({ accept: ACCEPT });
  const token = target.services.business?.token;
  if ((response.status === 401 || response.status === 403) && typeof token === 'string' && token !== '') {
    return { response: await send({ accept: ACCEPT, authorization: `Bearer ${token}` }), neededToken: true };
  }
  return { response, neededToken: false };
}

/** Why a parsed YAML value is no OpenAPI document (`{}`, a list, an error body), or undefined when it is one. */
function notOpenApi(value: Record<string, unknown>): string | undefined {
  if (typeof value.openapi !== 'string' && typeof value.swagger !== 'string') return 'it has no `openapi` version string';
  if (!isJsonObject(value.paths)) return 'it has no `paths` object, so it describes no operation';
  return undefined;
}

/**
 * What depends on the parsed document alone (its dereferenced copy, its validation), made once per parsed
 * document in a process: the parse is shared by content (parsedOnce), so the fault and latitude runs'
 * variants that serve the same text share these too. Shared: never modify them.
 */
const dereferenced = new WeakMap<object, Promise<Record<string, unknown>>>();
const validations = new WeakMap<object, Promise<ValidationResult>>();

function dereferencedOf(raw: Record<string, unknown>): Promise<Record<string, unknown>> {
  let made = dereferenced.get(raw);
  if (!made) dereferenced.set(raw, (made = dereferenceDocument(raw)));
  return made;
}

function validationOf(raw: Record<string, unknown>): Promise<ValidationResult> {
  let made = validations.get(raw);
  if (!made) validations.set(raw, (made = validateOpenApi(raw)));
  return made;
}

async function load(client: HttpClient, target: Target, url: string): Promise<ServedDocument> {
  const { response, neededToken } = await fetchDocument(client, target, url);
  let validation: Promise<ValidationResult> | undefined;
  const served: ServedDocument = {
    url,
    response,
    neededToken,
    yamlProblems: [],
    validation: () => (validation ??= served.readable ? validationOf(served.readable.raw) : Promise.resolve({ findings: [] })),
  };
  if (response.status >= 500) recordServerError(OPERATION, `GET ${url} answered HTTP ${response.status}`);
  if (response.status < 200 || response.status > 299) {
    served.unreadable = `GET ${url} answered HTTP ${response.status} (content-type ${response.headers['content-type'] ?? 'none'}, body ${snippet(response.rawBody)})`;
    return served;
  }
  // What was judged, kept with its hash for the reports (a certification pack binds its result to it).
  recordFetchedDocument(url, response.rawBody, response.headers['content-type'], target.redactor);
  const parsed = parsedOnce(response.rawBody, parseOpenApiText, 'openapi-text@1');
  served.yamlProblems = parsed.problems;
  if (!parsed.ok) {
    const html = /html/i.test(response.headers['content-type'] ?? '')
      ? ` (content-type ${response.headers['content-type']}: a login or error page?)`
      : '';
    served.unreadable = `the body of GET ${url} is not a readable YAML document: ${describeProblem(parsed.problem, response.rawBody)}${html}`;
    return served;
  }
  const shape = notOpenApi(parsed.value);
  if (shape) {
    served.unreadable = `GET ${url} answered YAML that is not an OpenAPI document: ${shape} (body ${snippet(response.rawBody)})`;
    return served;
  }
  let document: Record<string, unknown>;
  try {
    document = await dereferencedOf(parsed.value);
  } catch (error) {
    served.unreadable = `the document parsed, but its $refs could not be resolved: ${(error as Error).message.split('\n')[0]}`;
    return served;
  }
  served.readable = { raw: parsed.value, document, index: new OperationIndex(document) };
  return served;
}

/** The first 5xx a fetch of the document answered anywhere in this run (any worker), if one did. */
export function documentServerError(): string | undefined {
  return serverErrorOf(OPERATION);
}

/** The served document; the exchange that fetched it is evidence of every test that asks for it. */
export function loadServedDocument(client: HttpClient, target: Target): Promise<ServedDocument> {
  const url = businessDocumentUrl(target);
  return cache
    .get(url, () => load(client, target, url))
    .then((served) => {
      cite(served.response);
      return served;
    });
}

/** The document this process already fetched, if any (for after-all reports that must not fetch). */
export function alreadyLoaded(target: Target): Promise<ServedDocument> | undefined {
  try {
    return cache.peek(businessDocumentUrl(target));
  } catch {
    return undefined;
  }
}
