/**
 * Faults as modifiers: a fault entry says, besides what it breaks, how it breaks it, as one of a few
 * kinds of edit around a handler that knows nothing of faults:
 *   request   edits the request before the handler sees it (a field coerced, a form body read as JSON);
 *   checks    replaces named checks of the handler (a check switched off, a limit off by one);
 *   settings  changes a setting the handler reads (5 requests per second instead of 20);
 *   answer    edits the handler's answer before it is sent (a status, a header, a field of the body).
 * The handler reads as the specification, the catalog as a list of defects. A fault that names a rule
 * or a setting the handler does not have throws when the service starts, so it can never silently do
 * nothing.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { incomingOf, sendAnswer, type Answer, type Incoming } from '../exchange.ts';
import type { SandboxArea } from './types.ts';
import type { Fault, FaultSet, Latitude, Variation } from './types.ts';

/** The types one handler is written in: its request, its answer, its named rules and its settings. */
export interface HandlerShape {
  request: unknown;
  answer: Answer;
  checks: object;
  settings: object;
}

export interface Behaviour<S extends HandlerShape> {
  request?: (request: S['request']) => S['request'];
  /** Named rules replaced; or made of `memory`, which belongs to this fault in this sandbox, for a rule that remembers (a cache). */
  checks?: Partial<S['checks']> | ((memory: Map<string, unknown>) => Partial<S['checks']>);
  settings?: Partial<S['settings']>;
  /** `memory` belongs to this fault in this sandbox, for a fault that remembers earlier answers. */
  answer?: (answer: S['answer'], request: S['request'], memory: Map<string, S['answer']>) => S['answer'];
}

export type ModifierFault<S extends HandlerShape> = Fault & Behaviour<S>;
export type ModifierLatitude<S extends HandlerShape> = Latitude & Behaviour<S>;
/** A fault or a latitude with its edits: what `modifiersOf` folds in when it is on. */
export type ModifierVariation<S extends HandlerShape> = Variation & Behaviour<S>;

/** The maker of one area's catalog entries: `fault(id, catches, description, behaviour)`. */
export const faultsOf =
  <S extends HandlerShape>(area: SandboxArea) =>
  (id: string, catches: string[], description: string, behaviour: Behaviour<S>): ModifierFault<S> => ({
    id,
    area,
    catches,
    description,
    ...behaviour,
  });

/** The maker of one area's latitudes: `latitude(id, allows, description, behaviour)`; `allows` quotes the spec. */
export const latitudesOf =
  <S extends HandlerShape>(area: SandboxArea) =>
  (id: string, allows: string[], description: string, behaviour: Behaviour<S>, reading?: string): ModifierLatitude<S> => ({
    id,
    area,
    allows,
    description,
    ...(reading ? { reading } : {}),
    ...behaviour,
  });

/** The faults that are on, folded into one set of rules, settings and edits for the handler. */
export interface Modifiers<S extends HandlerShape> {
  checks: S['checks'];
  settings: S['settings'];
  request(request: S['request']): S['request'];
  answer(answer: S['answer'], request: S['request']): S['answer'];
}

export function modifiersOf<S extends HandlerShape>(
  catalog: readonly ModifierVariation<S>[],
  faults: FaultSet,
  base: { checks: S['checks']; settings: S['settings'] },
): Modifiers<S> {
  const on = catalog.filter((f) => faults.has(f.id));
  for (const f of on) {
    const picked = (f.answer as { rule?: string } | undefined)?.rule;
    if (picked !== undefined && !Object.hasOwn(base.checks, picked))
      throw new Error(`fault ${f.id} edits the refusals of the rule "${picked}", which the handler does not have`);
  }
  const checks = replaced(
    base.checks,
    on.map((f) => ({ id: f.id, values: typeof f.checks === 'function' ? f.checks(new Map()) : f.checks })),
    'rule',
  );
  const settings = replaced(
    base.settings,
    on.map((f) => ({ id: f.id, values: f.settings })),
    'setting',
  );
  const memories = new Map(on.map((f) => [f.id, new Map<string, S['answer']>()]));
  return {
    checks,
    settings,
    request: (request) => on.reduce((r, f) => (f.request ? f.request(r) : r), request),
    answer: (answer, request) => on.reduce((a, f) => (f.answer ? f.answer(a, request, memories.get(f.id)!) : a), answer),
  };
}

/** The route of one handler with the faults that are on: request edits, the handler, answer edits, sent. */
export function route<S extends HandlerShape & { request: Incoming }>(modifiers: Modifiers<S>, handle: (request: Incoming) => S['answer']) {
  return routeReading(modifiers, incomingOf, handle);
}

/** The same, for a handler whose request is made by `read` (raw bytes, say) instead of `incomingOf`. */
export function routeReading<S extends HandlerShape>(
  modifiers: Modifiers<S>,
  read: (request: FastifyRequest) => S['request'] | Promise<S['request']>,
  handle: (request: S['request']) => S['answer'],
) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const incoming = modifiers.request(await read(request));
    return sendAnswer(reply, modifiers.answer(handle(incoming), incoming));
  };
}

/** A table of named rules of one type, in the order they run: the names stay literal, each rule takes the table's type. */
export const namedRules =
  <R>() =>
  <K extends string>(checks: Record<K, R>): Record<K, R> =>
    checks;

function replaced<T extends object>(base: T, on: ReadonlyArray<{ id: string; values?: object }>, what: string): T {
  const out = { ...base } as Record<string, unknown>;
  for (const fault of on) {
    for (const [name, value] of Object.entries(fault.values ?? {})) {
      if (!Object.hasOwn(base, name))
        throw new Error(
          `fault ${fault.id} replaces the ${what} "${name}", which the handler does not have (it has ${Object.keys(base).join(', ')})`,
        );
      out[name] = value;
    }
  }
  return out as unknown as T;
}

/** Whether a fault or latitude entry does anything by itself (and is not a `faults.has` branch inside a handler). */
export function isModifier(fault: Variation): boolean {
  const f = fault as ModifierVariation<HandlerShape>;
  return Boolean(
    f.request ||
      f.answer ||
      typeof f.checks === 'function' ||
      (f.checks && Object.keys(f.checks).length) ||
      (f.settings && Object.keys(f.settings).length),
  );
}

// ── Small edits a catalog is written with ────────────────────────────────────────────────────────────

/** A rule that never refuses: what a rule switched off is replaced with. */
export const never = (): undefined => undefined;

/** An answer edit applied only to the refusals of one named rule (the rule's name is checked at start, as a replaced rule's is). */
export function onRefusal<A extends Answer, R>(
  rule: string,
  edit: (answer: A, request: R) => A,
): ((answer: A, request: R) => A) & { rule: string } {
  return Object.assign((answer: A, request: R) => (answer.refusedBy === rule ? edit(answer, request) : answer), { rule });
}

/** An edit of the body of the answers `when` picks: the body is copied first, so what the handler keeps is never touched. */
export function editBody<A extends Answer, B = Record<string, unknown>>(
  when: (answer: A) => boolean,
  edit: (body: B, answer: A) => B | void,
): (answer: A) => A {
  return (answer) => {
    if (!when(answer) || answer.body === undefined) return answer;
    const body = structuredClone(answer.body) as B;
    return { ...answer, body: edit(body, answer) ?? body };
  };
}

export const withHeader = <A extends Answer>(answer: A, name: string, value: string): A => ({
  ...answer,
  headers: { ...answer.headers, [name]: value },
});

/** The answer with no body and no Content-Type. */
export function withoutBody<A extends Answer>(answer: A): A {
  const { 'content-type': _type, ...headers } = answer.headers;
  return { ...answer, headers, body: undefined };
}

/**
 * A request edit of a JSON object body: the text is parsed, edited and written again only when the edit
 * changed something, so a body it leaves alone keeps its exact bytes (a number like 1e400 included).
 */
export function editJsonBody<R extends { text: string }>(edit: (body: Record<string, unknown>) => void): (request: R) => R {
  return (request) => {
    let body: unknown;
    try {
      body = JSON.parse(request.text);
    } catch {
      return request;
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return request;
    const before = JSON.stringify(body);
    edit(body as Record<string, unknown>);
    const after = JSON.stringify(body);
    return after === before ? request : { ...request, text: after };
  };
}

/**
 * Runs one group of named rules, in the group's order, on one value: the first that finds something
 * wins, with its name (an answer edit can then pick the refusals of one rule). Each rule is taken from
 * `checks`, the handler's checks with the faults' replacements, never from the group itself.
 */
export function firstFound<G extends Record<string, (value: never) => unknown>>(
  checks: { [name in keyof G]: G[name] },
  group: G,
  value: Parameters<G[keyof G]>[0],
): { rule: keyof G & string; found: NonNullable<ReturnType<G[keyof G]>> } | undefined {
  for (const rule of Object.keys(group) as Array<keyof G & string>) {
    const found = (checks[rule] as unknown as (value: unknown) => unknown)(value) as NonNullable<ReturnType<G[keyof G]>> | undefined;
    if (found !== undefined) return { rule, found };
  }
  return undefined;
}
