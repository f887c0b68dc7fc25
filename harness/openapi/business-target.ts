/**
 * The business section of the target file, as the document-level suites read it:
 *   url              the spec's {business_url}
 *   documentPath     where the machine-readable specification is served, relative to url or an
 *                    absolute URL (default /openapi/docs/openapi.yaml, spec part 9)
 *   token            bearer token, sent for the document only if it is refused without one
 *   mtlsOperations   ["METHOD /path", ...]: the operations that need a client certificate. The spec
 *                    does not list them (5.5 says only that the cards list and single-card methods
 *                    do not), so this is configuration; the sandbox writes its own list.
 *   mtlsUrl, mtls    {cert, key, ca}: the secured host and the client certificate (runtime suites)
 */
import { ToolError } from '../errors.ts';
import { serviceOf, type Target } from '../target.ts';
import { parseOperationName, type OperationName } from './paths.ts';

export const DEFAULT_DOCUMENT_PATH = '/openapi/docs/openapi.yaml';

export function businessDocumentUrl(target: Target): string {
  const service = serviceOf(target, 'business');
  const documentPath = typeof service.documentPath === 'string' && service.documentPath !== '' ? service.documentPath : DEFAULT_DOCUMENT_PATH;
  if (/^https?:\/\//i.test(documentPath)) return documentPath;
  return `${service.url.replace(/\/+$/, '')}/${documentPath.replace(/^\/+/, '')}`;
}

/** The configured mTLS operations, or a CREDENTIAL_MISSING skip naming the key. */
export function mtlsOperations(target: Target): OperationName[] {
  const list = serviceOf(target, 'business').mtlsOperations;
  if (list === undefined) throw new ToolError('CREDENTIAL_MISSING', `the target file ${target.name} has no services.business.mtlsOperations (the list of operations that need a client certificate)`);
  if (!Array.isArray(list)) throw new ToolError('TARGET_FILE_INVALID', `${target.file}: key "services.business.mtlsOperations" must be a list of "METHOD /path" strings`);
  return list.map((entry, i) => {
    try {
      return parseOperationName(String(entry));
    } catch {
      throw new ToolError('TARGET_FILE_INVALID', `${target.file}: key "services.business.mtlsOperations[${i}]": "${entry}" is not of the form "METHOD /path"`);
    }
  });
}
