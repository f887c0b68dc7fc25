/** A curl command that reproduces a request, for failure messages (redacted by the caller's redactor). */
const MAX_BODY = 2000;

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function curlOf(req: { method: string; url: string; headers: Record<string, string>; bodyText?: string }): string {
  const parts = ['curl -sS -i', '-X', req.method, quote(req.url)];
  for (const [name, value] of Object.entries(req.headers)) parts.push('-H', quote(`${name}: ${value}`));
  if (req.bodyText !== undefined && req.bodyText !== '') {
    const body = req.bodyText.length > MAX_BODY ? `${req.bodyText.slice(0, MAX_BODY)}…(${req.bodyText.length} bytes in all)` : req.bodyText;
    parts.push('--data-raw', quote(body));
  }
  return parts.join(' ');
}
