/**
 * The insurance latitudes: the mirror of faults.ts. Each entry changes the sandbox's answers *within what the
 * spec allows*, quotes the spec's words that allow it (`allows`), and says how, as an edit around the
 * handler (sandbox/faults/modifiers.ts). While one is on, no test of a `spec` or `configuration`
 * requirement may fail (selftest/latitude-run.ts).
 */
import { latitudesOf, type ModifierLatitude } from '../../faults/modifiers.ts';
import type { SurrenderShape } from './handler.ts';

const latitude = latitudesOf<SurrenderShape>('insurance');

export const insuranceLatitudes: ModifierLatitude<SurrenderShape>[] = [
  latitude(
    'ins-lat-422-for-400',
    ['Set surrender amounts | 201 OK; 400 incorrect request; 401 authentication error; 403 authorization error; 422 data processing error; 429 too many requests; 500 server error'],
    'every request refused as incorrect (400) is refused as a data processing error (422) instead',
    { answer: (answer) => (answer.status === 400 ? { ...answer, status: 422 } : answer) },
    'Part 7 lists both 400 and 422 as refusals of the surrender call and does not say which rule each one answers.',
  ),
];
