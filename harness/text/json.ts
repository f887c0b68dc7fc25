/**
 * The one test of "a JSON object" (not an array, not null) the harness and the generators use when they
 * read bodies, schemas and documents. The type parameter names what the object is read as.
 */
export type JsonObject = Record<string, unknown>;

export function isJsonObject<T extends object = JsonObject>(value: unknown): value is T {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A place in a JSON value, one key or array index per step. "*" stands for every item of an array:
 * a body schema's field inside an array (items.*.weight) is set in every item.
 */
export type JsonPath = readonly string[];

/**
 * Sets the value (a copy of it) at the path, in place. Existing objects and arrays on the way are
 * followed (an array by its index); a missing object is made, and a missing array where the path
 * says "*" becomes one empty item. A path may neither start nor end with "*".
 */
export function setAt(root: JsonObject | unknown[], path: JsonPath, value: unknown): void {
  const [head, ...rest] = path;
  if (head === undefined || head === '*') throw new RangeError(`setAt: a path cannot ${head === undefined ? 'be empty' : 'start with *'}`);
  const node = root as Record<string, unknown>;
  if (!rest.length) {
    node[head] = structuredClone(value);
    return;
  }
  if (rest[0] === '*') {
    if (rest.length === 1) throw new RangeError('setAt: a path cannot end with *');
    if (!Array.isArray(node[head]) || !(node[head] as unknown[]).length) node[head] = [{}];
    for (const item of node[head] as unknown[]) if (isJsonObject(item) || Array.isArray(item)) setAt(item, rest.slice(1), value);
    return;
  }
  if (!isJsonObject(node[head]) && !Array.isArray(node[head])) node[head] = {};
  setAt(node[head] as JsonObject, rest, value);
}

/** The value at the path ("*" reads the first item), or undefined where the path is absent. */
export function getAt(root: unknown, path: JsonPath): unknown {
  let node = root;
  for (const step of path) {
    if (step === '*') node = Array.isArray(node) ? node[0] : undefined;
    else node = isJsonObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[step] : undefined;
  }
  return node;
}

/** Removes the value at the path, in place ("*" from every item); nothing happens where the path is absent. */
export function removeAt(root: JsonObject, path: JsonPath): void {
  const [head, ...rest] = path;
  if (head === undefined || !(head in root)) return;
  if (!rest.length) {
    delete root[head];
    return;
  }
  const next = root[head];
  if (rest[0] === '*' && Array.isArray(next))
    for (const item of next) isJsonObject(item) && rest.length > 1 && removeAt(item, rest.slice(1));
  else if (isJsonObject(next)) removeAt(next, rest);
}

/** The steps of a JSON Pointer (RFC 6901): "/a/0/b~1c" is ["a", "0", "b/c"]. */
export function pointerSteps(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .split('/')
        .slice(1)
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The JSON Pointer of steps, pointerSteps's inverse: ["a", 0, "b/c"] is "/a/0/b~1c". */
export function pointerOf(steps: ReadonlyArray<string | number>): string {
  return steps.map((step) => `/${String(step).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** The JSON text of a value with every object's keys sorted: two values that differ only in key order have the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isJsonObject(value))
    return `{${Object.keys(value)
      .sort()
      .filter((k) => value[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}
