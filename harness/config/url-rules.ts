/**
 * What a URL of the target file must be, beyond the schema's pattern: http or https (https where the
 * key says so), a host, a port from 1 to 65535 where one is given, and no credential in it: neither
 * user:password@ nor a query parameter named like a key, token, secret or password. A credential in a
 * URL ends up in every curl line and log; it belongs in its own key, given as a ${ENV} value, where the
 * redactor knows it. A service's base URL (`url`, `mtlsUrl`) has no query or fragment either: the suite
 * appends each operation's path to it, and a query would end up before the path (`/x?tenant=a/op`),
 * so that every request went astray and the target were blamed. Messages never quote the URL (it may
 * hold the credential), only the names of its parameters.
 */

import { CREDENTIAL_PARAMETER } from '../secrets/credential-names.ts';

const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)(?::([^/?#]*))?/;

/** `base`: a service's base URL, to which operation paths are appended (no query, no fragment). */
export function urlProblem(value: string, httpsOnly = false, base = false): string | undefined {
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
  if (base && (url.search || value.includes('?'))) {
    const names = [...new Set(url.searchParams.keys())].map((n) => `"${n}"`).join(', ');
    return `has a query string${names ? ` (${names})` : ''}; the suite appends each operation's path to this URL, so a query would come before the path: give the base URL without one`;
  }
  if (base && (url.hash || value.includes('#')))
    return "has a fragment (#…); the suite appends each operation's path to this URL: give the base URL without one";
  return undefined;
}
