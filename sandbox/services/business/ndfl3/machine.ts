/**
 * The sandbox's declaration machine. Spec 3.1 gives each operation's target state only; the source
 * states below are this sandbox's own choice (written into its target file and its README). The
 * story it tells: a request arrives in Preprocess; the partner starts work, generates the report data,
 * works on it and marks it ready; the client acknowledges it, is asked to pay, pays. The partner may
 * ask for clarification while working (and review or resume afterwards), decline before the
 * declaration is ready, and the request may be cancelled until it is paid. Declined, Cancelled and
 * PaymentDone are terminal.
 */
export const STATES = [
  'Preprocess',
  'PartnerGeneratingReportData',
  'PartnerInProgress',
  'Ready',
  'Declined',
  'Cancelled',
  'Acknowledge',
  'PendingPayment',
  'PaymentDone',
  'Clarification',
] as const;
export type State = (typeof STATES)[number];

export interface Transition {
  operation: string;
  target: State;
  from: State[];
}

const WORKING: State[] = ['Preprocess', 'PartnerGeneratingReportData', 'PartnerInProgress'];

export const WORKFLOW: Transition[] = [
  { operation: 'start-review', target: 'Preprocess', from: ['Clarification'] },
  { operation: 'start-work', target: 'PartnerGeneratingReportData', from: ['Preprocess'] },
  { operation: 'resume-work', target: 'PartnerInProgress', from: ['PartnerGeneratingReportData', 'Clarification'] },
  { operation: 'ready', target: 'Ready', from: ['PartnerInProgress'] },
  { operation: 'decline', target: 'Declined', from: [...WORKING, 'Clarification'] },
  { operation: 'cancel', target: 'Cancelled', from: [...WORKING, 'Ready', 'Acknowledge', 'PendingPayment', 'Clarification'] },
  { operation: 'acknowledge', target: 'Acknowledge', from: ['Ready'] },
  { operation: 'pending-payment', target: 'PendingPayment', from: ['Acknowledge'] },
  { operation: 'payment-done', target: 'PaymentDone', from: ['PendingPayment'] },
  { operation: 'clarification', target: 'Clarification', from: [...WORKING, 'Ready'] },
];

export const INITIAL_STATE: State = 'Preprocess';
export const TERMINAL: ReadonlySet<State> = new Set(['Declined', 'Cancelled', 'PaymentDone']);

/** The table as the target file writes it: operation -> allowed source states. */
export function sourceStateTable(): Record<string, State[]> {
  return Object.fromEntries(WORKFLOW.map((t) => [t.operation, [...t.from]]));
}
