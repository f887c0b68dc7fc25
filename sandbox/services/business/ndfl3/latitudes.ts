/**
 * The latitudes of the 3-NDFL part: the mirror of faults.ts and fault-modifiers.ts. Spec 3.1 gives each
 * workflow call its target state and nothing else, so how a call the state does not allow is refused,
 * and whether a repeat in the target state is answered or refused, are the backend's to choose. Each
 * carries the document edit that lists the status it answers.
 */
import { latitudesOf, onRefusal, type ModifierLatitude } from '../../../faults/modifiers.ts';
import { businessErrorBody } from '../errors.ts';
import { at, type Node } from '../document-edits.ts';
import type { DocumentChange } from '../document.ts';
import type { Ndfl3Shape } from './fault-modifiers.ts';
import { WORKFLOW } from './machine.ts';
import type { Ndfl3Answer } from './rules.ts';
import { WORKFLOW_PREFIX } from './workflow.ts';

export type Ndfl3Latitude = ModifierLatitude<Ndfl3Shape> & { document?: DocumentChange };

const latitude = latitudesOf<Ndfl3Shape>('business');
const SOURCE_NOT_SHOWN = 'The source state of every row below is not shown; only the target state of each operation is given.';

/** Every workflow call of the document lists 409 beside its 422, with the same error body. */
const workflowLists409: DocumentChange = {
  edit: (doc) => {
    for (const t of WORKFLOW) {
      const responses = at(
        doc as Node,
        'paths',
        `${WORKFLOW_PREFIX.replace(':taxRequestId', '{taxRequestId}')}/${t.operation}`,
        'post',
        'responses',
      );
      responses['409'] ??= structuredClone(at(responses, '422'));
    }
  },
};

/** A refusal of the workflow answered 409 with `code`, the message and details kept. */
const conflict =
  (code: string) =>
  (a: Ndfl3Answer): Ndfl3Answer => {
    const body = a.body as { errorMessage?: unknown; errorDetails?: Record<string, unknown> };
    return { ...a, status: 409, body: businessErrorBody(code, String(body.errorMessage ?? ''), body.errorDetails) };
  };

export const NDFL3_LATITUDES: Ndfl3Latitude[] = [
  {
    ...latitude(
      'bus-lat-ndfl3-conflict',
      [SOURCE_NOT_SHOWN],
      "a workflow call the request's state does not allow is refused 409 CONFLICT instead of 422, which the document lists",
      { answer: onRefusal('transition.allowed', conflict('CONFLICT')) },
      'The spec fixes no status for a call the state does not allow, and the vendor says only that it returns an error.',
    ),
    document: workflowLists409,
  },
  {
    ...latitude(
      'bus-lat-ndfl3-repeat-refused',
      [SOURCE_NOT_SHOWN],
      'a workflow call repeated when the request is already in its target state is refused 409 ALREADY_IN_STATE, and changes nothing',
      { checks: { 'repeat.answered': () => false }, answer: onRefusal('repeat.answered', conflict('ALREADY_IN_STATE')) },
      "3.1 says nothing of a repeat: refusing it, with nothing changed, disagrees only with the vendor's 200 (NDF-WF-002, a vendor convention).",
    ),
    document: workflowLists409,
  },
];
