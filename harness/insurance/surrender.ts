/**
 * What the insurance area knows of the surrender exchange (spec 2.5, 4.4) that checks, generators and
 * suites share: the request's types and the schemas of request and answer. Generators import it from
 * here, so no check ever imports a generator.
 */
import { schemaId } from '../spec/schemas.ts';

export const SURRENDER_REQUEST = schemaId('insurance/surrender-request');
export const CONTRACT_RECORD = schemaId('insurance/contract-record');
/** The contract record with every field 2.5 lists, in it and in each stored record (the policy INS-RSP-004). */
export const CONTRACT_RECORD_LISTED = schemaId('insurance/contract-record-listed');
/** Spec part 7: the statuses of the surrender method. */
export const SURRENDER_STATUSES = [201, 400, 401, 403, 422, 429, 500] as const;
/** "Rejected" for the surrender method: 400 incorrect request or 422 data processing error. */
export const SURRENDER_REJECTED = [400, 422] as const;

export interface SurrenderItem {
  calcPeriodFrom: string;
  calcPeriodTo: string;
  currency: string;
  surrenderPercent: number;
  surrenderValue: number;
}

export interface SurrenderRequest {
  contractId: string;
  productType: string;
  surrender: SurrenderItem[];
  updateDate: string;
}

/**
 * The requirement that states the rule a request breaks, by the JSON Schema keyword and place of the
 * break (generators/invalid-cases.ts): the property over every broken rule (INS-NEG-001) judges each
 * case as that requirement's refusal.
 */
export function requirementOfRule(rule: string, path: string): string {
  if (rule === 'required') return 'INS-REQ-001';
  if (rule === 'type') return 'INS-TYP-001';
  if (rule === 'format') return 'INS-TYP-002';
  if ((rule === 'minLength' || rule === 'maxLength') && path === '/contractId') return 'INS-LIM-002';
  if ((rule === 'minItems' || rule === 'maxItems') && path === '/surrender') return 'INS-LIM-004';
  if (rule === 'enum' && path === '/productType') return 'INS-ENM-004';
  if (rule === 'enum' && /^\/surrender\/\d+\/currency$/.test(path)) return 'INS-ENM-002';
  return 'INS-NEG-001';
}
