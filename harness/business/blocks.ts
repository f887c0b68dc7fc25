/**
 * The rows and describe blocks the business runtime and rule suites declare when they cannot run as
 * planned: a row ends with the error that says why, so a suite that cannot run shows its requirements,
 * never zero tests. The logic behind them is in harness/business/.
 */
import { describe } from 'vitest';
import type { OperationPlan, RuntimePlan } from './runtime/plan.ts';
import { inconclusive, type ToolError } from '../errors.ts';
import { requirementTest } from '../test/suite.ts';

/** A row that cannot run here (known while collecting), ending with the error that says why. */
export function skippedRow(id: string, row: string, why: ToolError): void {
  requirementTest(id, { row }, async () => {
    throw why;
  });
}

/** A row that needs an operation the served document does not describe: inconclusive (NOT_LOCATED). */
export function notLocatedRow(id: string, row: string, operations: string[]): void {
  skippedRow(
    id,
    row,
    inconclusive(
      'NOT_LOCATED',
      `${operations.join(', ')} ${operations.length > 1 ? 'are' : 'is'} not in the served document (BUS-CAT-001 judges the document)`,
    ),
  );
}

/**
 * One row per requirement of a suite that cannot run at all (the document could not be fetched or read,
 * or business does not apply): the rows end as that tool error, skip or inconclusive, never as zero tests.
 */
export function unusableRows(plan: RuntimePlan, ids: string[], row: string): boolean {
  const why = plan.unusable ?? plan.notApplicable;
  if (!why) return false;
  for (const id of ids) skippedRow(id, row, why);
  return true;
}

/**
 * Declares a describe block of rule tests that need the named operations. When the suite cannot run,
 * or an operation is not served, every id gets one row saying why (a tool error or inconclusive for a
 * document that could not be fetched or read, NOT_LOCATED for a missing operation), and `body` is not
 * called.
 */
export function rulesBlock(plan: RuntimePlan, title: string, ids: string[], rows: string[], body: (ops: OperationPlan[]) => void): void {
  describe(title, () => {
    if (unusableRows(plan, ids, title)) return;
    const ops = rows.map((row) => plan.operations.find((op) => op.row === row));
    const missing = rows.filter((_r, i) => !ops[i]);
    if (missing.length) {
      for (const id of ids) notLocatedRow(id, title, missing);
      return;
    }
    body(ops as OperationPlan[]);
  });
}
