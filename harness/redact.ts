/**
 * One redactor for every secret of the target. Everything the suite prints or writes passes through
 * `redact` where it is made: failure messages, curl lines, skip reasons, reports.
 * Besides the registered secrets it masks anything shaped like a JWT and the credential part of an
 * Authorization header, so a token the suite built itself (speech) never appears whole either.
 */
const JWT_SHAPE = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g;
const AUTH_HEADER = /((?:authorization|proxy-authorization)["']?\s*[:=]\s*["']?(?:bearer|basic)?\s*)([^\s"',}]+)/gi;
const MASK = '***';

export class Redactor {
  private secrets: string[] = [];

  register(...values: Array<string | undefined>): void {
    for (const value of values) {
      if (typeof value !== 'string' || value.length < 4 || this.secrets.includes(value)) continue;
      this.secrets.push(value);
      // Secrets also travel URL-encoded (form fields) and base64-encoded (basic auth, HMAC keys).
      for (const variant of [encodeURIComponent(value), Buffer.from(value).toString('base64')]) {
        if (variant !== value && !this.secrets.includes(variant)) this.secrets.push(variant);
      }
    }
    this.secrets.sort((a, b) => b.length - a.length);
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join(MASK);
    out = out.replace(JWT_SHAPE, 'eyJ' + MASK);
    out = out.replace(AUTH_HEADER, (_m, head: string, cred: string) => (cred === MASK ? head + cred : head + MASK));
    return out;
  }

  get count(): number {
    return this.secrets.length;
  }
}

/** Keys of a target file whose values are credentials. */
export const SECRET_KEY_PATTERN = /(token|secret|apikey|password|credential)/i;
