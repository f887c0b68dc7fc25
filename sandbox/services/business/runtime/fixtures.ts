/**
 * Test data the sandbox's target file names, as a staging's target file names its own: nothing in 4.5
 * creates a deal, a deal step or a deponent, and a card exists before anyone blocks it. One deponent to
 * read, and pools of disposable deals, steps, deponents and cards for the destructive operations (each
 * set is destroyed once; a pool lasts several runs against one long-lived sandbox).
 *
 * The records are seeded after the ordinary ones (behaviours.ts), so that a list shows an ordinary one
 * first: whoever takes an identifier from a list never gets one a destructive operation may remove.
 */
import { seedRecord } from './resources.ts';
import type { Record_, World } from './world.ts';

/** Disposable sets per destructive operation: enough for a nightly run (4 valid requests and a delete-then-read) twice. */
export const POOL = 12;

/** Fixed identifiers, so that the target file can name them before the world is made. */
const uuid = (kind: number, n: number) => `00000000-0000-4000-8000-${String(kind).padStart(4, '0')}${String(n).padStart(8, '0')}`;
const DEAL = uuid(1, 0);
const STEP = uuid(2, 0);
const DEPONENT = uuid(3, 0);
const range = (n: number) => Array.from({ length: n }, (_v, i) => i + 1);
const disposableDeals = range(POOL).map((n) => uuid(1, n));
const disposableSteps = range(POOL).map((n) => uuid(2, n));
const disposableDeponents = range(POOL).map((n) => uuid(3, n));
/** After the 150 ordinary cards. */
export const DISPOSABLE_CARDS = range(POOL).map((n) => 100_900 + n);

const NOMINAL = '/api/v1/nominal-accounts';
const STEP_PATH = `${NOMINAL}/deals/{dealId}/steps/{stepId}`;

export function seedFixtures(world: World, account: string): void {
  const deal = (dealId: string, stepsCount: number): Record_ => ({
    dealId,
    accountNumber: account,
    status: 'ACTIVE',
    stepsCount,
    createdAt: new Date().toISOString(),
  });
  seedRecord(world, 'deal', deal(DEAL, 1 + POOL));
  seedRecord(world, 'step', { dealId: DEAL, stepId: STEP, stepNumber: 1, status: 'NEW' });
  seedRecord(world, 'deponent', { dealId: DEAL, stepId: STEP, beneficiaryId: DEPONENT, amount: 1000 });
  disposableSteps.forEach((stepId, i) => seedRecord(world, 'step', { dealId: DEAL, stepId, stepNumber: i + 2, status: 'NEW' }));
  for (const beneficiaryId of disposableDeponents)
    seedRecord(world, 'deponent', { dealId: DEAL, stepId: STEP, beneficiaryId, amount: 500 });
  for (const dealId of disposableDeals) seedRecord(world, 'deal', deal(dealId, 0));
  // Blocked already, as a staging's disposable card is from its second run on: blocking one again changes
  // nothing that a test comparing two reads of the cards list could see.
  for (const ucid of DISPOSABLE_CARDS) {
    seedRecord(world, 'card', {
      ucid,
      accountNumber: account,
      cardBin: '220070',
      cardLastFourDigits: String(ucid).slice(-4),
      embossedName: 'SANDBOX DISPOSABLE',
      isActive: false,
      status: 'BLOCKED',
      cardType: 'PHYSICAL',
      paymentSystem: 'MIR',
      agreementNumber: 'AGR-1',
    });
  }
}

/** services.business.fixtures of the sandbox's target file. */
export function fixturesSection(): Record<string, { identifiers: Record_ | Record_[]; disposable?: boolean }> {
  return {
    [`GET ${STEP_PATH}/deponents/{beneficiaryId}`]: { identifiers: { dealId: DEAL, stepId: STEP, beneficiaryId: DEPONENT } },
    [`DELETE ${STEP_PATH}/deponents/{beneficiaryId}`]: {
      disposable: true,
      identifiers: disposableDeponents.map((beneficiaryId) => ({ dealId: DEAL, stepId: STEP, beneficiaryId })),
    },
    [`DELETE ${STEP_PATH}`]: { disposable: true, identifiers: disposableSteps.map((stepId) => ({ dealId: DEAL, stepId })) },
    [`DELETE ${NOMINAL}/deals/{dealId}`]: { disposable: true, identifiers: disposableDeals.map((dealId) => ({ dealId })) },
    'POST /api/v1/card/{ucid}/block': { disposable: true, identifiers: DISPOSABLE_CARDS.map((ucid) => ({ ucid })) },
  };
}
