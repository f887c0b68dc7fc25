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
import { CREDENTIAL_PARAMETER } from './credential-names.ts';
import { SecretForms } from './redact-forms.ts';
import { Overlaps } from './redact-index.ts';
import { SCREENABLE, SecretScreen } from './redact-screen.ts';

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
/** Tried only where "authorization" begins, or six characters before (authorizationStarts). */
const AUTH_HEADER = /((?:authorization|proxy-authorization)["']?\s*[:=]\s*["']?(?:bearer|basic)?\s*)([^\s"',}]+)/iy;
const URL_USERINFO = /\b([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^\s/?#@'"]+)@/g;
/** Tried only just before a name that ends at an `=` (parameterStarts). */
const NAMED_PARAMETER = /(^|[?&;\s'"])([A-Za-z0-9_.~%-]+)=([^&#\s'"]*)/y;
const JSON_FIELD = /("([A-Za-z0-9_-]{1,64})"\s*:\s*")((?:[^"\\]|\\.)*)"/g;
/** JSON field names whose values are credentials (a body the target sent back, a request body). */
/** Words every credential parameter name, JSON credential field or authorization header holds (a first look). */
const CREDENTIAL_PARAMETER_WORD = /key|token|secret|pass|credential|sig|pw|auth/i;
const CREDENTIAL_FIELD_WORD = /token|secret|passw|key/i;
const AUTHORIZATION_WORD = /authorization/gi;
const CREDENTIAL_FIELD =
  /(?:^|[_-])(?:access_?token|refresh_?token|id_?token|client_?secret|password|passwd|api_?key|secret_?key)$|^(?:accessToken|refreshToken|idToken|clientSecret|apiKey|secretKey|password|token|secret)$/i;
/** A header name that says API key, token, secret or password (not an Idempotency-Key). */
const CREDENTIAL_HEADER_WORD = '(?:api-?key|access-?key|token|secret|passw|credential)';
const CURL_CREDENTIAL_HEADER = new RegExp(`(-H '[A-Za-z0-9-]*${CREDENTIAL_HEADER_WORD}[A-Za-z0-9-]*:\\s*)((?:[^']|'\\\\'')+)'`, 'gi');
/** Headers whose whole value is a credential by their name, cookies included (the evidence of an exchange masks them). */
export const CREDENTIAL_HEADER_NAME = new RegExp(`${CREDENTIAL_HEADER_WORD}|^(?:set-)?cookie$`, 'i');
/** A run of base64 characters that is at least `length` long, with its padding. */
const base64Run = (length: number, flags = 'g') => new RegExp(`[A-Za-z0-9+/_-]{${length},}={0,2}`, flags);
/** A character of a base64 run: [A-Za-z0-9+/_-]. */
const isBase64Character = (c: number) =>
  (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) || c === 0x2b || c === 0x2f || c === 0x5f || c === 0x2d;
const ELLIPSIS = /…|\.\.\./g;

/**
 * `text.replace(global, replace)` for a regex whose every match begins at one of `starts` (ascending): the
 * same matches, the regex (sticky) tried only there. Tried at every place of a long body, the masks by
 * shape cost more than all the rest of its redaction.
 */
function replaceAt(text: string, sticky: RegExp, starts: number[], replace: (match: RegExpExecArray) => string): string {
  let out = '';
  let kept = 0;
  for (const at of starts) {
    if (at < kept) continue;
    sticky.lastIndex = at;
    const match = sticky.exec(text);
    if (!match) continue;
    out += text.slice(kept, at) + replace(match);
    kept = at + match[0].length;
  }
  return kept === 0 ? text : out + text.slice(kept);
}

/** A character of NAMED_PARAMETER's name: [A-Za-z0-9_.~%-]. */
const isNameCharacter = (c: number) =>
  (c >= 0x30 && c <= 0x39) ||
  ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) ||
  c === 0x5f ||
  c === 0x2e ||
  c === 0x7e ||
  c === 0x25 ||
  c === 0x2d;

/** Where a NAMED_PARAMETER match can begin: the character before each name that ends at an `=` (a name has no `=`, and its lead is no name character), or the text's start. */
function parameterStarts(text: string): number[] {
  const starts: number[] = [];
  for (let equals = text.indexOf('='); equals >= 0; equals = text.indexOf('=', equals + 1)) {
    let name = equals;
    while (name > 0 && isNameCharacter(text.charCodeAt(name - 1))) name--;
    if (name < equals) starts.push(Math.max(0, name - 1));
  }
  return starts;
}

/** Where an AUTH_HEADER match can begin: at each "authorization", or at the "proxy-" before it. */
function authorizationStarts(text: string): number[] {
  const starts: number[] = [];
  for (const { index } of text.matchAll(AUTHORIZATION_WORD)) starts.push(...(index >= 6 ? [index - 6, index] : [index]));
  return starts;
}

/** Four characters of a base64 run (7-bit ASCII) as one number. */
const quad = (text: string, at: number) =>
  (text.charCodeAt(at) << 21) | (text.charCodeAt(at + 1) << 14) | (text.charCodeAt(at + 2) << 7) | text.charCodeAt(at + 3);

/** Whether the run at `at` is cut: at an end of the text, or next to an ellipsis (asked only of a run long enough for a part). */
function isCut(text: string, at: number, length: number): boolean {
  if (length < MIN_RUN_FOR_PART) return false;
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

/** Characters that every plain form writes as they are (most tokens hold no other). */
const PLAIN_IN_EVERY_FORM = /^[A-Za-z0-9*._-]*$/;

/** The forms a cut-short secret is compared in (a part of a pattern cannot be matched by a regex). */
function plainForms(secret: string): string[] {
  if (PLAIN_IN_EVERY_FORM.test(secret)) return [secret];
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
  // Two zero bytes ahead of the form: the three alignments are three views of one buffer.
  const padded = Buffer.from(`\0\0${form}`, 'utf8');
  const length = padded.length - 2;
  const out: string[] = [];
  for (let k = 0; k < 3; k++) {
    const encoded = padded.toString('base64', 2 - k);
    const first = Math.ceil((8 * k) / 6);
    const last = Math.floor((8 * (k + length)) / 6) - 1;
    const core = encoded.slice(first, last + 1);
    out.push(core);
    if (core.includes('+') || core.includes('/')) out.push(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

export class Redactor {
  private secrets: string[] = [];
  /**
   * Each secret's masker, in the order of `secrets`: its scan where the screen is exact for it, else its
   * regex; made when a text first may hold the secret (of a token pool's thousands, few ever appear).
   */
  private maskers: Array<SecretForms | RegExp | undefined> = [];
  /** Every secret's plain forms. */
  private forms: string[][] = [];
  /** The forms of every secret longer than a part, for a snippet cut in one; made when first needed. */
  private partForms?: Overlaps;
  /** The same forms as bytes (latin1 strings), for decoded base64 cut in the middle of a character. */
  private partByteForms?: Overlaps;
  /** Base64 cores of every secret, by their first four characters (a quick first look at a run). */
  private cores = new Map<string, string[]>();
  /** The same first four characters, each as one number (`quad`): looked up at every place of a run without a slice. */
  private coreQuads = new Set<number>();
  /** Their first two characters (7-bit ASCII each), for a first look at every place of a text. */
  private corePairs = new Uint8Array(1 << 14);
  /** The runs of base64 characters long enough to hold a core, or a part of a secret when cut. */
  private base64Runs = base64Run(MIN_RUN);
  /** The same runs, sticky, and their shortest length. */
  private base64RunAt = base64Run(MIN_RUN, 'y');
  private runLength = MIN_RUN;
  /** The screen of the screenable secrets: which of them a text may hold, before their forms are searched. */
  private screen = new SecretScreen([]);
  /** Each screenable secret's place in `secrets`, by its place in the screen. */
  private screenedAt: number[] = [];
  /** The places in `secrets` of the secrets the screen is not exact for, and their joint pattern, tried on every text. */
  private unscreenedAt: number[] = [];
  private unscreened?: RegExp;

  /** Every registered secret; what is built from them is built again before the next redaction after a change. */
  private readonly known = new Set<string>();
  private built = true;

  register(...values: Array<string | undefined>): void {
    const before = this.known.size;
    for (const value of values) if (typeof value === 'string' && value.length >= MIN_SECRET) this.known.add(value);
    if (this.known.size !== before) this.built = false;
  }

  /**
   * What the redaction needs, built when a text is first redacted after a change: a process that loads a
   * target only to check it (the command line, the global setup) never pays for a token pool's indexes.
   */
  private build(): void {
    if (this.built) return;
    this.built = true;
    // Longest first, so that a secret that contains another is masked whole.
    this.secrets = [...this.known].sort((a, b) => b.length - a.length);
    this.maskers = [];
    this.screenedAt = [];
    this.unscreenedAt = [];
    this.secrets.forEach((secret, i) => (SCREENABLE.test(secret) ? this.screenedAt : this.unscreenedAt).push(i));
    this.screen = new SecretScreen(this.screenedAt.map((i) => this.secrets[i]));
    const rest = this.unscreenedAt.map((i) => this.secrets[i]);
    this.unscreened = rest.length ? new RegExp(rest.map(secretPattern).join('|')) : undefined;
    const forms = (this.forms = this.secrets.map(plainForms));
    this.partForms = undefined;
    this.partByteForms = undefined;
    this.cores.clear();
    this.coreQuads.clear();
    this.corePairs.fill(0);
    let shortest = Number.POSITIVE_INFINITY;
    for (const core of new Set(forms.flat().flatMap(base64Cores))) {
      if (core.length < 4) continue;
      const key = core.slice(0, 4);
      const same = this.cores.get(key);
      if (same) same.push(core);
      else this.cores.set(key, [core]);
      this.coreQuads.add(quad(core, 0));
      this.corePairs[(core.charCodeAt(0) << 7) | core.charCodeAt(1)] = 1;
      shortest = Math.min(shortest, core.length);
    }
    // A shorter run holds no core, and with its padding is too short for a part: hidesSecret would pass it.
    this.runLength = Math.max(MIN_RUN, Math.min(shortest, MIN_RUN_FOR_PART - 2));
    this.base64Runs = base64Run(this.runLength);
    this.base64RunAt = base64Run(this.runLength, 'y');
  }

  private masker(i: number): SecretForms | RegExp {
    const secret = this.secrets[i];
    return (this.maskers[i] ??= SCREENABLE.test(secret) ? new SecretForms(secret) : new RegExp(secretPattern(secret), 'g'));
  }

  private get parts(): Overlaps {
    return (this.partForms ??= new Overlaps(
      [...new Set(this.forms.filter((_forms, i) => this.secrets[i].length > MIN_PART).flat())],
      MIN_PART,
    ));
  }

  private get partBytes(): Overlaps {
    return (this.partByteForms ??= new Overlaps(
      [...new Set(this.forms.flat().map((form) => Buffer.from(form, 'utf8').toString('latin1')))],
      MIN_PART,
    ));
  }

  redact(text: string): string {
    this.build();
    let out = text;
    if (this.secrets.length) out = this.maskTextual(out);
    // A whole token goes first, as one mask (its header may hold the key, which would split it).
    const jwt = out.includes('eyJ');
    if (jwt) out = out.replace(JWT_SHAPE, 'eyJ' + MASK);
    if (this.secrets.length) {
      out = this.maskBase64(out);
      out = this.maskCutParts(out);
    }
    // Each mask by shape runs only where the text holds what every match of it must (most bodies hold none).
    if (out.includes('://') && out.includes('@')) out = out.replace(URL_USERINFO, (_m, scheme: string) => `${scheme}${MASK}@`);
    if (out.includes('=') && CREDENTIAL_PARAMETER_WORD.test(out))
      out = replaceAt(out, NAMED_PARAMETER, parameterStarts(out), ([m, lead, name, value]) =>
        value && value !== MASK && CREDENTIAL_PARAMETER.test(name) ? `${lead}${name}=${MASK}` : m,
      );
    if (CREDENTIAL_FIELD_WORD.test(out))
      out = out.replace(JSON_FIELD, (m, head: string, name: string, value: string) =>
        value && value !== MASK && CREDENTIAL_FIELD.test(name) ? `${head}${MASK}"` : m,
      );
    if (out.includes("-H '"))
      out = out.replace(CURL_CREDENTIAL_HEADER, (m, head: string, value: string) => (value === MASK ? m : `${head}${MASK}'`));
    if (jwt) out = out.replace(JWT_SEGMENT, 'eyJ' + MASK);
    const authorization = authorizationStarts(out);
    if (authorization.length)
      out = replaceAt(out, AUTH_HEADER, authorization, ([, head, cred]) =>
        cred === MASK || cred === `eyJ${MASK}` ? head + cred : head + MASK,
      );
    return out;
  }

  /**
   * Whether the text holds a registered secret, in any of its forms or inside a base64 run. What the
   * masks by shape would change (a sample `token=` or JWT in a served document) does not count.
   */
  holdsSecret(text: string): boolean {
    this.build();
    if (!this.secrets.length) return false;
    if (this.holdsTextual(text)) return true;
    for (const match of text.matchAll(this.base64Runs))
      if (this.hidesSecret(match[0], isCut(text, match.index!, match[0].length))) return true;
    return false;
  }

  /**
   * Every base64 run that hides a secret masked. Only a run holding the start of a core can hide a whole
   * secret, and only a cut run a part of one: in a text without a core's first four characters only the
   * runs that its ends or an ellipsis cut can change, and only those are looked at.
   */
  private maskBase64(text: string): string {
    const hide = (run: string, at: number) => (this.hidesSecret(run, isCut(text, at, run.length)) ? MASK : run);
    if (this.mayHoldCore(text)) return text.replace(this.base64Runs, (run: string, at: number) => hide(run, at));
    return replaceAt(text, this.base64RunAt, this.cutRunStarts(text), (match) => hide(match[0], match.index));
  }

  /**
   * Where the runs that may be cut begin: at the text's start, after an ellipsis, and where the run that
   * ends the text or an ellipsis begins. Each is after a character no run has (or a run's padding), so no
   * earlier run reaches past it and the regex would try it afresh.
   */
  private cutRunStarts(text: string): number[] {
    const starts = [0];
    const addEnding = (end: number) => {
      const start = this.runStartBefore(text, end);
      if (start > 0) starts.push(start);
    };
    addEnding(text.length);
    for (const mark of ['…', '...'])
      for (let at = text.indexOf(mark); at >= 0; at = text.indexOf(mark, at + 1)) {
        addEnding(at);
        starts.push(at + mark.length);
      }
    return starts.sort((a, b) => a - b);
  }

  /** Where the base64 run that ends at `end` begins (its padding at most two `=`), or -1. */
  private runStartBefore(text: string, end: number): number {
    let last = end;
    while (last > 0 && end - last < 2 && text.charCodeAt(last - 1) === 0x3d) last--;
    let start = last;
    while (start > 0 && isBase64Character(text.charCodeAt(start - 1))) start--;
    return last - start >= this.runLength ? start : -1;
  }

  /** Whether the first four characters of a core are somewhere in the text. */
  private mayHoldCore(text: string): boolean {
    for (let i = 0; i + 4 <= text.length; i++) {
      const a = text.charCodeAt(i);
      const b = text.charCodeAt(i + 1);
      if (a < 0x80 && b < 0x80 && this.corePairs[(a << 7) | b] && this.coreQuads.has(quad(text, i))) return true;
    }
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
      if (part && (this.partBytes.endOf(bytes) || this.partBytes.startOf(bytes))) return true;
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
    return this.screen.mayHold(text).some((at) => (this.masker(this.screenedAt[at]) as SecretForms).holds(text));
  }

  /** The secrets whose forms are worth searching in the text, by their place in `secrets`, ascending. */
  private candidates(text: string): number[] {
    const screened = this.screen.mayHold(text).map((at) => this.screenedAt[at]);
    if (!this.unscreened?.test(text)) return screened;
    return [...screened, ...this.unscreenedAt].sort((a, b) => a - b);
  }

  /**
   * Every secret masked in its textual forms, longest first. A screenable secret's forms are searched
   * only where the screen finds it (searching every secret's forms in a text cost milliseconds per
   * exchange, and a token pool's thousands of secrets made it seconds); the others' only where their
   * joint pattern matches. After a mask changed the text, the rest are looked for in the text as it is then.
   */
  private maskTextual(text: string): string {
    let out = text;
    let candidates = this.candidates(out);
    for (let k = 0; k < candidates.length; k++) {
      const i = candidates[k];
      const masker = this.masker(i);
      const masked = masker instanceof SecretForms ? masker.masked(out, MASK) : out.replace(masker, MASK);
      if (masked === out) continue;
      out = masked;
      candidates = this.candidates(out).filter((next) => next > i);
      k = -1;
    }
    return out;
  }

  private holdsCore(run: string): boolean {
    for (let i = 0; i + 4 <= run.length; i++) {
      if (!this.coreQuads.has(quad(run, i))) continue;
      const cores = this.cores.get(run.slice(i, i + 4));
      if (cores?.some((core) => run.startsWith(core, i))) return true;
    }
    return false;
  }

  /** A snippet cut with an ellipsis may end (or begin) in the middle of a secret: mask that part. */
  private maskCutParts(text: string): string {
    if (!this.secrets.length || !/…|\.\.\./.test(text)) return text;
    const cuts: Array<[number, number]> = [];
    for (const match of text.matchAll(ELLIPSIS)) {
      const at = match.index!;
      const before = text.slice(Math.max(0, at - 200), at);
      const after = text.slice(at + match[0].length, at + match[0].length + 200);
      const head = this.parts.endOf(before);
      const tail = this.parts.startOf(after);
      if (head) cuts.push([at - head, at]);
      if (tail) cuts.push([at + match[0].length, at + match[0].length + tail]);
    }
    let out = text;
    for (const [from, to] of cuts.sort((a, b) => b[0] - a[0])) out = `${out.slice(0, from)}${MASK}${out.slice(to)}`;
    return out;
  }

  /** Whether the value is itself a registered secret (a whole credential of the target file). */
  isRegistered(value: string): boolean {
    // `known`, not the built list: a check may come before any text was redacted.
    return this.known.has(value);
  }

  get count(): number {
    return this.known.size;
  }
}

/** Keys whose values are credentials, by name (the target file marks them in its schema; this is for the sandbox's credential tables). */
export const SECRET_KEY_PATTERN = /(token|secret|apikey|password|credential)/i;
