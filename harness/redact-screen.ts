/**
 * The redactor's screen (harness/redact.ts): a cheap look at a text that says which secrets may be in it
 * in one of their textual forms, before those are searched. It is exact for the screenable secrets: with
 * every escape decoded, a text holding such a secret holds the secret's tail (an escape just before the
 * secret can swallow at most its first SCREEN_SKIP characters), or holds its hex form.
 */

/**
 * Secrets the screen is exact for: long enough, ASCII, and without the characters that begin an escape or
 * have forms of their own (% \ & ' " ; and the space, which a + may stand for), which would let escapes
 * overlap them in ways the screen does not follow. Any other secret's patterns are tried on every text.
 */
export const SCREENABLE = /^[A-Za-z0-9!#$()*+,\-./:<=>?@[\]^_`{|}~]{11,}$/;
/** The most characters of a screenable secret that an escape before it can take (`\u` and four hex digits). */
const SCREEN_SKIP = 5;
/** Tails are grouped by this many first characters (a tail has at least six): one search per group says no to all. */
const GROUP = 6;
/** The most places of a group kept; a group found more often is searched for each tail in the whole text. */
const PLACES = 8;
/** Every escape a form of a screenable character can take (characterPattern), to decode before the screen. */
const ESCAPES = /%([0-9a-fA-F]{2})|\\+u([0-9a-fA-F]{4})|\\+([\/"])|&(amp|lt|gt|quot|apos);|&#0*([0-9]+);|&#[xX]0*([0-9a-fA-F]+);/g;
/** Whether the text holds a character an escape begins with (three searches: a regex of the three was twenty times slower). */
export const hasEscapeStart = (text: string) => text.includes('%') || text.includes('\\') || text.includes('&');
/** The hex form of a screenable secret (11 characters or more) is a run of at least this many hex digits. */
const HEX_RUN = 22;
const NAMED_ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function decodeEscape(_m: string, pct?: string, u?: string, char?: string, named?: string, dec?: string, hex?: string): string {
  if (pct) return String.fromCharCode(parseInt(pct, 16));
  if (u) return String.fromCharCode(parseInt(u, 16));
  if (char) return char;
  if (named) return NAMED_ENTITY[named];
  const code = dec ? Number(dec) : parseInt(hex!, 16);
  return code <= 0x10ffff ? String.fromCodePoint(code) : '';
}

/** Whether the text holds `length` hex digits in a row (one pass: a regex tries every start again). */
export function hasHexRun(text: string, length: number): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const letter = c | 0x20;
    if ((c >= 0x30 && c <= 0x39) || (letter >= 0x61 && letter <= 0x66)) {
      if (++run === length) return true;
    } else run = 0;
  }
  return false;
}

/** What a text must hold, once decoded, for a screenable secret's forms to be worth searching. */
export interface Screen {
  group: string;
  tail: string;
  hex: string;
}

export const screenFor = (secret: string): Screen => {
  const tail = secret.slice(SCREEN_SKIP);
  return { group: tail.slice(0, GROUP), tail, hex: Buffer.from(secret, 'utf8').toString('hex') };
};

/**
 * A text as the screen reads it: with every escape decoded, and in lower case where it has a long hex
 * run. Each is made when first asked, and each group's search once: most texts hold no secret, and a
 * long body searched once per secret cost a millisecond.
 */
export class ScreenView {
  private decodedText?: string;
  private lowerText?: string | null;
  /** Where each group's characters are in the decoded text (only the first few places are kept). */
  private groups = new Map<string, number[]>();

  constructor(private readonly text: string) {}

  private get decoded(): string {
    this.decodedText ??= hasEscapeStart(this.text) ? this.text.replace(ESCAPES, decodeEscape) : this.text;
    return this.decodedText;
  }

  private get lower(): string | null {
    if (this.lowerText === undefined) this.lowerText = hasHexRun(this.text, HEX_RUN) ? this.text.toLowerCase() : null;
    return this.lowerText;
  }

  /** Whether a screenable secret may be in the text: its tail, or its hex form, is there. */
  passes({ group, tail, hex }: Screen): boolean {
    return this.holdsTail(group, tail) || (this.lower?.includes(hex) ?? false);
  }

  private holdsTail(group: string, tail: string): boolean {
    const at = this.placesOf(group);
    if (!at.length) return false;
    // A tail begins where its group does: a few places are checked there, many by a search of the whole text.
    if (at.length > PLACES) return this.decoded.includes(tail);
    return at.some((place) => this.decoded.startsWith(tail, place));
  }

  private placesOf(group: string): number[] {
    let at = this.groups.get(group);
    if (at) return at;
    at = [];
    for (let place = this.decoded.indexOf(group); place >= 0 && at.length <= PLACES; place = this.decoded.indexOf(group, place + 1))
      at.push(place);
    this.groups.set(group, at);
    return at;
  }
}
