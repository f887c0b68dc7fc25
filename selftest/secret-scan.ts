/**
 * The scan for secrets in every form they can take on their way into a message: raw, encodeURIComponent,
 * form-encoded, JSON-escaped, shell-quoted, base64, base64url and hex, also inside a longer base64 or
 * base64url run at any alignment. Used by the secrets selftest (selftest/e2e/secrets.test.ts, which also
 * proves the scan can fail) and by every selftest that checks a run's outputs for its credentials.
 */
/** Every form a secret can take on its way into a message. */
export function encodedForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const shell = secret.replace(/'/g, `'\\''`);
  const forms = [
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ x: secret }).toString().slice(2),
    json,
    shell,
    Buffer.from(secret).toString('base64'),
    Buffer.from(secret).toString('base64url'),
    Buffer.from(secret).toString('hex'),
  ];
  return [...new Set(forms)];
}

/** What was base64-encoded may itself be JSON (a JWT header) or a form: the plain forms of the secret to look for in it. */
const plainForms = (secret: string) => [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)];

/** A long base64 or base64url run. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{16,}/g;

/** Decodes every long base64 / base64url run of the text at each alignment and says whether one holds the secret. */
export function hiddenInBase64(text: string, secret: string): boolean {
  const plain = plainForms(secret);
  for (const match of text.matchAll(BASE64_RUN)) {
    for (let offset = 0; offset < 4; offset++) {
      const decoded = Buffer.from(match[0].slice(offset).replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1');
      if (plain.some((p) => decoded.includes(p))) return true;
    }
  }
  return false;
}

/**
 * The same scan for many secrets over long texts (the reports of a whole run are tens of megabytes):
 * what `encodedForms` and `hiddenInBase64` find, found in one pass per text. Every form of a secret starts
 * with the same form of its first characters (its anchor), so the text is searched for the few anchors
 * and each form is compared only where its anchor is; each base64 run is decoded once for all secrets.
 */
export class SecretScan {
  private readonly forms = new Map<string, Array<{ secret: string; form: string }>>();
  private readonly plain = new Map<string, Array<{ secret: string; form: string }>>();
  private static readonly ANCHOR = 6;

  constructor(secrets: string[]) {
    const add = (into: Map<string, Array<{ secret: string; form: string }>>, secret: string, form: string) => {
      const anchor = form.slice(0, SecretScan.ANCHOR);
      into.set(anchor, [...(into.get(anchor) ?? []), { secret, form }]);
    };
    for (const secret of secrets) {
      for (const form of encodedForms(secret)) add(this.forms, secret, form);
      for (const form of plainForms(secret)) add(this.plain, secret, form);
    }
  }

  private static found(
    text: string,
    byAnchor: Map<string, Array<{ secret: string; form: string }>>,
  ): Array<{ secret: string; form: string }> {
    const out = new Set<{ secret: string; form: string }>();
    for (const [anchor, forms] of byAnchor)
      for (let at = text.indexOf(anchor); at !== -1; at = text.indexOf(anchor, at + 1))
        for (const f of forms) if (text.startsWith(f.form, at)) out.add(f);
    return [...out];
  }

  /** The forms of the secrets that the text holds as they are. */
  formsIn(text: string): Array<{ secret: string; form: string }> {
    return SecretScan.found(text, this.forms);
  }

  /** The secrets that a base64 or base64url run of the text holds, at any alignment. */
  hiddenIn(text: string): Set<string> {
    const out = new Set<string>();
    for (const match of text.matchAll(BASE64_RUN)) {
      const run = match[0].replace(/-/g, '+').replace(/_/g, '/');
      for (let offset = 0; offset < 4; offset++)
        for (const f of SecretScan.found(Buffer.from(run.slice(offset), 'base64').toString('latin1'), this.plain)) out.add(f.secret);
    }
    return out;
  }
}
