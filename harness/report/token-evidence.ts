/**
 * A JWT the suite sent, as its evidence shows it: its header and claims decoded, as they were encoded
 * (an attack's extra whitespace or reordered fields stay visible), its signature masked with its length
 * (an `alg: none` token's is empty), and `kid` masked whatever it holds (it is the API key, or a variant of
 * it an attack made). An auditor can then see which token a refused call carried, where the redactor would
 * have shown every one as `eyJ***`. The text still passes through the redactor: a credential of the target
 * file anywhere in the claims is masked there. A token that is itself a credential of the target file (an
 * access token it names) is left whole, for the redactor to mask as a whole.
 */
import { printableLine } from '../text/printable.ts';
import type { Redactor } from '../secrets/redact.ts';

/** A JWT's shape, as the redactor finds one; padding and the standard alphabet of a malformed one included. */
const TOKEN = /\beyJ[A-Za-z0-9_+/-]{2,}={0,2}\.[A-Za-z0-9_+/-]*={0,2}(?:\.[A-Za-z0-9_+/-]*={0,2})+/g;
const KID = /("kid"\s*:\s*)("(?:[^"\\]|\\.)*")/g;

/** A segment's text, decoded from base64url (or base64), or why it is none. */
function decodedSegment(segment: string): string {
  const bytes = Buffer.from(segment.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  const text = bytes.toString('utf8');
  if (!segment || !/^\s*[{[]/.test(text)) return `(not base64url JSON: ${segment.length} characters)`;
  return printableLine(text);
}

/** One token as its evidence shows it, the kid marked as holding a credential of the target file or not. */
function shownToken(token: string, redactor: Redactor): string {
  const [header, claims, ...signatures] = token.split('.');
  const shownHeader = decodedSegment(header).replace(
    KID,
    (_m, head: string, value: string) => `${head}"*** (${redactor.holdsSecret(value) ? 'a' : 'not a'} credential of the target file)"`,
  );
  const signature = signatures.join('.');
  const described = [
    `header ${shownHeader}`,
    `claims ${decodedSegment(claims)}`,
    `signature ${signature ? `*** (${signature.length} characters)` : 'empty'}`,
    ...(signatures.length > 1 ? [`and ${signatures.length - 1} more segment(s)`] : []),
  ];
  // `eyJ***` first: the redactor keeps it as the masked token of an authorization header.
  return `eyJ*** (a JWT, decoded by the suite: ${described.join('; ')})`;
}

/** The headers with every JWT the suite made shown decoded, its signature and its kid masked. */
export function withDecodedTokens(headers: Record<string, string>, redactor: Redactor): Record<string, string> {
  let changed = false;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = value.includes('eyJ')
      ? value.replace(TOKEN, (token) => {
          if (redactor.isRegistered(token)) return token;
          changed = true;
          return shownToken(token, redactor);
        })
      : value;
  }
  return changed ? out : headers;
}
