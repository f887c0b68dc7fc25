/**
 * Plain helpers of the rule suites, with no target behind them (unit-tested in the selftest): editing a
 * JSON body along a path whose "*" steps through arrays, and taxpayer numbers with valid check digits.
 */
import { randomInt } from 'node:crypto';

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
export type Path = Array<string>;

/** Sets the value at a path, making missing objects (and one-item arrays for "*"); "*" sets every item. */
export function setAt(body: Node, path: Path, value: unknown): void {
  const [head, ...rest] = path;
  if (head === '*') throw new Error('setAt: a path cannot start with *');
  if (!rest.length) {
    body[head] = structuredClone(value);
    return;
  }
  if (rest[0] === '*') {
    if (!Array.isArray(body[head]) || !(body[head] as unknown[]).length) body[head] = [{}];
    if (rest.length === 1) throw new Error('setAt: a path cannot end with *');
    for (const item of body[head] as unknown[]) if (isNode(item)) setAt(item, rest.slice(1), value);
    return;
  }
  if (!isNode(body[head])) body[head] = {};
  setAt(body[head] as Node, rest, value);
}

/** Removes the value at a path ("*" from every item); nothing happens where the path is absent. */
export function removeAt(body: Node, path: Path): void {
  const [head, ...rest] = path;
  if (!(head in body)) return;
  if (!rest.length) {
    delete body[head];
    return;
  }
  const next = body[head];
  if (rest[0] === '*' && Array.isArray(next)) for (const item of next) isNode(item) && rest.length > 1 && removeAt(item, rest.slice(1));
  else if (isNode(next)) removeAt(next, rest);
}

export function getAt(body: unknown, path: Path): unknown {
  let node = body;
  for (const step of path) {
    if (step === '*') node = Array.isArray(node) ? node[0] : undefined;
    else node = isNode(node) ? node[step] : undefined;
  }
  return node;
}

/** A 10-digit inn with valid check digit. */
export function innLegal(): string {
  const d = Array.from({ length: 9 }, () => randomInt(10));
  d[0] = 1 + randomInt(9);
  const w = [2, 4, 10, 3, 5, 9, 4, 6, 8];
  return [...d, (w.reduce((s, x, i) => s + x * d[i], 0) % 11) % 10].join('');
}

/** A 12-digit inn with valid check digits. */
export function innIndividual(): string {
  const d = Array.from({ length: 10 }, () => randomInt(10));
  d[0] = 1 + randomInt(9);
  const c1 = ([7, 2, 4, 10, 3, 5, 9, 4, 6, 8].reduce((s, x, i) => s + x * d[i], 0) % 11) % 10;
  const c2 = ([3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8].reduce((s, x, i) => s + x * [...d, c1][i], 0) % 11) % 10;
  return [...d, c1, c2].join('');
}

