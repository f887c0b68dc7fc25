/**
 * Reading a GetPortfolio request (spec 4.3) the way a gRPC-JSON gateway would: JSON only, accountId a
 * non-empty string, currency one of RUB, USD, EUR (default RUB). Each problem names the vendor's API
 * error code for it (public facts); an unparsable body has no vendor code, so the sandbox uses 30000.
 */
import type { FaultSet } from '../../faults/types.ts';
import type { Currency } from './money.ts';

export interface PortfolioQuery {
  accountId: string;
  currency: Currency;
}

export interface Rejection {
  status: number;
  code: number;
  message: string;
  description: number;
}

const CURRENCIES: Record<string, Currency> = { RUB: 'rub', USD: 'usd', EUR: 'eur' };
export const UNPARSABLE = 30000;

const reject = (status: number, code: number, message: string, description: number): Rejection => ({ status, code, message, description });

function formFields(raw: string): Record<string, unknown> {
  return Object.fromEntries(new URLSearchParams(raw));
}

export function readQuery(contentType: string, raw: string, faults: FaultSet): PortfolioQuery | Rejection {
  let body: unknown;
  if (contentType !== 'application/json') {
    if (!(contentType === 'application/x-www-form-urlencoded' && faults.has('inv-form-body-accepted'))) {
      return reject(415, 3, `unsupported content type "${contentType || '(none)'}": send application/json`, UNPARSABLE);
    }
    body = formFields(raw);
  } else {
    try {
      body = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch (error) {
      if (faults.has('inv-malformed-json-500')) return reject(500, 13, 'Internal error', 70001);
      return reject(400, 3, `the body is not valid JSON: ${(error as Error).message}`, UNPARSABLE);
    }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return reject(400, 3, 'the body must be a JSON object', UNPARSABLE);
  const { accountId, currency } = body as Record<string, unknown>;
  if (accountId === undefined || accountId === null || accountId === '') {
    if (faults.has('inv-missing-account-500')) return reject(500, 13, 'Internal error', 70001);
    return reject(400, 3, 'Missing parameter: `account_id`', 30021);
  }
  const coerced = typeof accountId === 'number' && faults.has('inv-account-id-coerced') ? String(accountId) : accountId;
  if (typeof coerced !== 'string') return reject(400, 3, '`account_id` is invalid', 30022);
  let chosen: Currency = faults.has('inv-default-not-rub') ? 'usd' : 'rub';
  if (currency !== undefined && currency !== null) {
    const known = typeof currency === 'string' ? CURRENCIES[currency] : undefined;
    if (known) chosen = known;
    else if (faults.has('inv-currency-any')) chosen = 'rub';
    else return reject(400, 3, `currency ${JSON.stringify(currency)} is not one of RUB, USD, EUR`, 30258);
  }
  return { accountId: coerced, currency: chosen };
}

export function isRejection(value: PortfolioQuery | Rejection): value is Rejection {
  return 'status' in value;
}
