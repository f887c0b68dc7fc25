/** Spec 2.1: kid, the time claims and aud. */
import { describe } from 'vitest';
import { attackTests } from './_speech.ts';

describe('speech: header and claim attacks', () => {
  attackTests(['SPE-KID-001', 'SPE-KID-002', 'SPE-TIM-001', 'SPE-TIM-002', 'SPE-TIM-003', 'SPE-TIM-004', 'SPE-AUD-001']);
});
