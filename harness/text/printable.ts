/**
 * Text a target or a file controls, made safe to print: every control character is shown, never obeyed.
 * A terminal obeys ESC (it clears the screen, moves the cursor, recolours), CR (it writes over the line),
 * BEL, backspace and the other C0 and C1 controls, and a reader's eye follows bidi overrides and isolates,
 * which reorder what is shown; an XML or HTML reader refuses most of them. Each is written as an escape
 * (`\x1b`, `\r`, `\u202e`), so a report shows what the target sent and a forged line
 * ("conformance: 80 passed, 0 failed") stays a quoted part of the line it came in. A line feed is kept
 * where a text may span lines (a failure message, whose lines are printed indented) and shown as `\n` where
 * it must not (a title, a name, a reason).
 */

/** C0 but tab and line feed, DEL, C1, the bidi marks, embeddings, overrides and isolates, the Unicode line and paragraph separators, noncharacters and lone surrogates. */
const CONTROLS =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const CONTROLS_AND_NEWLINE = new RegExp(`\\n|${CONTROLS.source}`, 'g');

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f', '\v': '\\v' };

function escaped(ch: string): string {
  const short = SHORT[ch];
  if (short) return short;
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** A first look, several times faster than CONTROLS: most texts hold none of these (a surrogate may well be a pair). */
const MAYBE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff\ud800-\udfff]/;

/** The text with every control character shown as an escape; line feeds (and tabs) kept. */
export function printable(text: string): string {
  return MAYBE.test(text) ? text.replace(CONTROLS, escaped) : text;
}

/** The text as one line: every control character, line feeds included, shown as an escape. */
export function printableLine(text: string): string {
  return MAYBE.test(text) || text.includes('\n') ? text.replace(CONTROLS_AND_NEWLINE, escaped) : text;
}

/** What JSON.stringify leaves raw of the characters above (it escapes C0 and lone surrogates itself). */
const JSON_RAW = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff]/g;

/**
 * JSON text whose every control character is written as a `\u` escape: the same value for a JSON reader,
 * nothing obeyed by a person's terminal or editor (conformance.json, the HAR files).
 */
export function printableJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(JSON_RAW, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
