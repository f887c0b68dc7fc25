/**
 * The redactor's screen (harness/secrets/redact.ts): a cheap look at a text that says which secrets may be in it
 * in one of their textual forms, before those are searched. It is exact for the screenable secrets: with
 * every escape decoded, a text holding such a secret holds the secret's tail (an escape just before the
 * secret can swallow at most its first SCREEN_SKIP characters), or holds its hex form; or the text holds
 * the tail as it is (a numeric entity, `&#` before the secret and `;` after it, swallows a secret of digits whole).
 */
import { NeedleIndex } from './redact-index.ts';

/**
 * Secrets the screen is exact for: ASCII, and without the characters that begin an escape or
 * have forms of their own (% \ & ' " ; and the space, which a + may stand for), which would let escapes
 * overlap them in ways the screen does not follow. Any other secret's patterns are tried on every text.
 */
export const SCREENABLE = /^[A-Za-z0-9!#$()*+,\-./:<=>?@[\]^_`{|}~]+$/;
/**
 * The most characters of a screenable secret that an escape before it can take (`\u` and four hex
 * digits): its tail after them is in the decoded text (empty for a secret this short, which any text may hold).
 */
const SCREEN_SKIP = 5;
/** Every escape a form of a screenable character can take (characterPattern), to decode before the screen. */
const ESCAPES = /%([0-9a-fA-F]{2})|\\+u([0-9a-fA-F]{4})|\\+([\/"])|&(amp|lt|gt|quot|apos);|&#0*([0-9]+);|&#[xX]0*([0-9a-fA-F]+);/g;
/** Whether the text holds a character an escape begins with (three searches: a regex of the three was twenty times slower). */
export const hasEscapeStart = (text: string) => text.includes('%') || text.includes('\\') || text.includes('&');
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

/**
 * The screen of a list of screenable secrets: which of them a text may hold in one of their textual forms
 * (its tail in the text as it is, or with every escape decoded, or in a run of hex digits decoded), found
 * for all of them at once (redact-index.ts): a target's token pool makes thousands of secrets.
 */
export class SecretScreen {
  private readonly tails: NeedleIndex;
  /** Runs of hex digits as long as the shortest secret's hex form: a text without one holds no hex form. */
  private readonly hexRun: number;
  private readonly hexRuns: RegExp;

  constructor(secrets: readonly string[]) {
    this.tails = new NeedleIndex(secrets.map((secret) => secret.slice(SCREEN_SKIP)));
    this.hexRun = 2 * Math.min(...secrets.map((secret) => secret.length));
    this.hexRuns = new RegExp(`[0-9a-fA-F]{${Number.isFinite(this.hexRun) ? this.hexRun : 1},}`, 'g');
  }

  /** The secrets (by their place in the list, ascending) the text may hold. */
  mayHold(text: string): number[] {
    const found = this.tails.in(text);
    if (hasEscapeStart(text)) found.push(...this.tails.in(text.replace(ESCAPES, decodeEscape)));
    // A secret's hex form, decoded at the right one of two alignments, is the secret.
    if (hasHexRun(text, this.hexRun))
      for (const [run] of text.matchAll(this.hexRuns))
        for (const from of [0, 1]) found.push(...this.tails.in(Buffer.from(run.slice(from), 'hex').toString('latin1')));
    return found.length > 1 ? [...new Set(found)].sort((a, b) => a - b) : found;
  }
}
