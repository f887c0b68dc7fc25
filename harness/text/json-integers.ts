/**
 * JSON text read with every integer as it was written. JSON.parse reads a number into the nearest
 * double, so 1234567890123456789 and 1234567890123456788 become one number: a check that counts or
 * compares identifiers (19-digit ids are common: snowflake ids, int64 keys) would call two ids one.
 * Here an integer literal beyond 2^53 becomes a bigint; every other value is what JSON.parse gives.
 */

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

/** The value of JSON `text`, its big integers as bigints; throws JSON.parse's SyntaxError on text that is not JSON. */
export function parseJsonKeepingIntegers(text: string): unknown {
  const plain = JSON.parse(text) as unknown;
  // Only text with a long run of digits can hold an integer a double does not keep.
  if (!/\d{16}/.test(text)) return plain;
  try {
    return new Reader(text).document();
  } catch (error) {
    // A nesting deeper than the stack: its ids stay as JSON.parse read them.
    if (error instanceof RangeError) return plain;
    throw error;
  }
}

/** A reader of text JSON.parse has accepted, so it trusts the text's syntax. */
class Reader {
  private at = 0;

  constructor(private readonly text: string) {}

  document(): unknown {
    return this.value();
  }

  private skipWhitespace(): void {
    while (WHITESPACE.has(this.text[this.at])) this.at++;
  }

  private value(): unknown {
    this.skipWhitespace();
    const c = this.text[this.at];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    return this.number();
  }

  private object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.at++;
    this.skipWhitespace();
    if (this.text[this.at] === '}') {
      this.at++;
      return out;
    }
    for (;;) {
      this.skipWhitespace();
      const key = this.string();
      this.skipWhitespace();
      this.at++; // ':'
      // As JSON.parse does: an own property, even for "__proto__"; the last of repeated keys wins.
      Object.defineProperty(out, key, { value: this.value(), enumerable: true, writable: true, configurable: true });
      this.skipWhitespace();
      if (this.text[this.at++] === '}') return out;
    }
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.at++;
    this.skipWhitespace();
    if (this.text[this.at] === ']') {
      this.at++;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.skipWhitespace();
      if (this.text[this.at++] === ']') return out;
    }
  }

  private string(): string {
    const start = this.at++;
    while (this.text[this.at] !== '"') this.at += this.text[this.at] === '\\' ? 2 : 1;
    this.at++;
    return JSON.parse(this.text.slice(start, this.at)) as string;
  }

  private number(): number | bigint {
    NUMBER.lastIndex = this.at;
    const m = NUMBER.exec(this.text)!;
    this.at += m[0].length;
    const value = Number(m[0]);
    return m[1] === undefined && m[2] === undefined && !Number.isSafeInteger(value) ? BigInt(m[0]) : value;
  }
}
