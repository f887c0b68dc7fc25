/**
 * A curl command that reproduces a request, for failure messages (redacted by the caller's redactor).
 * Letters, digits and `-._~` that a request percent-encoded in its URL or form body (the identity suite
 * writes client_id in fresh bytes on every request) are shown decoded: they mean the same (RFC 3986
 * 2.3; a form decoder reads the same text), and the line says so. The exact bytes are in the evidence.
 */
const MAX_BODY = 2000;
const ENCODED_UNRESERVED = /%(?:[46][1-9a-fA-F]|[57][0-9aA]|3[0-9]|2[dDeE]|5[fF]|7[eE])/g;
/** The same in a URL but the dot, which decoded could make a dot segment that curl would resolve. */
const ENCODED_UNRESERVED_IN_URL = /%(?:[46][1-9a-fA-F]|[57][0-9aA]|3[0-9]|2[dD]|5[fF]|7[eE])/g;
const DECODED_NOTE = `  # letters, digits and -._~ the request percent-encoded are shown decoded (the same request; its exact bytes are in the evidence)`;

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The text with percent-encoded unreserved characters decoded; everything else as it was. */
export function decodeUnreserved(text: string, escapes = ENCODED_UNRESERVED): string {
  return text.replace(escapes, (sequence) => String.fromCharCode(parseInt(sequence.slice(1), 16)));
}

const isForm = (headers: Record<string, string>) =>
  Object.entries(headers).some(
    ([name, value]) => name.toLowerCase() === 'content-type' && /^application\/x-www-form-urlencoded\b/i.test(value),
  );

export function curlOf(req: { method: string; url: string; headers: Record<string, string>; bodyText?: string }): string {
  const url = decodeUnreserved(req.url, ENCODED_UNRESERVED_IN_URL);
  let decoded = url !== req.url;
  const parts = ['curl -sS -i', '-X', req.method, quote(url)];
  for (const [name, value] of Object.entries(req.headers)) parts.push('-H', quote(`${name}: ${value}`));
  if (req.bodyText !== undefined && req.bodyText !== '') {
    const text = isForm(req.headers) ? decodeUnreserved(req.bodyText) : req.bodyText;
    decoded ||= text !== req.bodyText;
    const body = text.length > MAX_BODY ? `${text.slice(0, MAX_BODY)}…(${req.bodyText.length} bytes in all)` : text;
    parts.push('--data-raw', quote(body));
  }
  return parts.join(' ') + (decoded ? DECODED_NOTE : '');
}
