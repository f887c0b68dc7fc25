/**
 * The speech latitudes: the mirror of faults.ts. Each entry changes the sandbox's answers *within what the
 * spec allows*, quotes the spec's words that allow it (`allows`), and says how, as an edit around the
 * handler (sandbox/faults/modifiers.ts). While one is on, no test of a `spec` or `configuration`
 * requirement may fail (selftest/latitude-run.ts).
 */
import { latitudesOf, type ModifierLatitude } from '../../faults/modifiers.ts';
import type { SpeechShape } from './handler.ts';

const latitude = latitudesOf<SpeechShape>('speech');

export const speechLatitudes: ModifierLatitude<SpeechShape>[] = [];
void latitude;
