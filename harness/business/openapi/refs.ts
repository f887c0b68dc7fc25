/** JSON pointers and `$ref`s inside one document (internal references only; external ones are listed). */

export interface RefSite {
  /** JSON pointer of the object that holds the `$ref`. */
  at: string;
  ref: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

export function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapeToken(token: string): string {
  // Most tokens are plain names: nothing to decode or unescape (the schemas' $refs are followed thousands of times a run).
  if (!token.includes('%') && !token.includes('~')) return token;
  let decoded = token;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    // A token that is not valid percent-encoding is taken literally.
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The value at an internal reference ("#/components/schemas/X"), or undefined. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const pointer = ref.slice(1);
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    if (!isObject(node)) return undefined;
    const token = unescapeToken(raw);
    if (!Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** Every `$ref` string of the document, outside `example` values and `examples` arrays (literal data). */
export function collectRefs(root: unknown): RefSite[] {
  const out: RefSite[] = [];
  const seen = new WeakSet<object>();
  const walk = (node: unknown, at: string) => {
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    if (typeof (node as Record<string, unknown>).$ref === 'string') out.push({ at, ref: (node as Record<string, string>).$ref });
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example' || (key === 'examples' && Array.isArray(value))) continue;
      walk(value, `${at}/${escapePointer(key)}`);
    }
  };
  walk(root, '');
  return out;
}

/** Internal references that point nowhere, and external references (which the suite does not fetch). */
export function brokenRefs(root: unknown): { unresolved: RefSite[]; external: RefSite[] } {
  const unresolved: RefSite[] = [];
  const external: RefSite[] = [];
  for (const site of collectRefs(root)) {
    if (!site.ref.startsWith('#')) external.push(site);
    else if (resolvePointer(root, site.ref) === undefined) unresolved.push(site);
  }
  return { unresolved, external };
}
