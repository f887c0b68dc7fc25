/**
 * The named decisions of the 3-NDFL part, as spec 3.1 and the vendor make them. The routes (guard.ts,
 * workflow.ts, requests.ts) take each decision through the rules table they are given, never through
 * NDFL3_RULES directly, so that a fault can replace one by name (fault-modifiers.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Answer } from '../../../exchange.ts';
import type { State, Transition } from './machine.ts';
import type { ChatEntry, Ndfl3Store, TaxRequestRecord } from './store.ts';

/** The HTTP request as a 3-NDFL route reads it. */
export interface Ndfl3Request {
  params: Record<string, string | undefined>;
  query: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  body: Buffer | undefined;
}

/** Which route answered, for faults that edit the answers of one route. */
export type Ndfl3Route =
  | 'provision'
  | 'request'
  | 'structure'
  | 'declaration.read'
  | 'declaration.edit'
  | 'chat.read'
  | 'chat.send'
  | 'workflow'
  | 'form'
  | 'attachment'
  | 'document-data'
  | 'upload';

export type Ndfl3Answer = Answer<{ route: Ndfl3Route }>;

/** One route of this part: its method, path, name (for the faults) and handler. */
export interface Ndfl3RouteSpec {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  route: Ndfl3Route;
  handle: (request: Ndfl3Request) => Ndfl3Answer;
}

export interface DeclarationEdit {
  taxYear: number;
  answers: Array<{ questionId: string; value: string }>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const NDFL3_RULES = {
  /** Whether a request may go on: it carries a token. */
  'token.present': (token: string | undefined): boolean => token !== undefined,
  /** Whether the token is the business token. */
  'token.known': (token: string, expected: string): boolean => token === expected,
  /** The tax request the path names, if it is a uuid of one that exists. */
  'taxRequest.known': (id: string, store: Ndfl3Store): TaxRequestRecord | undefined =>
    UUID.test(id) ? store.requests.get(id.toLowerCase()) : undefined,
  /** Whether a transition is sent with If-Match. */
  'ifMatch.present': (ifMatch: string | undefined): boolean => ifMatch !== undefined,
  /** Whether If-Match names the request's current version. */
  'version.matches': (ifMatch: string, record: TaxRequestRecord): boolean => ifMatch === record.version,
  /** A repeat of the call in its target state: answered 200, nothing changed (false: refused). */
  'repeat.answered': (_t: Transition, _record: TaxRequestRecord, _store: Ndfl3Store): boolean => true,
  /** Whether the call is allowed from the request's state (the source states of machine.ts). */
  'transition.allowed': (t: Transition, record: TaxRequestRecord, _store: Ndfl3Store): boolean => t.from.includes(record.status),
  /** The state the call moves the request to. */
  'transition.target': (t: Transition): State => t.target,
  /** Keeps the new state, with a new version. */
  'transition.store': (_t: Transition, record: TaxRequestRecord, next: State, store: Ndfl3Store): void => {
    record.status = next;
    store.touch(record);
  },
  /** The answers of a declaration edit that are kept: all of them. */
  'declaration.kept': (answers: DeclarationEdit['answers']): DeclarationEdit['answers'] => answers,
  /** Keeps the edit (the version is already new). */
  'declaration.store': (record: TaxRequestRecord, edit: DeclarationEdit): void => {
    record.taxYear = edit.taxYear;
    record.answers = edit.answers;
    record.declarationUpdatedAt = record.updatedAt;
  },
  /** Keeps a message sent to the chat. */
  'chat.store': (record: TaxRequestRecord, message: ChatEntry): void => void record.chat.push(message),
};

export type Ndfl3Rules = typeof NDFL3_RULES;
