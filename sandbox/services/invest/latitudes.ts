/**
 * The invest latitudes: the mirror of faults.ts. Each entry changes the sandbox's answers *within what the
 * spec allows*, quotes the spec's words that allow it (`allows`), and says how, as an edit around the
 * handler (sandbox/faults/modifiers.ts). While one is on, no test of a `spec` or `configuration`
 * requirement may fail (selftest/latitude-run.ts).
 */
import { latitudesOf, type ModifierLatitude } from '../../faults/modifiers.ts';
import type { PortfolioShape } from './handler.ts';

const latitude = latitudesOf<PortfolioShape>('invest');

export const investLatitudes: ModifierLatitude<PortfolioShape>[] = [];
void latitude;
