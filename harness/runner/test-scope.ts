/**
 * The running test's scope, carried by AsyncLocalStorage so that the HTTP client can honour it without
 * every suite passing it along: the abort signal that fires when the test's time budget runs out, and
 * the list of exchanges the test made or judged (its evidence). Outside a test (a bench, a script, the
 * global setup, a hook) there is no scope: nothing is aborted, and an exchange belongs to no test until
 * one cites it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface TestScope {
  /** Aborted when the test's time budget runs out; every request of the test is aborted with it. */
  signal: AbortSignal;
  /** The requirement the test checks, for messages. */
  requirement: string;
  evidence?: TestEvidence;
}

const storage = new AsyncLocalStorage<TestScope>();

export function withTestScope<T>(scope: TestScope, body: () => Promise<T>): Promise<T> {
  return storage.run(scope, body);
}

export function currentTestScope(): TestScope | undefined {
  return storage.getStore();
}

/** What an exchange was to a test beyond being made or judged by it: the control a refusal stood next to. */
export type EvidenceRole = 'control';

/** The exchanges one test made or judged, in the order it met them, each with its role if it has one. */
export class TestEvidence {
  readonly cited = new Map<string, EvidenceRole | undefined>();
  cite(id: string, role?: EvidenceRole): void {
    if (role || !this.cited.has(id)) this.cited.set(id, role ?? this.cited.get(id));
  }
  /** Takes a citation back: the exchange was withdrawn before anything was sent. */
  uncite(id: string): void {
    this.cited.delete(id);
  }
}
