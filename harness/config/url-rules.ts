/**
 * What a URL of the target file must be, beyond the schema's pattern: http or https (https where the
 * key says so), a host, a port from 1 to 65535 where one is given, and no credential in it: neither
 * user:password@ nor a query parameter named like a key, token, secret or password. A credential in a
 * URL ends up in every curl line and log; it belongs in its own key, given as a ${ENV} value, where the
 * redactor knows it. Messages never quote the URL (it may hold the credential).
 */

/** Query parameter names that carry a credential (also used by the redactor). */
export const CREDENTIAL_PARAMETER = /key|token|secret|passw|credential|signature/i;

const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)(?::([^/?#]*))?/;

export function urlProblem(value: string, httpsOnly = false): string | undefined {
  const authority = AUTHORITY.exec(value);
  const port = authority?.[2];
  if (port !== undefined) {
    if (!/^\d+$/.test(port)) return 'has a port that is not a number';
    const n = Number(port);
    if (n < 1 || n > 65535) return `has port ${port}, outside 1 to 65535`;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a valid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (httpsOnly && url.protocol !== 'https:') return 'must be an https URL (the client certificate is presented only over TLS)';
  if (!url.hostname) return 'has no host';
  const advice = 'give the credential its own key in the service section, as a ${ENV} value';
  if (url.username || url.password) return `carries a credential (user:password@); ${advice}`;
  for (const name of new Set(url.searchParams.keys())) {
    if (CREDENTIAL_PARAMETER.test(name)) return `carries a credential in its query parameter "${name}"; ${advice}`;
  }
  return undefined;
}
