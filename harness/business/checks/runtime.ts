/**
 * Checks of the business operations as served, against the FETCHED document (spec 4.5, 5.5, 7, 8):
 * no server error, a documented status, a documented content type, a body that conforms to the
 * documented schema, valid requests accepted and invalid ones rejected, refusals without credentials,
 * the vendor's error body. Pure functions of (operation model, response); each failure names the
 * requirement, what was expected and what came back.
 */
import type { CapturedResponse } from '../../request/http.ts';
import type { DocumentSchemas } from '../openapi/json-schema.ts';
import { jsonMediaOf, responseFor, type OperationModel } from '../openapi/operation-model.ts';
import { failure, type Failure } from '../../checks/failure.ts';
import { ERROR_CODES, type ErrorCode, ToolError } from '../../errors.ts';
import { isSuccess } from '../../checks/answer.ts';
import { getAt, pointerSteps } from '../../text/json.ts';
import { isJsonLabelled, isJsonMedia, mediaMatches } from '../../request/media-type.ts';

const documented = (op: OperationModel) => op.responses.map((r) => r.key.toLowerCase()).join(', ') || 'none';

/** Spec part 7 / CHECKS no-5xx: a 5xx is never the answer to a request the document allows. */
export function noServerError(res: CapturedResponse, requirement: string): Failure[] {
  if (res.status < 500) return [];
  const gateway = [502, 503, 504].includes(res.status) ? ' (a gateway or availability error: the target may be overloaded or down)' : '';
  return [failure(requirement, 'no 5xx answer to a valid request', `status ${res.status}${gateway}`)];
}

/**
 * The status is documented for the operation (exact, its range, or `default`). An undocumented 401 is
 * tolerated only on a refusal of missing or bad credentials (the gateway's answer, CHECKS #2); a 429 never
 * reaches a check (the client waits it out, or the test ends as TARGET_RATE_LIMITED).
 */
export function operationStatusDocumented(
  op: OperationModel,
  res: CapturedResponse,
  requirement: string,
  options: { credentialRefusal?: boolean } = {},
): Failure[] {
  if (responseFor(op, res.status) || (options.credentialRefusal && res.status === 401)) return [];
  return [failure(requirement, `a status ${op.name} documents (${documented(op)})`, `undocumented status ${res.status}`)];
}

/** Whether the document promises a body for the answer's status (HEAD and 204 never carry one): what BUS-RUN-003 judges. */
export function bodyDocumented(op: OperationModel, res: CapturedResponse): boolean {
  const response = responseFor(op, res.status);
  return response !== undefined && response.content.length > 0 && res.status !== 204 && op.method !== 'HEAD';
}

/**
 * A documented body is present and its Content-Type is one the document lists for that status, compared
 * as media types (type and subtype; parameters apart, on either side). An answer the document gives no
 * body for is not judged here.
 */
export function contentTypeDocumented(op: OperationModel, res: CapturedResponse, requirement: string): Failure[] {
  if (!bodyDocumented(op, res)) return [];
  const listed = responseFor(op, res.status)!.content.map((c) => c.mediaType);
  if (res.rawBody === '')
    return [
      failure(
        requirement,
        `a body (${listed.join(' or ')}) for status ${res.status}, as documented`,
        `an empty body${res.headers['content-type'] ? '' : ' and no Content-Type'}`,
      ),
    ];
  const sent = res.headers['content-type'];
  if (listed.some((m) => mediaMatches(m, sent))) return [];
  return [
    failure(requirement, `Content-Type ${listed.join(' or ')} for status ${res.status}`, sent ? `Content-Type ${sent}` : 'no Content-Type'),
  ];
}

/**
 * The JSON schema an answer's body is judged against (BUS-RUN-004), or undefined when it is not judged:
 * no JSON schema documented for its status, a body labelled otherwise where the status lists other
 * media too, or no body at all (a documented body missing is BUS-RUN-003's failure, not this one's).
 */
export function judgedSchema(op: OperationModel, res: CapturedResponse): Record<string, unknown> | undefined {
  const response = responseFor(op, res.status);
  const json = jsonMediaOf(response?.content.filter((c) => c.schema));
  if (!json?.schema || !bodyDocumented(op, res) || res.rawBody === '') return undefined;
  const onlyJson = response!.content.every((c) => isJsonMedia(c.mediaType));
  return isJsonLabelled(res) || onlyJson ? json.schema : undefined;
}

/**
 * The body of an answer whose documented media is JSON conforms to the schema documented for its status
 * (one failure per ajv error). A body labelled otherwise is still read as JSON when JSON is all the
 * document lists for the status (the label is BUS-RUN-003's business, the content this check's).
 */
export function bodyConforms(op: OperationModel, res: CapturedResponse, schemas: DocumentSchemas, requirement: string): Failure[] {
  const schema = judgedSchema(op, res);
  if (!schema) return [];
  if (res.jsonError)
    return [failure(requirement, `a JSON body for status ${res.status}`, `a body that is not JSON (${res.jsonError.split('\n')[0]})`)];
  const validate = schemas.validator(schema, 'response');
  if (validate(res.json)) return [];
  return (validate.errors ?? []).slice(0, 10).map((e) => {
    const expected = `${e.message ?? e.keyword} [${schemaPlace(e.schemaPath)}] (status ${res.status} of ${op.name})`;
    // The defect is the schema's words: every answer that breaks it the same way shows one defect, whatever it holds.
    return { ...failure(requirement, expected, shown(res.json, e.instancePath), e.instancePath || '/'), defect: expected };
  });
}

/**
 * Where in the served schema a rule is, in the document's names: `PaymentStatusValue/type`, not the
 * bundle's generated base (`urn:…:<digest>:response#/$defs/…`), which says nothing to a reader.
 */
function schemaPlace(schemaPath: string): string {
  return schemaPath.replace(/^[^#]*#/, '').replace(/^\/\$defs\//, '') || 'the body';
}

function shown(value: unknown, pointer: string): string {
  const text = JSON.stringify(getAt(value, pointerSteps(pointer)));
  return text === undefined ? 'nothing' : text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** The requirements whose subject is the form of an answer: its status, its Content-Type and body, its schema. */
export const ANSWER_FORM = { status: 'BUS-RUN-002', contentType: 'BUS-RUN-003', schema: 'BUS-RUN-004' } as const;

/**
 * The documented success of an operation: a 2xx the document lists, with the documented body (present,
 * of a listed Content-Type, conforming to its schema). The evidence every other runtime check of the
 * operation needs before it may pass: an answer to a valid request that shows the target did its job.
 * Anything but a 2xx is `requirement`'s failure; the form of a 2xx is ANSWER_FORM's subject, and its
 * failures name those requirements, so that a test taking the form as given (specs/requirements.yaml
 * `dependsOn`) ends inconclusive naming them instead of failing for the same defect again.
 */
export function documentedSuccess(op: OperationModel, res: CapturedResponse, schemas: DocumentSchemas, requirement: string): Failure[] {
  if (res.status < 200 || res.status > 299)
    return [failure(requirement, `the documented success of ${op.name} (2xx)`, `status ${res.status}`)];
  return [
    ...operationStatusDocumented(op, res, ANSWER_FORM.status),
    ...contentTypeDocumented(op, res, ANSWER_FORM.contentType),
    ...bodyConforms(op, res, schemas, ANSWER_FORM.schema),
  ];
}

export interface AcceptanceVerdict {
  failures: Failure[];
  /** Why the answer neither proves nor disproves acceptance (the test ends inconclusive), when it does not. */
  unjudged?: string;
}

/**
 * Statuses that refuse a request for its form, which a request the document describes cannot have: a
 * documented method (405), the documented media types (406, 415), a length header (411).
 */
const FORM_REFUSALS = [405, 406, 411, 415];

/**
 * Why a refusal of a request the served document describes (sent with the target file's credentials,
 * to something that exists) proves nothing about acceptance, or undefined when it disproves it: a
 * refusal for the credentials (401, 403), for the form (405, 406, 411, 415), or a 404. A 400 or 422
 * may come from a rule beyond the document's schema (a checksum, a value that must exist: 2.6 gives
 * only some of them, and part 7 says only how a 400 looks, not what it refuses); 409 and the other
 * 4xx are business outcomes. The served document is read as the vendor's specification: what it
 * states binds, what it cannot state (every business rule) does not.
 */
export function businessRefusal(status: number): string | undefined {
  if (status < 400 || status >= 500 || status === 401 || status === 403 || status === 404 || FORM_REFUSALS.includes(status))
    return undefined;
  if (status === 400 || status === 422)
    return `answered ${status}: a rule beyond the served schema (a checksum, a value that must exist) may refuse a request the document allows`;
  return `answered ${status}, a business outcome that neither proves nor disproves acceptance`;
}

/**
 * A request valid against the document, with credentials the target file gives, reaches the documented
 * success. Refused for its form (405, 406, 411, 415) or for its credentials (401, 403): a failure.
 * A 404 is a failure where every identifier of the request exists (named by the target file or created
 * in this run), else it only says that a generated identifier is unknown. A business refusal
 * (businessRefusal: 400, 409, 422, ...), a 5xx (BUS-RUN-001's) or a 2xx that is not the documented
 * answer (BUS-RUN-002..004's) proves nothing either way.
 */
export function acceptanceOf(
  op: OperationModel,
  res: CapturedResponse,
  schemas: DocumentSchemas,
  requirement: string,
  context: {
    identifiersExist: boolean;
    unknownIdentifierIs400?: boolean;
    /**
     * The requirement that states a create's answer can be found through this operation (BUS-STA-001 on
     * the path of a create and read pair), where an identifier of the request was created in this run:
     * a 404 then says first that what was created cannot be read, that requirement's subject.
     */
    createdReadableBy?: string;
    /**
     * A request of the same operation and identifiers, sent alongside and refused by nobody, that was
     * served where it should not have been (a destructive operation): it may have removed what the
     * valid request names, so a 404 proves nothing. Its own requirement judges that it was served.
     */
    consumedBy?: string;
  },
): AcceptanceVerdict {
  const { status } = res;
  if (isSuccess(status)) {
    const off = documentedSuccess(op, res, schemas, requirement);
    return off.length
      ? {
          failures: [],
          unjudged: `answered ${status}, but not as the document describes its success (${off[0].received}; BUS-RUN-002, 003 and 004 judge that)`,
        }
      : { failures: [] };
  }
  if (status >= 500) return { failures: [], unjudged: `answered ${status} (BUS-RUN-001 judges server errors)` };
  if (status === 400 && context.unknownIdentifierIs400 && !context.identifiersExist)
    return {
      failures: [],
      unjudged: 'answered 400 for a generated (unknown) identifier, which this operation answers 400 (a vendor fact)',
    };
  const business = businessRefusal(status);
  if (business) return { failures: [], unjudged: business };
  if (status === 401 || status === 403)
    return {
      failures: [
        failure(
          requirement,
          `${op.name}: a valid request with the target file's credentials reaches its documented success`,
          `refused with ${status}: the credentials were not accepted`,
        ),
      ],
    };
  if (status === 404) {
    if (context.consumedBy)
      return {
        failures: [],
        unjudged: `answered 404 after ${context.consumedBy}, sent alongside with the same identifiers, was served and may have removed what they name`,
      };
    if (context.identifiersExist)
      return {
        failures: [
          failure(
            context.createdReadableBy ?? requirement,
            `${op.name}: found (its identifiers exist: named in the target file or created in this run)`,
            'status 404',
          ),
        ],
      };
    return { failures: [], unjudged: 'answered 404 for an identifier that was generated, or found but not known to be of this kind' };
  }
  return {
    failures: [
      failure(
        requirement,
        `${op.name}: a request in the documented method and media type reaches its documented success`,
        `status ${status}, as if its method or media type were not the documented ones`,
      ),
    ],
  };
}

/** CHECKS negative-data-rejection; the statuses that mean "this request is refused". */
export const REJECTION = [400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 428];

/** A request that breaks one rule is rejected with a 4xx; a 400 carries a JSON body (spec part 7). */
export function rejectedAsInvalid(res: CapturedResponse, requirement: string): Failure[] {
  if (!REJECTION.includes(res.status)) {
    const what = res.status < 300 ? 'accepted with' : res.status >= 500 ? 'server error' : 'status';
    return [failure(requirement, `rejected with a 4xx (${REJECTION.join(', ')})`, `${what} ${res.status}`)];
  }
  if (res.status !== 400) return [];
  if (res.rawBody === '' || res.jsonError || !isJsonLabelled(res)) {
    const why =
      res.rawBody === ''
        ? 'an empty body'
        : res.jsonError
          ? `a body that is not JSON (${res.jsonError.split('\n')[0]})`
          : `Content-Type ${res.headers['content-type'] ?? 'none'}`;
    return [failure(requirement, 'a 400 with a JSON body (spec part 7)', `400 with ${why}`)];
  }
  return [];
}

/** The vendor's business error body: errorId, errorMessage, errorCode (strings), errorDetails (an object) when present. */
export function vendorErrorBody(res: CapturedResponse, requirement: string, where: string): Failure[] {
  if (res.status < 400 || res.status === 429 || !isJsonLabelled(res)) return [];
  const body = res.json as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return [
      failure(
        requirement,
        `${where}: the business error body { errorId, errorMessage, errorCode }`,
        res.jsonError ? 'a body that is not JSON' : `${JSON.stringify(res.json)?.slice(0, 120)}`,
      ),
    ];
  const out: Failure[] = [];
  for (const key of ['errorId', 'errorMessage', 'errorCode']) {
    if (typeof body[key] !== 'string' || body[key] === '')
      out.push(
        failure(requirement, `${where}: ${key}, a non-empty string`, body[key] === undefined ? 'absent' : JSON.stringify(body[key])),
      );
  }
  if ('errorDetails' in body && (typeof body.errorDetails !== 'object' || body.errorDetails === null || Array.isArray(body.errorDetails))) {
    out.push(failure(requirement, `${where}: errorDetails, an object`, JSON.stringify(body.errorDetails)));
  }
  return out;
}

/** Statuses with which a host refuses a request for its client certificate (nginx uses 400, 495, 496). */
export const CERTIFICATE_REFUSALS = [400, 401, 403, 421, 495, 496];

/**
 * Without the client certificate on the secured host: refused in the TLS handshake or with a refusal
 * status. No answer for another reason (refused connection, timeout, a connection that broke before
 * the handshake ended on a starved host) proves nothing either way: a tool error with its code.
 */
export function refusedWithoutCertificate(
  outcome: { response?: CapturedResponse; error?: string },
  requirement: string,
  isTlsRefusal: (error: string) => boolean,
): Failure[] {
  const expected = `refused for the missing client certificate (TLS handshake, or ${CERTIFICATE_REFUSALS.join(', ')})`;
  if (outcome.error !== undefined) {
    if (isTlsRefusal(outcome.error)) return [];
    const code = /^([A-Z][A-Z_]+): /.exec(outcome.error)?.[1];
    throw new ToolError(
      code && code in ERROR_CODES ? (code as ErrorCode) : 'TARGET_UNREACHABLE',
      `no answer without the client certificate, for a reason that is not a TLS refusal: ${outcome.error.replace(/^[A-Z][A-Z_]+: /, '')}`,
    );
  }
  const res = outcome.response!;
  if (CERTIFICATE_REFUSALS.includes(res.status)) return [];
  return [failure(requirement, expected, res.status < 300 ? `served with ${res.status}` : `status ${res.status}`)];
}

/** On the plain host, where no certificate can be shown: never served. */
export function notServedOnPlainHost(res: CapturedResponse, requirement: string): Failure[] {
  if (res.status >= 300 && res.status < 500) return [];
  return [
    failure(
      requirement,
      'not served on the plain url (a 3xx or 4xx)',
      res.status < 300 ? `served with ${res.status}` : `status ${res.status}`,
    ),
  ];
}

/** Statuses that refuse a request for its client certificate or its credentials (5.5: BUS-MTL-005, BUS-MTL-006). */
export const REFUSED_FOR_CERTIFICATE = [401, 403, 495, 496];

/**
 * Not refused for its client certificate or credentials, sent `how` ("with the client certificate"). The
 * defect is the same words for every operation and answer: one host that refuses the certificate is one
 * defect, whichever tests met it.
 */
export function notRefusedForCertificate(res: CapturedResponse, requirement: string, how: string): Failure[] {
  if (!REFUSED_FOR_CERTIFICATE.includes(res.status)) return [];
  const body = res.rawBody.length > 160 ? `${res.rawBody.slice(0, 160)}…` : res.rawBody;
  const expected = `served ${how} (no 401, 403, 495 or 496)`;
  return [{ ...failure(requirement, expected, `status ${res.status}: ${body}`), defect: expected }];
}

/** With the client certificate: not refused for it. */
export function servedWithCertificate(res: CapturedResponse, requirement: string): Failure[] {
  return notRefusedForCertificate(res, requirement, 'with the client certificate');
}
