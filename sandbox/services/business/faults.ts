import type { Fault } from '../../faults/types.ts';
import { DOCUMENT_FAULTS } from './document-faults.ts';

/** Faults of the business service. Document-level ones come from document-faults.ts, with their edits. */
export const businessFaults: Fault[] = [
  ...DOCUMENT_FAULTS.map(({ id, catches, description }) => ({ id, area: 'business' as const, catches, description })),
];
