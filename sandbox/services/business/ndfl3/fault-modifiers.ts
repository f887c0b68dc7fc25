/**
 * How each 3-NDFL fault (faults.ts, which stays the data: id, catches, description) breaks the part,
 * as an edit around its routes (sandbox/faults/modifiers.ts): a named rule of rules.ts replaced, or
 * the answer of one route edited. The routes know none of them. A fault of faults.ts without an entry
 * here stops the sandbox at start.
 */
import type { FaultSet } from '../../../faults/types.ts';
import {
  editBody,
  modifiersOf,
  never,
  onRefusal,
  withHeader,
  type Behaviour,
  type ModifierFault,
  type ModifierVariation,
} from '../../../faults/modifiers.ts';
import { businessErrorBody } from '../errors.ts';
import { ndfl3Faults } from './faults.ts';
import { NDFL3_RULES, type Ndfl3Answer, type Ndfl3Request, type Ndfl3Route, type Ndfl3Rules } from './rules.ts';

export interface Ndfl3Shape {
  request: Ndfl3Request;
  answer: Ndfl3Answer;
  checks: Ndfl3Rules;
  settings: Record<string, never>;
}

type Edit = Behaviour<Ndfl3Shape>;

/** The successful answers of one route. */
const served = (route: Ndfl3Route) => (a: Ndfl3Answer) => a.facts?.route === route && a.status === 200;
/** The successful answers of one route turned into a business error. */
const failsWith = (route: Ndfl3Route, status: number, code: string, message: (request: Ndfl3Request) => string): Edit => ({
  answer: (a, request) =>
    served(route)(a)
      ? { ...a, status, headers: { 'content-type': 'application/json' }, body: businessErrorBody(code, message(request)) }
      : a,
});
/** A rule's refusals answered with another status and code, the message kept. */
export const refusedAs = (rule: keyof Ndfl3Rules, status: number, code: string, message?: (request: Ndfl3Request) => string): Edit => ({
  answer: onRefusal(
    rule,
    (a: Ndfl3Answer, request: Ndfl3Request): Ndfl3Answer => ({
      ...a,
      status,
      body: businessErrorBody(code, message?.(request) ?? String((a.body as { errorMessage?: unknown }).errorMessage)),
    }),
  ),
});
/** Source states added to one call. */
const alsoFrom = (operation: string, state: string): Edit => ({
  checks: {
    'transition.allowed': (t, record, store) =>
      NDFL3_RULES['transition.allowed'](t, record, store) || (t.operation === operation && record.status === state),
  },
});
/** One call moved to another state. */
const landsIn = (operation: string, state: ReturnType<Ndfl3Rules['transition.target']>): Edit => ({
  checks: { 'transition.target': (t) => (t.operation === operation ? state : t.target) },
});

const EDITS: Record<string, Edit> = {
  'ndf-ready-lands-in-acknowledge': landsIn('ready', 'Acknowledge'),
  'ndf-decline-lands-in-cancelled': landsIn('decline', 'Cancelled'),
  'ndf-state-not-stored': {
    checks: {
      'transition.store': (t, record, next, store) =>
        t.operation === 'start-work' ? undefined : NDFL3_RULES['transition.store'](t, record, next, store),
    },
  },
  'ndf-payment-done-from-acknowledge': alsoFrom('payment-done', 'Acknowledge'),
  'ndf-cancel-after-payment': alsoFrom('cancel', 'PaymentDone'),
  'ndf-refused-call-moves-state': {
    checks: {
      'transition.allowed': (t, record, store) => {
        if (NDFL3_RULES['transition.allowed'](t, record, store)) return true;
        record.status = t.target;
        store.touch(record);
        return false;
      },
    },
  },
  'ndf-repeat-bumps-version': { checks: { 'repeat.answered': (_t, record, store) => (store.touch(record), true) } },
  'ndf-repeat-refused': { checks: { 'repeat.answered': () => false } },
  'ndf-refusal-plain-text': {
    answer: (a) => {
      if (a.refusedBy !== 'transition.allowed' && a.refusedBy !== 'repeat.answered') return a;
      return {
        ...withHeader(a, 'content-type', 'text/plain; charset=utf-8'),
        body: String((a.body as { errorMessage?: unknown }).errorMessage),
      };
    },
  },
  'ndf-if-match-ignored': { checks: { 'version.matches': () => true } },
  'ndf-if-match-optional': { checks: { 'ifMatch.present': () => true } },
  'ndf-state-outside-table': {
    answer: editBody<Ndfl3Answer>(served('request'), (body) => {
      if (body.status === 'Preprocess') body.status = 'InReview';
    }),
  },
  'ndf-structure-without-sections': { answer: editBody<Ndfl3Answer>(served('structure'), (body) => void delete body.sections) },
  'ndf-declaration-not-stored': { checks: { 'declaration.store': never } },
  'ndf-declaration-first-answer-only': { checks: { 'declaration.kept': (answers) => answers.slice(0, 1) } },
  'ndf-chat-message-lost': { checks: { 'chat.store': never } },
  'ndf-attachment-not-found': failsWith(
    'attachment',
    404,
    'NOT_FOUND',
    (request) => `attachment ${String(request.params.attachmentId ?? '').toLowerCase()} not found in this request`,
  ),
  'ndf-document-data-rejected': failsWith(
    'document-data',
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    () => 'Content-Type application/json is not supported here',
  ),
  'ndf-upload-500': failsWith('upload', 500, 'INTERNAL_ERROR', () => 'unexpected error'),
  'ndf-unknown-request-500': refusedAs('taxRequest.known', 500, 'INTERNAL_ERROR', () => 'unexpected error'),
  'ndf-unknown-request-404': refusedAs(
    'taxRequest.known',
    404,
    'NOT_FOUND',
    (request) => `tax request ${request.params.taxRequestId ?? ''} not found`,
  ),
  'ndf-no-auth': { checks: { 'token.present': () => true } },
  'ndf-bad-token-403': refusedAs('token.known', 403, 'FORBIDDEN'),
};

/** The 3-NDFL faults: the data of faults.ts, each with its edit. */
export const NDFL3_MODIFIER_FAULTS: ModifierFault<Ndfl3Shape>[] = ndfl3Faults.map((fault) => {
  const edit = EDITS[fault.id];
  if (!edit) throw new Error(`3-NDFL fault ${fault.id} has no edit in fault-modifiers.ts`);
  return { ...fault, ...edit };
});

for (const id of Object.keys(EDITS))
  if (!ndfl3Faults.some((f) => f.id === id)) throw new Error(`fault-modifiers.ts edits ${id}, which faults.ts does not list`);

/** The part's rules with the faults and latitudes that are on, and their edits of the answers. */
export const ndfl3Modifiers = (faults: FaultSet, latitudes: ModifierVariation<Ndfl3Shape>[] = []) =>
  modifiersOf<Ndfl3Shape>([...NDFL3_MODIFIER_FAULTS, ...latitudes], faults, { checks: NDFL3_RULES, settings: {} });
