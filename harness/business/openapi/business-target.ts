/**
 * The business section of the target file (typed by harness/business/config.ts), as the document-level
 * suites read it:
 *   url              the spec's {business_url}
 *   documentPath     where the machine-readable specification is served, relative to url or an
 *                    absolute URL (default /openapi/docs/openapi.yaml, spec part 9)
 *   token            bearer token, sent for the document only if it is refused without one
 *   mtlsOperations   ["METHOD /path", ...]: the operations that need a client certificate. The spec
 *                    does not list them (5.5 says only that the cards list and single-card methods
 *                    do not), so this is configuration; the sandbox writes its own list.
 *   mtlsUrl, mtls    {cert, key, ca}: the secured host and the client certificate (runtime suites)
 */
import { BUSINESS_DEFAULTS, businessConfig } from '../config.ts';
import { ToolError } from '../../errors.ts';
import type { Target } from '../../config/target.ts';
import { parseOperationName, type OperationName } from './paths.ts';

export const DEFAULT_DOCUMENT_PATH = BUSINESS_DEFAULTS.documentPath;

export function businessDocumentUrl(target: Target): string {
  const service = businessConfig(target);
  if (/^https?:\/\//i.test(service.documentPath)) return service.documentPath;
  return `${service.url.replace(/\/+$/, '')}/${service.documentPath.replace(/^\/+/, '')}`;
}

/** The configured mTLS operations (their form checked by the schema), or a CREDENTIAL_MISSING skip naming the key. */
export function mtlsOperations(target: Target): OperationName[] {
  const list = businessConfig(target).mtlsOperations;
  if (list === undefined)
    throw new ToolError(
      'CREDENTIAL_MISSING',
      `the target file ${target.name} has no services.business.mtlsOperations (the list of operations that need a client certificate)`,
    );
  return list.map(parseOperationName);
}
