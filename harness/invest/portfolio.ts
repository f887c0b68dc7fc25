/**
 * What the invest area knows of the GetPortfolio exchange (spec 2.3, 2.4, 4.3) that checks, generators
 * and suites share: the request currencies, the totals, and where the schema places every MoneyValue
 * and Quotation. Generators import it from here, never from harness/checks/.
 */
import { isJsonObject } from '../text/json.ts';
import { schemaId, schemaRegistry } from '../spec/schemas.ts';

export const PORTFOLIO_RESPONSE = schemaId('invest/portfolio-response');
export const PORTFOLIO_REQUEST = schemaId('invest/portfolio-request');
/** The portfolio with every field 2.3 and 2.4 list, the totals aside (the policy INV-RSP-003). */
export const PORTFOLIO_LISTED = schemaId('invest/portfolio-response-listed');
const MONEY_VALUE = schemaId('invest/money-value');
const QUOTATION = schemaId('invest/quotation');

/** Spec 4.3: the currencies a request may ask for (RUB when left out). */
/** Spec part 7, besides "default: unexpected error". */
export const PORTFOLIO_STATUSES = [200, 400, 401, 403, 404, 408, 415, 429, 500, 501, 503, 504] as const;

export const REQUEST_CURRENCIES = ['RUB', 'USD', 'EUR'] as const;
export type RequestCurrency = (typeof REQUEST_CURRENCIES)[number];

export const CLASS_TOTALS = [
  'totalAmountShares',
  'totalAmountBonds',
  'totalAmountEtf',
  'totalAmountCurrencies',
  'totalAmountFutures',
  'totalAmountSp',
  'totalAmountOptions',
] as const;
export const TOTALS = [...CLASS_TOTALS, 'totalAmountPortfolio'] as const;

/** The fields 2.4 names for the portfolio, read from its schema: an answer that holds none of them shows no portfolio. */
export function portfolioFields(): string[] {
  return Object.keys((schemaRegistry().schema(PORTFOLIO_RESPONSE).properties ?? {}) as Record<string, unknown>);
}

export interface FoundAmount {
  /** JSON pointer of the amount in the body. */
  at: string;
  kind: 'MoneyValue' | 'Quotation';
  value: unknown;
}

type Schema = Record<string, unknown>;

/** Every MoneyValue and Quotation in `body`, wherever the schema with `$id` rootId places one. */
export function amountsIn(body: unknown, rootId: string = PORTFOLIO_RESPONSE): FoundAmount[] {
  const registry = schemaRegistry();
  const out: FoundAmount[] = [];
  const visit = (value: unknown, schema: Schema, base: string, at: string): void => {
    if (typeof schema.$ref === 'string') {
      const target = new URL(schema.$ref, base).href;
      if (target === MONEY_VALUE || target === QUOTATION) {
        if (value !== undefined) out.push({ at, kind: target === MONEY_VALUE ? 'MoneyValue' : 'Quotation', value });
        return;
      }
      visit(value, registry.schema(target), target, at);
      return;
    }
    if (isJsonObject(value) && isJsonObject(schema.properties)) {
      for (const [key, sub] of Object.entries(schema.properties as Record<string, Schema>)) {
        if (key in value) visit(value[key], sub, base, `${at}/${key}`);
      }
    }
    if (Array.isArray(value) && isJsonObject(schema.items))
      value.forEach((item, i) => visit(item, schema.items as Schema, base, `${at}/${i}`));
  };
  visit(body, registry.schema(rootId), rootId, '');
  return out;
}

/** How a GetPortfolio request departs from the valid one, besides its body (the client's RequestOptions). */
export interface PortfolioRequestOptions {
  /** Bearer token; `null` sends no Authorization header. Default: services.invest.token. */
  token?: string | null;
  /** A whole Authorization header value instead of a bearer token. */
  authorization?: string;
  /** Raw body instead of JSON. */
  raw?: string;
  contentType?: string;
  pacing?: 'paced' | 'burst';
}

/** A GetPortfolio request as data: its JSON body (or none, with `options.raw`) and how it departs from the valid one. */
export interface PortfolioRequest {
  body?: unknown;
  options?: PortfolioRequestOptions;
}
