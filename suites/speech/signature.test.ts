/** Spec 2.1 and 5.1: the signature, the algorithm and the token's shape. */
import { describe } from 'vitest';
import { ATTACKS } from '../../generators/speech/attacks.ts';
import { attackTests } from '../../harness/speech/client.ts';

describe('speech: signature and algorithm attacks', () => {
  attackTests(
    ['SPE-SIG-001', 'SPE-SIG-002', 'SPE-SIG-003', 'SPE-SIG-004', 'SPE-SIG-005', 'SPE-SIG-006', 'SPE-SIG-007', 'SPE-FMT-001'],
    ATTACKS,
  );
});
