/** Spec 2.1: kid, typ, the time claims, aud, and the type of every claim. */
import { describe } from 'vitest';
import { ATTACKS } from '../../generators/speech/attacks.ts';
import { attackTests } from '../../harness/speech/client.ts';

describe('speech: header and claim attacks', () => {
  attackTests(
    [
      'SPE-KID-001',
      'SPE-KID-002',
      'SPE-TYP-001',
      'SPE-TIM-001',
      'SPE-TIM-002',
      'SPE-TIM-003',
      'SPE-TIM-004',
      'SPE-AUD-001',
      'SPE-CTY-001',
      'SPE-CTY-002',
      'SPE-CTY-003',
    ],
    ATTACKS,
  );
});
