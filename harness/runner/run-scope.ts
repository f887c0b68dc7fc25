/**
 * Which target the running code works for. A run has one target, except a batch run of the selftest
 * (selftest/variants/), where one vitest run checks many sandbox variants (faults, latitudes, degenerate
 * targets), each with its own target file, in the same workers: a wrapper file per variant and suite
 * file sets the variant's scope and imports the suite file with the variant in its URL, so the suite
 * file is evaluated once per variant while the harness's modules are loaded once per worker.
 *
 * Everything a module keeps for a target (its answers, controls, identifiers, the served document) is
 * kept per scope (`perScope`), so variants never share what they learned. A test carries the scope it
 * was declared in (an AsyncLocalStorage around its body, and around hooks made with `scoped`); code
 * that runs while a file is collected works for the scope of the file being collected.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { inject } from 'vitest';
import type { ProbeFailure } from '../request/probe.ts';
import type { Area } from '../areas.ts';

export interface RunScope {
  /** The target file: the key of everything kept per target. */
  targetFile: string;
  /** The sandbox variant of a batch run (a fault, latitude or degenerate target id). */
  variant?: string;
  /** Only the tests of these requirements are declared (a fault's run checks what the fault names). */
  only?: ReadonlySet<string>;
  /** Services that failed the reachability probe before the run. */
  unreachable: Partial<Record<Area, ProbeFailure>>;
}

const storage = new AsyncLocalStorage<RunScope>();
let collecting: RunScope | undefined;
let single: RunScope | undefined;

/** The run's one scope, from what the global setup provided (a run that is not a batch). */
function singleScope(): RunScope {
  return (single ??= { targetFile: inject('targetFile'), unreachable: inject('unreachable') ?? {} });
}

/** A batch wrapper file: the suite file it imports next is collected, and its tests run, for `scope`. */
export function enterScope(scope: RunScope): void {
  collecting = scope;
}

export function currentScope(): RunScope {
  return storage.getStore() ?? collecting ?? singleScope();
}

/** Runs `body` for `scope`: everything it calls, however deep and however async, works for that target. */
export function inScope<T>(scope: RunScope, body: () => T): T {
  return storage.run(scope, body);
}

/** A hook (beforeAll, afterAll) that runs for the scope of the file that declared it. */
export function scoped<T>(hook: () => T): () => T {
  const scope = currentScope();
  return () => inScope(scope, hook);
}

/**
 * A value kept per target (per scope), made on first use: the one memo of module state that belongs to a
 * target. `make` gets the scope it is made for.
 */
export function perScope<T>(make: (scope: RunScope) => T): () => T {
  const values = new Map<string, T>();
  return () => {
    const scope = currentScope();
    const key = scope.variant ? `${scope.variant}\n${scope.targetFile}` : scope.targetFile;
    if (!values.has(key)) values.set(key, make(scope));
    return values.get(key)!;
  };
}

/** A Map kept per target: the same interface, each scope seeing only its own entries. */
export class ScopedMap<K, V> {
  private readonly map = perScope(() => new Map<K, V>());
  get(key: K): V | undefined {
    return this.map().get(key);
  }
  set(key: K, value: V): this {
    this.map().set(key, value);
    return this;
  }
  has(key: K): boolean {
    return this.map().has(key);
  }
  delete(key: K): boolean {
    return this.map().delete(key);
  }
  get size(): number {
    return this.map().size;
  }
  keys(): IterableIterator<K> {
    return this.map().keys();
  }
  values(): IterableIterator<V> {
    return this.map().values();
  }
  entries(): IterableIterator<[K, V]> {
    return this.map().entries();
  }
}

/** A Set kept per target. */
export class ScopedSet<T> {
  private readonly set = perScope(() => new Set<T>());
  add(value: T): this {
    this.set().add(value);
    return this;
  }
  has(value: T): boolean {
    return this.set().has(value);
  }
  get size(): number {
    return this.set().size;
  }
}
