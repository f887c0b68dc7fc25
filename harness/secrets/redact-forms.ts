/**
 * A screenable secret (harness/secrets/redact.ts: ASCII, without % \ & ' " ; or a space) found in every textual
 * form the redactor masks, or hex-encoded, by a scan instead of a regex. The regex of every form of every
 * character cost milliseconds to compile for each secret in every worker, and its first run over a long
 * body was interpreted. For these characters the forms of one character begin with different characters
 * (the character itself, `%`, a run of `\`, `&`), and each repetition in them (`\\+`, `0*`) is followed
 * by a character it cannot take, so the regex can match at a position in one way only: the scan follows
 * that way and finds the regex's matches exactly (selftest/harness/redact-equivalence.test.ts).
 */
import { hasEscapeStart, hasHexRun } from './redact-screen.ts';

const PERCENT = 0x25;
const BACKSLASH = 0x5c;
const AMPERSAND = 0x26;
const HASH = 0x23;
const SEMICOLON = 0x3b;
const ZERO = 0x30;
const SLASH = 0x2f;
const LOWER_U = 0x75;
const LOWER_X = 0x78;
const UPPER_X = 0x58;
const LOWER_A = 0x61;

/** One character's forms: itself, percent-encoded, `\u` JSON-escaped, `\/`, a named or numeric entity. */
interface CharacterForms {
  code: number;
  /** Lower-case hex digits: of the percent form, of the `\u` form, of the hexadecimal entity. */
  percent: string;
  unicode: string;
  entityHex: string;
  entityDecimal: string;
  /** `&lt;` or `&gt;`, whole. */
  named?: string;
}

const NAMED: Record<string, string> = { '<': '&lt;', '>': '&gt;' };

/** Each character's forms, made once: a token pool's secrets share their characters. */
const FORMS = new Map<string, CharacterForms>();

function formsOf(ch: string): CharacterForms {
  let forms = FORMS.get(ch);
  if (!forms) FORMS.set(ch, (forms = formsOfNew(ch)));
  return forms;
}

function formsOfNew(ch: string): CharacterForms {
  const code = ch.charCodeAt(0);
  return {
    code,
    percent: code.toString(16).padStart(2, '0'),
    unicode: code.toString(16).padStart(4, '0'),
    entityHex: code.toString(16),
    entityDecimal: String(code),
    named: NAMED[ch],
  };
}

/** Whether `text` holds the lower-case hex digits `hex` at `at`, each letter in either case. */
function hexAt(text: string, at: number, hex: string): boolean {
  if (at + hex.length > text.length) return false;
  for (let k = 0; k < hex.length; k++) {
    const want = hex.charCodeAt(k);
    const got = text.charCodeAt(at + k);
    if (got !== want && (want < LOWER_A || (got | 0x20) !== want)) return false;
  }
  return true;
}

/** Where one form of the character that begins at `at` ends, or -1. */
function formEnd(text: string, at: number, ch: CharacterForms): number {
  const got = text.charCodeAt(at);
  if (got === ch.code) return at + 1;
  if (got === PERCENT) return hexAt(text, at + 1, ch.percent) ? at + 3 : -1;
  if (got === BACKSLASH) {
    // Escaped once or more: every backslash of the run belongs to the form.
    let q = at + 1;
    while (text.charCodeAt(q) === BACKSLASH) q++;
    const next = text.charCodeAt(q);
    if (next === SLASH && ch.code === SLASH) return q + 1;
    return next === LOWER_U && hexAt(text, q + 1, ch.unicode) ? q + 5 : -1;
  }
  if (got !== AMPERSAND) return -1;
  if (ch.named && text.startsWith(ch.named, at)) return at + ch.named.length;
  if (text.charCodeAt(at + 1) !== HASH) return -1;
  let q = at + 2;
  const x = text.charCodeAt(q);
  const hex = x === LOWER_X || x === UPPER_X;
  if (hex) q++;
  while (text.charCodeAt(q) === ZERO) q++;
  const digits = hex ? ch.entityHex : ch.entityDecimal;
  const found = hex ? hexAt(text, q, digits) : text.startsWith(digits, q);
  return found && text.charCodeAt(q + digits.length) === SEMICOLON ? q + digits.length + 1 : -1;
}

export class SecretForms {
  private readonly secret: string;
  private readonly chars: CharacterForms[];
  /** The secret's UTF-8 bytes as lower-case hex. */
  private readonly hex: string;
  /** The characters a match can begin with. */
  private readonly starts: Set<number>;

  constructor(secret: string) {
    this.secret = secret;
    this.chars = [...secret].map(formsOf);
    this.hex = Buffer.from(secret, 'utf8').toString('hex');
    const first = this.hex.charCodeAt(0);
    this.starts = new Set([this.chars[0].code, PERCENT, BACKSLASH, AMPERSAND, first, first >= LOWER_A ? first - 0x20 : first]);
  }

  /** Where the match that begins at `at` ends, or -1: a textual form first, as the regex tried it, then the hex form. */
  private endAt(text: string, at: number): number {
    let q = at;
    for (const ch of this.chars) {
      q = formEnd(text, q, ch);
      if (q < 0) break;
    }
    if (q >= 0) return q;
    return hexAt(text, at, this.hex) ? at + this.hex.length : -1;
  }

  /** Every match replaced by `mask`, leftmost first, as a global regex replace does. */
  masked(text: string, mask: string): string {
    // Without an escape or a hex run as long as its hex form, the secret can only be there as itself.
    if (!hasEscapeStart(text) && !hasHexRun(text, this.hex.length)) return text.replaceAll(this.secret, mask);
    let out = '';
    let kept = 0;
    for (let at = 0; at < text.length; at++) {
      if (!this.starts.has(text.charCodeAt(at))) continue;
      const end = this.endAt(text, at);
      if (end < 0) continue;
      out += text.slice(kept, at) + mask;
      kept = end;
      at = end - 1;
    }
    return kept === 0 ? text : out + text.slice(kept);
  }

  holds(text: string): boolean {
    for (let at = 0; at < text.length; at++) if (this.starts.has(text.charCodeAt(at)) && this.endAt(text, at) >= 0) return true;
    return false;
  }
}
