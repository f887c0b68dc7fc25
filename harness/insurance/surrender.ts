/**
 * What the insurance area knows of the surrender exchange (spec 2.5, 4.4) that checks, generators and
 * suites share: the request's types and the schemas of request and answer. Generators import it from
 * here, so no check ever imports a generator.
 */
import { isIsoDate } from '../iso8601.ts';
import { schemaId } from '../schemas.ts';

export const SURRENDER_REQUEST = schemaId('insurance/surrender-request');
export const CONTRACT_RECORD = schemaId('insurance/contract-record');

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

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A day written in a notation other than ISO 8601 (01.02.2024, 12/31/2025): still a date, though
 * ambiguous between day-month and month-day. 2.5 says only "date", so refusing one is INS-TYP-003's
 * policy, while a value that names no day at all (2024-02-30) breaks the spec's "date" (INS-TYP-002).
 */
export function isNotationOnly(value: unknown): boolean {
  const m = typeof value === 'string' ? /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/.exec(value) : null;
  if (!m) return false;
  const [a, b, year] = m.slice(1).map(Number);
  return isIsoDate(`${year}-${pad(b)}-${pad(a)}`) || isIsoDate(`${year}-${pad(a)}-${pad(b)}`);
}
