/**
 * The redactor as it was before its screenable secrets were found by a scan instead of one regex of
 * every form of every character (harness/secrets/redact.ts): kept unchanged as the reference its output must
 * equal byte for byte (redact-equivalence.test.ts). Do not edit it to follow the redactor.
 */
/**
 * One redactor for every secret of the target. Everything the suite prints or writes passes through
 * `redact` where it is made: failure messages, curl lines, skip reasons, reports.
 *
 * A registered secret is masked in every form it takes on its way to a message:
 *   - as given, and character by character in any mix of the encodings a request or a report applies:
 *     percent-encoding (encodeURIComponent, URLSearchParams with its `+` for a space, either hex case),
 *     JSON escaping (`\"`, `\\`, `\/`, `\u00XX`, also escaped twice), the shell quoting of curl lines
 *     (`'\''`) and HTML/XML entities;
 *   - hex-encoded (either case);
 *   - base64 and base64url, also inside a longer encoded string (a JWT header whose kid is the key,
 *     basic credentials): every run of base64 characters is decoded (at each of its four character
 *     alignments) and masked whole when the decoded text holds the secret in any form above, or, for a
 *     run cut short, begins or ends with a part of it;
 *   - cut short by a truncated snippet (`…`): the part of it next to the ellipsis.
 * Besides the registered secrets it masks what is a credential by its shape: anything shaped like a JWT
 * (also a lone header segment), the credential part of an Authorization header, the user:password@ of a
 * URL, and the value of a query or form parameter, or of a JSON field, whose name says key, token,
 * secret or password.
 */
import { CREDENTIAL_PARAMETER } from '../../harness/secrets/credential-names.ts';

const MASK = '***';
/** Secrets shorter than this are not registered: masking them would blank ordinary words. */
const MIN_SECRET = 4;
/** The shortest part of a secret that counts as leaked when a snippet cut it (or a base64 run). */
const MIN_PART = 6;
/** Base64 runs at least this long are decoded; a part of a secret counts only in runs this long. */
const MIN_RUN = 6;
const MIN_RUN_FOR_PART = 16;

const JWT_SHAPE = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g;
/** A lone base64url JSON object of some length: a JWT header or payload cut from its token. */
const JWT_SEGMENT = /\beyJ[A-Za-z0-9_-]{12,}/g;
const AUTH_HEADER = /((?:authorization|proxy-authorization)["']?\s*[:=]\s*["']?(?:bearer|basic)?\s*)([^\s"',}]+)/gi;
const URL_USERINFO = /\b([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^\s/?#@'"]+)@/g;
const NAMED_PARAMETER = /(^|[?&;\s'"])([A-Za-z0-9_.~%-]+)=([^&#\s'"]*)/g;
const JSON_FIELD = /("([A-Za-z0-9_-]{1,64})"\s*:\s*")((?:[^"\\]|\\.)*)"/g;
/** JSON field names whose values are credentials (a body the target sent back, a request body). */
/** Words every credential parameter name, JSON credential field or authorization header holds (a first look). */
const CREDENTIAL_PARAMETER_WORD = /key|token|secret|pass|credential|sig|pw|auth/i;
const CREDENTIAL_FIELD_WORD = /token|secret|passw|key/i;
const AUTHORIZATION_WORD = /authorization/i;
const CREDENTIAL_FIELD =
  /(?:^|[_-])(?:access_?token|refresh_?token|id_?token|client_?secret|password|passwd|api_?key|secret_?key)$|^(?:accessToken|refreshToken|idToken|clientSecret|apiKey|secretKey|password|token|secret)$/i;
/** A header name that says API key, token, secret or password (not an Idempotency-Key). */
const CREDENTIAL_HEADER_WORD = '(?:api-?key|access-?key|token|secret|passw|credential)';
const CURL_CREDENTIAL_HEADER = new RegExp(`(-H '[A-Za-z0-9-]*${CREDENTIAL_HEADER_WORD}[A-Za-z0-9-]*:\\s*)((?:[^']|'\\\\'')+)'`, 'gi');
const BASE64_RUN = /[A-Za-z0-9+/_-]{6,}={0,2}/g;
const ELLIPSIS = /…|\.\.\./g;

/** Whether the run at `at` is cut: at an end of the text, or next to an ellipsis. */
function isCut(text: string, at: number, length: number): boolean {
  const before = text.slice(Math.max(0, at - 3), at);
  const after = text.slice(at + length, at + length + 3);
  return at === 0 || at + length === text.length || /(…|\.\.\.)$/.test(before) || /^(…|\.\.\.)/.test(after);
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** A hex digit in either case. */
const hexDigit = (d: string) => (/[a-f]/i.test(d) ? `[${d.toLowerCase()}${d.toUpperCase()}]` : d);
const hexPattern = (hex: string) => [...hex].map(hexDigit).join('');
const hex2 = (n: number) => n.toString(16).padStart(2, '0');

const JSON_SHORT: Record<string, string> = { '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };
const ENTITY: Record<string, string[]> = { '&': ['amp'], '<': ['lt'], '>': ['gt'], '"': ['quot'], "'": ['apos'] };

/** Every way one character of a secret can be written in a message, as a regex alternation. */
function characterPattern(ch: string): string {
  const code = ch.codePointAt(0)!;
  const bytes = [...Buffer.from(ch, 'utf8')];
  const forms = [escapeRegex(ch)];
  // Percent-encoding (encodeURIComponent, URLSearchParams, encodeURI), either hex case.
  forms.push(bytes.map((b) => `%${hexPattern(hex2(b))}`).join(''));
  if (ch === ' ') forms.push('\\+');
  // JSON escapes, also escaped again (a JSON body inside a JSON report).
  if (ch === '"' || ch === '/') forms.push(`\\\\+${escapeRegex(ch)}`);
  if (ch === '\\') forms.push('\\\\{2,}');
  if (JSON_SHORT[ch]) forms.push(`\\\\+${JSON_SHORT[ch]}`);
  if (code <= 0xffff) forms.push(`\\\\+u${hexPattern(code.toString(16).padStart(4, '0'))}`);
  // Shell quoting as curl lines write it, and the other common way.
  if (ch === "'") forms.push(`'\\\\''`, `'"'"'`);
  // HTML and XML entities.
  for (const name of ENTITY[ch] ?? []) forms.push(`&${name};`);
  forms.push(`&#0*${code};`, `&#[xX]0*${hexPattern(code.toString(16))};`);
  return `(?:${forms.join('|')})`;
}

/** The secret in any of its textual forms, or hex-encoded. */
function secretPattern(secret: string): string {
  const textual = [...secret].map(characterPattern).join('');
  const hex = hexPattern(Buffer.from(secret, 'utf8').toString('hex'));
  return `(?:${textual}|${hex})`;
}

/** The forms a cut-short secret is compared in (a part of a pattern cannot be matched by a regex). */
function plainForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const form = new URLSearchParams({ s: secret }).toString().slice(2);
  return [...new Set([secret, encodeURIComponent(secret), form, json, json.replace(/'/g, `'\\''`)])];
}

/**
 * The base64 characters that a form of the secret alone decides, at each of the three byte alignments
 * it can have inside a longer encoded string, in both alphabets: a substring of any base64 run that
 * holds the form.
 */
function base64Cores(form: string): string[] {
  const bytes = Buffer.from(form, 'utf8');
  const out: string[] = [];
  for (let k = 0; k < 3; k++) {
    const encoded = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    const first = Math.ceil((8 * k) / 6);
    const last = Math.floor((8 * (k + bytes.length)) / 6) - 1;
    const core = encoded.slice(first, last + 1);
    out.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/** The length of the longest end of `text` that begins `form` (at least MIN_PART), or 0. */
function endOverlap(text: string, form: string): number {
  for (let i = Math.max(0, text.length - form.length + 1); i <= text.length - MIN_PART; i++) {
    if (text.charCodeAt(i) === form.charCodeAt(0) && form.startsWith(text.slice(i))) return text.length - i;
  }
  return 0;
}

/** The length of the longest start of `text` that ends `form` (at least MIN_PART), or 0. */
function startOverlap(text: string, form: string): number {
  const last = form.charCodeAt(form.length - 1);
  for (let k = Math.min(form.length - 1, text.length); k >= MIN_PART; k--) {
    if (text.charCodeAt(k - 1) === last && form.endsWith(text.slice(0, k))) return k;
  }
  return 0;
}

/**
 * Secrets the screen of `holdsTextual` is exact for: long enough, ASCII, and without the characters that
 * begin an escape or have forms of their own (% \ & ' " ; and the space, which a + may stand for), which would let escapes overlap
 * them in ways the screen does not follow. Any other secret's patterns are tried on every text.
 */
const SCREENABLE = /^[A-Za-z0-9!#$()*+,\-./:<=>?@[\]^_`{|}~]{11,}$/;
/** The most characters of a screenable secret that an escape before it can take (`\u` and four hex digits). */
const SCREEN_SKIP = 5;
/** Every escape a form of a screenable character can take (characterPattern), to decode before the screen. */
const ESCAPES = /%([0-9a-fA-F]{2})|\\+u([0-9a-fA-F]{4})|\\+([\/"])|&(amp|lt|gt|quot|apos);|&#0*([0-9]+);|&#[xX]0*([0-9a-fA-F]+);/g;
const ESCAPE_START = /[%\\&]/;
/** The hex form of a screenable secret (11 characters or more) is a run of at least 22 hex digits. */
const HEX_RUN = /[0-9a-fA-F]{22}/;
const NAMED_ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function decodeEscape(_m: string, pct?: string, u?: string, char?: string, named?: string, dec?: string, hex?: string): string {
  if (pct) return String.fromCharCode(parseInt(pct, 16));
  if (u) return String.fromCharCode(parseInt(u, 16));
  if (char) return char;
  if (named) return NAMED_ENTITY[named];
  const code = dec ? Number(dec) : parseInt(hex!, 16);
  return code <= 0x10ffff ? String.fromCodePoint(code) : '';
}

interface Screen {
  tail: string;
  hex: string;
}

/** A text as the screen reads it: with every escape decoded, and in lower case where it has a long hex run. */
function screenView(text: string): { decoded: string; lower?: string } {
  return {
    decoded: ESCAPE_START.test(text) ? text.replace(ESCAPES, decodeEscape) : text,
    lower: HEX_RUN.test(text) ? text.toLowerCase() : undefined,
  };
}

/** Whether a screenable secret may be in the text: its tail, or its hex form, is there. */
const passes = ({ tail, hex }: Screen, { decoded, lower }: { decoded: string; lower?: string }) =>
  decoded.includes(tail) || (lower !== undefined && lower.includes(hex));

export class ReferenceRedactor {
  private secrets: string[] = [];
  private patterns: RegExp[] = [];
  private parts: string[] = [];
  /** The same forms as bytes (latin1 strings), for decoded base64 cut in the middle of a character. */
  private partBytes: string[] = [];
  /** Base64 cores of every secret, by their first four characters (a quick first look at a run). */
  private cores = new Map<string, string[]>();
  /** For the screenable secrets: what a text must hold, once decoded, for their patterns to be worth trying. */
  private screens: Screen[] = [];
  /** Each secret's screen, in the order of `patterns`; none for a secret the screen is not exact for. */
  private screenOf: Array<Screen | undefined> = [];
  private screened?: RegExp;
  /** The patterns of the secrets the screen is not exact for, tried on every text. */
  private unscreened?: RegExp;

  register(...values: Array<string | undefined>): void {
    let added = false;
    for (const value of values) {
      if (typeof value !== 'string' || value.length < MIN_SECRET || this.secrets.includes(value)) continue;
      this.secrets.push(value);
      added = true;
    }
    if (!added) return;
    // Longest first, so that a secret that contains another is masked whole.
    this.secrets.sort((a, b) => b.length - a.length);
    this.patterns = this.secrets.map((s) => new RegExp(secretPattern(s), 'g'));
    const screenable = this.secrets.filter((secret) => SCREENABLE.test(secret));
    const rest = this.secrets.filter((secret) => !SCREENABLE.test(secret));
    const screenFor = (secret: string) => ({ tail: secret.slice(SCREEN_SKIP), hex: Buffer.from(secret, 'utf8').toString('hex') });
    this.screens = screenable.map(screenFor);
    this.screenOf = this.secrets.map((secret) => (SCREENABLE.test(secret) ? screenFor(secret) : undefined));
    this.screened = screenable.length ? new RegExp(screenable.map(secretPattern).join('|')) : undefined;
    this.unscreened = rest.length ? new RegExp(rest.map(secretPattern).join('|')) : undefined;
    this.parts = [...new Set(this.secrets.filter((s) => s.length > MIN_PART).flatMap(plainForms))];
    this.partBytes = [
      ...new Set(
        this.secrets
          .flatMap(plainForms)
          .map((f) => Buffer.from(f, 'utf8').toString('latin1'))
          .filter((f) => f.length > MIN_PART),
      ),
    ];
    this.cores.clear();
    for (const core of new Set(this.secrets.flatMap(plainForms).flatMap(base64Cores))) {
      if (core.length < 4) continue;
      const key = core.slice(0, 4);
      this.cores.set(key, [...(this.cores.get(key) ?? []), core]);
    }
  }

  redact(text: string): string {
    let out = text;
    if (this.secrets.length) out = this.maskTextual(out);
    // A whole token goes first, as one mask (its header may hold the key, which would split it).
    const jwt = out.includes('eyJ');
    if (jwt) out = out.replace(JWT_SHAPE, 'eyJ' + MASK);
    if (this.secrets.length) {
      out = out.replace(BASE64_RUN, (run: string, at: number, whole: string) =>
        this.hidesSecret(run, isCut(whole, at, run.length)) ? MASK : run,
      );
      out = this.maskCutParts(out);
    }
    // Each mask by shape runs only where the text holds what every match of it must (most bodies hold none).
    if (out.includes('://') && out.includes('@')) out = out.replace(URL_USERINFO, (_m, scheme: string) => `${scheme}${MASK}@`);
    if (out.includes('=') && CREDENTIAL_PARAMETER_WORD.test(out))
      out = out.replace(NAMED_PARAMETER, (m, lead: string, name: string, value: string) =>
        value && value !== MASK && CREDENTIAL_PARAMETER.test(name) ? `${lead}${name}=${MASK}` : m,
      );
    if (CREDENTIAL_FIELD_WORD.test(out))
      out = out.replace(JSON_FIELD, (m, head: string, name: string, value: string) =>
        value && value !== MASK && CREDENTIAL_FIELD.test(name) ? `${head}${MASK}"` : m,
      );
    if (out.includes("-H '"))
      out = out.replace(CURL_CREDENTIAL_HEADER, (m, head: string, value: string) => (value === MASK ? m : `${head}${MASK}'`));
    if (jwt) out = out.replace(JWT_SEGMENT, 'eyJ' + MASK);
    if (AUTHORIZATION_WORD.test(out))
      out = out.replace(AUTH_HEADER, (_m, head: string, cred: string) =>
        cred === MASK || cred === `eyJ${MASK}` ? head + cred : head + MASK,
      );
    return out;
  }

  /**
   * Whether the text holds a registered secret, in any of its forms or inside a base64 run. What the
   * masks by shape would change (a sample `token=` or JWT in a served document) does not count.
   */
  holdsSecret(text: string): boolean {
    if (!this.secrets.length) return false;
    if (this.holdsTextual(text)) return true;
    for (const match of text.matchAll(BASE64_RUN)) if (this.hidesSecret(match[0], isCut(text, match.index!, match[0].length))) return true;
    return false;
  }

  /**
   * Whether a run of base64 characters decodes (at some alignment) to text that holds a secret or, for
   * a long run that was cut short, begins or ends with a part of one.
   */
  private hidesSecret(run: string, cut: boolean): boolean {
    const whole = this.holdsCore(run);
    const part = cut && run.length >= MIN_RUN_FOR_PART;
    if (!whole && !part) return false;
    for (let offset = 0; offset < 4 && run.length - offset >= MIN_RUN; offset++) {
      const decoded = Buffer.from(run.slice(offset), 'base64');
      if (whole && this.holdsTextual(decoded.toString('utf8'))) return true;
      const bytes = part ? decoded.toString('latin1') : '';
      if (part && this.partBytes.some((form) => endOverlap(bytes, form) || startOverlap(bytes, form))) return true;
    }
    return false;
  }

  /**
   * Whether a secret is in the text in one of its textual forms. The alternation of every form
   * of every character is slow on long texts, so a cheap screen goes first where it is exact: with every
   * escape decoded, a text holding a secret holds the secret's tail (an escape just before the secret
   * can swallow at most its first SCREEN_SKIP characters), or holds its hex form.
   */
  private holdsTextual(text: string): boolean {
    if (this.unscreened?.test(text)) return true;
    if (!this.screened) return false;
    const view = screenView(text);
    return this.screens.some((screen) => passes(screen, view)) && this.screened.test(text);
  }

  /**
   * Every secret masked in its textual forms, longest first. A screenable secret's pattern runs only
   * where its own screen finds it (the screen of `holdsTextual`, one secret at a time: a request holds
   * its own token, and trying every secret's pattern on it cost milliseconds per exchange); the others'
   * only where their joint pattern matches. Both are looked at again after a mask changed the text.
   */
  private maskTextual(text: string): string {
    let out = text;
    const look = () => ({ ...screenView(out), unscreened: this.unscreened?.test(out) === true });
    let seen = look();
    this.secrets.forEach((_secret, i) => {
      const screen = this.screenOf[i];
      if (screen ? !passes(screen, seen) : !seen.unscreened) return;
      const masked = out.replace(this.patterns[i], MASK);
      if (masked === out) return;
      out = masked;
      seen = look();
    });
    return out;
  }

  private holdsCore(run: string): boolean {
    for (let i = 0; i + 4 <= run.length; i++) {
      const cores = this.cores.get(run.slice(i, i + 4));
      if (cores?.some((core) => run.startsWith(core, i))) return true;
    }
    return false;
  }

  /** A snippet cut with an ellipsis may end (or begin) in the middle of a secret: mask that part. */
  private maskCutParts(text: string): string {
    if (!this.parts.length || !/…|\.\.\./.test(text)) return text;
    const cuts: Array<[number, number]> = [];
    for (const match of text.matchAll(ELLIPSIS)) {
      const at = match.index!;
      const before = text.slice(Math.max(0, at - 200), at);
      const after = text.slice(at + match[0].length, at + match[0].length + 200);
      const head = Math.max(0, ...this.parts.map((form) => endOverlap(before, form)));
      const tail = Math.max(0, ...this.parts.map((form) => startOverlap(after, form)));
      if (head) cuts.push([at - head, at]);
      if (tail) cuts.push([at + match[0].length, at + match[0].length + tail]);
    }
    let out = text;
    for (const [from, to] of cuts.sort((a, b) => b[0] - a[0])) out = `${out.slice(0, from)}${MASK}${out.slice(to)}`;
    return out;
  }

  get count(): number {
    return this.secrets.length;
  }
}
