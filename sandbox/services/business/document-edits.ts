/**
 * Small edits of the sandbox's parsed document, for document faults: each finds its place by path or
 * component name and throws when the place is not there or already as wanted, so that a fault can
 * never silently do nothing.
 */
export type Node = Record<string, unknown>;

export function at(doc: Node, ...keys: string[]): Node {
  let node: unknown = doc;
  for (const key of keys) {
    node = node && typeof node === 'object' ? (node as Node)[key] : undefined;
    if (!node || typeof node !== 'object') throw new Error(`document fault: ${keys.join(' › ')} is not in the sandbox document`);
  }
  return node as Node;
}

export const schema = (doc: Node, name: string) => at(doc, 'components', 'schemas', name);
export const properties = (doc: Node, name: string) => at(schema(doc, name), 'properties');
export const operation = (doc: Node, path: string, method: string) => at(doc, 'paths', path, method);

export type Edit = (doc: Node) => void;

/** Removes a property (and its place in `required`). */
export const drop =
  (name: string, property: string): Edit =>
  (doc) => {
    const props = properties(doc, name);
    if (!(property in props)) throw new Error(`document fault: ${name} has no ${property}`);
    delete props[property];
    const s = schema(doc, name);
    if (Array.isArray(s.required)) s.required = s.required.filter((r) => r !== property);
  };

/** Makes an optional property required. */
export const require =
  (name: string, property: string): Edit =>
  (doc) => {
    if (!(property in properties(doc, name))) throw new Error(`document fault: ${name} has no ${property}`);
    const s = schema(doc, name);
    const list = Array.isArray(s.required) ? s.required : [];
    if (list.includes(property)) throw new Error(`document fault: ${name}.${property} is already required`);
    s.required = [...list, property];
  };

/** Makes a required property optional. */
export const unrequire =
  (name: string, property: string): Edit =>
  (doc) => {
    const s = schema(doc, name);
    if (!Array.isArray(s.required) || !s.required.includes(property))
      throw new Error(`document fault: ${name}.${property} is not required`);
    s.required = s.required.filter((r) => r !== property);
  };

/** Adds a property the spec says does not exist (any more). */
export const add =
  (name: string, property: string, value: Node = { type: 'string', maxLength: 2048 }): Edit =>
  (doc) => {
    const props = properties(doc, name);
    if (property in props) throw new Error(`document fault: ${name} already has ${property}`);
    props[property] = value;
  };

/** Replaces a property's schema. */
export const retype =
  (name: string, property: string, value: Node): Edit =>
  (doc) => {
    at(properties(doc, name), property);
    properties(doc, name)[property] = value;
  };

/** Drops a value from an enum (of a named schema, or of one of its properties). */
export const dropValue =
  (name: string, value: string, property?: string): Edit =>
  (doc) => {
    const node = property ? at(properties(doc, name), property) : schema(doc, name);
    if (!Array.isArray(node.enum) || !node.enum.includes(value))
      throw new Error(`document fault: ${name}${property ? `.${property}` : ''} has no enum value ${value}`);
    node.enum = node.enum.filter((v) => v !== value);
  };

export const addValue =
  (name: string, value: string): Edit =>
  (doc) => {
    const node = schema(doc, name);
    if (!Array.isArray(node.enum) || node.enum.includes(value)) throw new Error(`document fault: ${name} cannot take enum value ${value}`);
    node.enum = [...node.enum, value];
  };

export const undeprecate =
  (path: string, method: string): Edit =>
  (doc) => {
    const op = operation(doc, path, method);
    if (op.deprecated !== true) throw new Error(`document fault: ${method} ${path} is not deprecated`);
    delete op.deprecated;
  };

const isRef = (p: unknown, ref: string) => typeof p === 'object' && p !== null && (p as Node).$ref === `#/components/parameters/${ref}`;
const isNamed = (p: unknown, name: string) => typeof p === 'object' && p !== null && (p as Node).name === name;

/** Changes one operation's parameter (a shared one is copied in first, so the other operations keep theirs). */
export const param =
  (path: string, method: string, ref: string, change: (p: Node) => void): Edit =>
  (doc) => {
    const list = at(operation(doc, path, method), 'parameters') as unknown as unknown[];
    const i = list.findIndex((p) => isRef(p, ref) || isNamed(p, ref));
    if (i < 0) throw new Error(`document fault: ${method} ${path} has no parameter ${ref}`);
    const copy = structuredClone(isRef(list[i], ref) ? at(doc, 'components', 'parameters', ref) : (list[i] as Node));
    change(copy);
    list[i] = copy;
  };

/** Removes one operation's parameter. */
export const dropParam =
  (path: string, method: string, ref: string): Edit =>
  (doc) => {
    const op = operation(doc, path, method);
    const list = at(op, 'parameters') as unknown as unknown[];
    const kept = list.filter((p) => !isRef(p, ref) && !isNamed(p, ref));
    if (kept.length === list.length) throw new Error(`document fault: ${method} ${path} has no parameter ${ref}`);
    op.parameters = kept;
  };

/**
 * Renames the media key `from` to `to` in every content map under `node` (request bodies and answers,
 * of operations and components), keeping its place; throws when there is none to rename.
 */
export function renameMedia(node: Node, from: string, to: string): void {
  let renamed = 0;
  const visit = (value: unknown): void => {
    if (!value || typeof value !== 'object') return;
    const content = (value as Node).content;
    if (!Array.isArray(value) && content && typeof content === 'object' && from in content) {
      (value as Node).content = Object.fromEntries(Object.entries(content).map(([key, media]) => [key === from ? to : key, media]));
      renamed++;
    }
    Object.values(value).forEach(visit);
  };
  visit(node);
  if (!renamed) throw new Error(`document edit: no content keyed ${from}`);
}

/** Every JSON media key of the document written with its charset, as some generators write it. */
export const JSON_WITH_CHARSET = 'application/json;charset=UTF-8';
export const jsonKeyedWithCharset: Edit = (doc) => renameMedia(doc, 'application/json', JSON_WITH_CHARSET);

export const all =
  (...edits: Edit[]): Edit =>
  (doc) =>
    edits.forEach((e) => e(doc));

/** A fault of the served document: an edit of the parsed document, of its YAML text, or an error status instead of it. */
export interface DocumentFault {
  id: string;
  catches: string[];
  description: string;
  edit?: (doc: Node) => void;
  text?: (yaml: string) => string;
  /** The route answers this status with the business error body instead of the document. */
  status?: number;
}
