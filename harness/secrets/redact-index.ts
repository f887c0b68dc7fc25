/**
 * The redactor's indexes of many strings (harness/secrets/redact.ts): which of them a text holds, and which a
 * text ends with the start of or begins with the end of, each found by one look at the text instead of
 * one search per string. A target file's token pool registers every token as a secret: with a search per
 * secret, each text cost time in proportion to the pool, and a pool of 3,000 tokens made a 13-test file
 * take twelve times as long.
 */

/** Strings are indexed by one run of this many characters each (7-bit ASCII, packed into a number). */
const GRAM = 4;
/** Up to this many distinct runs are searched for one by one (the engine's search beats a look at every place). */
const FEW_GRAMS = 8;

const ASCII = /^[\x00-\x7f]*$/;

/** The GRAM characters at `at`, packed (7 bits each: a character beyond them only makes a lookup that finds nothing true). */
const gramAt = (text: string, at: number) =>
  (text.charCodeAt(at) << 21) | (text.charCodeAt(at + 1) << 14) | (text.charCodeAt(at + 2) << 7) | text.charCodeAt(at + 3);

/** The size of the set of bits runs are hashed into (2^20: 128 KiB; ten thousand runs leave one place in a hundred set). */
const RUN_BITS = 1 << 20;
const runBit = (run: number) => Math.imul(run, 0x9e3779b1) >>> 12;

interface Entry {
  id: number;
  /** Where the indexed run begins in the string. */
  offset: number;
}

/**
 * Which of a list of strings (needles) a text holds. Each needle is indexed by the run of GRAM
 * characters in it that the fewest needles share (a pool's tokens share long prefixes, and would all be
 * looked at wherever one of them is); the text is looked at once, at each place where an indexed run
 * begins, and each needle found there is compared whole. A needle too short to index, or not ASCII, is
 * searched for on its own.
 */
export class NeedleIndex {
  private readonly alone: number[] = [];
  private readonly byGram = new Map<number, Entry[]>();
  private readonly grams: string[] = [];
  /**
   * Every indexed run, hashed into a set of bits, for a first look at each place: a run's first two
   * characters alone let through every pair of digits of a text when the needles are numbered tokens.
   */
  private readonly runBits = new Uint32Array(RUN_BITS / 32);

  constructor(private readonly needles: readonly string[]) {
    const indexable = (needle: string) => needle.length >= GRAM && ASCII.test(needle);
    // Counted by packed runs, not by strings: a pool of 10,000 tokens has over 100,000 runs.
    const shared = new Map<number, number>();
    for (const needle of needles) {
      if (!indexable(needle)) continue;
      for (let at = 0; at + GRAM <= needle.length; at++) {
        const run = gramAt(needle, at);
        shared.set(run, (shared.get(run) ?? 0) + 1);
      }
    }
    needles.forEach((needle, id) => {
      if (!indexable(needle)) return void this.alone.push(id);
      let offset = 0;
      let fewest = shared.get(gramAt(needle, 0))!;
      for (let at = 1; at + GRAM <= needle.length; at++) {
        const count = shared.get(gramAt(needle, at))!;
        if (count < fewest) [offset, fewest] = [at, count];
      }
      const key = gramAt(needle, offset);
      const entries = this.byGram.get(key);
      if (entries) entries.push({ id, offset });
      else {
        this.byGram.set(key, [{ id, offset }]);
        this.grams.push(needle.slice(offset, offset + GRAM));
        const bit = runBit(key);
        this.runBits[bit >>> 5] |= 1 << (bit & 31);
      }
    });
  }

  /** The needles the text holds, by their place in the list, ascending. */
  in(text: string): number[] {
    const found = new Set<number>();
    for (const id of this.alone) if (text.includes(this.needles[id])) found.add(id);
    const look = (at: number) => {
      for (const { id, offset } of this.byGram.get(gramAt(text, at)) ?? [])
        if (!found.has(id) && at >= offset && text.startsWith(this.needles[id], at - offset)) found.add(id);
    };
    if (this.grams.length <= FEW_GRAMS) {
      for (const gram of this.grams) for (let at = text.indexOf(gram); at >= 0; at = text.indexOf(gram, at + 1)) look(at);
    } else {
      // The run ending at each place, rolled on by one character (one read per place, not four).
      const bits = this.runBits;
      let run = 0;
      for (let at = 0; at < text.length; at++) {
        run = ((run << 7) | (text.charCodeAt(at) & 0x7f)) & 0xfffffff;
        if (at < GRAM - 1) continue;
        const bit = runBit(run);
        if (bits[bit >>> 5] & (1 << (bit & 31))) look(at - GRAM + 1);
      }
    }
    return [...found].sort((a, b) => a - b);
  }
}

/**
 * A text that ends with the start of one of a list of strings, or begins with the end of one, by at
 * least `min` characters and less than the whole string: a secret cut short by an ellipsis, or by the end
 * of a base64 run. The strings are indexed by their first and their last `min` characters.
 */
export class Overlaps {
  private readonly byStart = new Map<string, string[]>();
  private readonly byEnd = new Map<string, string[]>();
  private readonly longest: number;

  constructor(
    forms: readonly string[],
    private readonly min: number,
  ) {
    const add = (map: Map<string, string[]>, key: string, form: string) => {
      const list = map.get(key);
      if (list) list.push(form);
      else map.set(key, [form]);
    };
    for (const form of forms) {
      if (form.length <= min) continue;
      add(this.byStart, form.slice(0, min), form);
      add(this.byEnd, form.slice(-min), form);
    }
    this.longest = forms.reduce((most, form) => Math.max(most, form.length), 0);
  }

  /** The length of the longest end of `text` that begins one of the strings, or 0. */
  endOf(text: string): number {
    for (let at = Math.max(0, text.length - this.longest + 1); at <= text.length - this.min; at++) {
      const end = text.slice(at);
      if (this.byStart.get(text.slice(at, at + this.min))?.some((form) => form.length > end.length && form.startsWith(end)))
        return end.length;
    }
    return 0;
  }

  /** The length of the longest start of `text` that ends one of the strings, or 0. */
  startOf(text: string): number {
    for (let length = Math.min(this.longest - 1, text.length); length >= this.min; length--) {
      const start = text.slice(0, length);
      if (this.byEnd.get(text.slice(length - this.min, length))?.some((form) => form.length > length && form.endsWith(start)))
        return length;
    }
    return 0;
  }
}
