/** Spec 5.1 step 6: the token travels as `Authorization: Bearer <token>`. */
import { describe } from 'vitest';
import { ATTACKS } from '../../generators/speech/attacks.ts';
import { attackTests } from '../../harness/speech/client.ts';

describe('speech: the Bearer scheme', () => {
  attackTests(['SPE-BRR-001', 'SPE-BRR-002'], ATTACKS);
});
