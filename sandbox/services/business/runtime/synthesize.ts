/**
 * Plausible values from the document's schemas, for answers the sandbox keeps no record of (a company
 * card, a counterparty excerpt) and for the fields a created record does not carry. Deterministic for
 * a seed, so that reading the same thing twice gives the same data. Every optional property is filled
 * (a richer body shows more of a client's parsing); examples of the document are used where valid.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { at, escapeToken, follow, isNode, type Node } from './operations.ts';
import { validAt } from './validate.ts';

const MAX_DEPTH = 6;

function seedOf(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

/** mulberry32: small, fast and good enough for plausible data. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const patternArbitraries = new Map<string, fc.Arbitrary<string>>();
const WORDS = ['Sandbox', 'Partner', 'Business', 'Account', 'Payment', 'Service', 'Order', 'Card', 'Transfer', 'Contract'];

export class Synthesizer {
  private readonly random: () => number;
  constructor(seed: string) {
    this.random = prng(seedOf(seed));
  }

  private int(min: number, max: number): number {
    return Math.floor(min + this.random() * (max - min + 1));
  }

  pick<T>(list: readonly T[]): T {
    return list[this.int(0, list.length - 1)];
  }

  uuid(): string {
    const hex = Array.from({ length: 32 }, () => this.int(0, 15).toString(16));
    hex[12] = '4';
    hex[16] = ['8', '9', 'a', 'b'][this.int(0, 3)];
    const h = hex.join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  /** A value valid against the schema at `pointer`. */
  value(pointer: string, depth = 0): unknown {
    const where = follow(pointer);
    const node = at(where);
    if (!isNode(node)) return {};
    if ('example' in node && node.example !== undefined && validAt(where, node.example)) return structuredClone(node.example);
    if ('const' in node) return node.const;
    if (Array.isArray(node.enum) && node.enum.length) return this.pick(node.enum.filter((v) => v !== null));
    if (Array.isArray(node.allOf)) return this.allOf(where, node, depth);
    for (const key of ['oneOf', 'anyOf']) if (Array.isArray(node[key])) return this.value(`${where}/${key}/0`, depth);
    const type = typeof node.type === 'string' ? node.type : isNode(node.properties) ? 'object' : node.items ? 'array' : 'string';
    switch (type) {
      case 'object':
        return this.object(where, node, depth);
      case 'array':
        return this.array(where, node, depth);
      case 'integer':
        return this.number(node, true);
      case 'number':
        return this.number(node, false);
      case 'boolean':
        return this.random() < 0.5;
      default:
        return this.string(node);
    }
  }

  private allOf(where: string, node: Node, depth: number): unknown {
    const merged: Node = {};
    (node.allOf as unknown[]).forEach((_part, i) => Object.assign(merged, this.value(`${where}/allOf/${i}`, depth) as Node));
    if (isNode(node.properties)) Object.assign(merged, this.object(where, node, depth));
    return merged;
  }

  private object(where: string, node: Node, depth: number): Node {
    const out: Node = {};
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    for (const name of Object.keys(isNode(node.properties) ? node.properties : {})) {
      if (!required.has(name) && depth >= MAX_DEPTH) continue;
      out[name] = this.value(`${where}/properties/${escapeToken(name)}`, depth + 1);
    }
    return out;
  }

  private array(where: string, node: Node, depth: number): unknown[] {
    const min = typeof node.minItems === 'number' ? node.minItems : 0;
    const max = typeof node.maxItems === 'number' ? node.maxItems : 2;
    const count = Math.min(max, Math.max(min, depth >= MAX_DEPTH ? min : 1));
    return Array.from({ length: count }, () => this.value(`${where}/items`, depth + 1));
  }

  private number(node: Node, integer: boolean): number {
    let min = typeof node.minimum === 'number' ? node.minimum : 0;
    let max = typeof node.maximum === 'number' ? node.maximum : Math.max(min, 0) + 100_000;
    if (typeof node.exclusiveMinimum === 'number') min = node.exclusiveMinimum + (integer ? 1 : 0.01);
    if (typeof node.exclusiveMaximum === 'number') max = node.exclusiveMaximum - (integer ? 1 : 0.01);
    if (integer) return this.int(Math.ceil(min), Math.floor(max));
    const cents = this.int(Math.ceil(min * 100), Math.floor(max * 100));
    return cents / 100;
  }

  private string(node: Node): string {
    const min = typeof node.minLength === 'number' ? node.minLength : 0;
    const max = typeof node.maxLength === 'number' ? node.maxLength : 64;
    switch (node.format) {
      case 'uuid':
        return this.uuid();
      case 'date':
        return `20${this.int(20, 25)}-${String(this.int(1, 12)).padStart(2, '0')}-${String(this.int(1, 28)).padStart(2, '0')}`;
      case 'date-time':
        return new Date(
          Date.UTC(2020 + this.int(0, 5), this.int(0, 11), this.int(1, 28), this.int(0, 23), this.int(0, 59), this.int(0, 59)),
        ).toISOString();
      case 'email':
        return `client${this.int(1, 9999)}@sandbox.example`;
      case 'uri':
        return `https://sandbox.example/${this.pick(WORDS).toLowerCase()}/${this.int(1, 99999)}`;
      case 'byte':
        return Buffer.from(`sandbox ${this.int(1, 1e6)}`).toString('base64');
    }
    if (typeof node.pattern === 'string') return this.matching(node.pattern, min, max);
    let text = `${this.pick(WORDS)} ${this.int(1, 9999)}`;
    while (text.length < min) text += ` ${this.pick(WORDS)}`;
    return text.slice(0, Math.max(min, Math.min(max, text.length)));
  }

  private matching(pattern: string, min: number, max: number): string {
    let arbitrary = patternArbitraries.get(pattern);
    if (!arbitrary) patternArbitraries.set(pattern, (arbitrary = fc.stringMatching(new RegExp(pattern))));
    for (let attempt = 0; attempt < 20; attempt++) {
      const [candidate] = fc.sample(arbitrary, { seed: this.int(0, 2 ** 31 - 1), numRuns: 1 });
      if (candidate.length >= min && candidate.length <= max) return candidate;
    }
    throw new Error(`sandbox synthesizer: no string of ${min}..${max} characters matches ${pattern}`);
  }
}
