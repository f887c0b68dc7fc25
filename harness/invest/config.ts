/**
 * services.invest of the target file (schema: $defs/invest of specs/schemas/common/target-file.json),
 * typed, with the defaults of the schema applied.
 */
import { ToolError } from '../errors.ts';
import type { StringKey, Target, TokenRateLimit } from '../config/target.ts';
import { checkedSection } from '../config/section.ts';
import { shapeOf, TOKEN_LIMITED_SHAPE } from '../config/shape.ts';

export interface InvestSection {
  url: string;
  rateLimit?: TokenRateLimit;
  package?: string;
  token?: string;
  accountId?: string;
  accountIds?: string[];
  otherAccountId?: string;
  tokenWithoutAccess?: string;
  burstToken?: string;
  burstAccountId?: string;
  totalIsSumOfClasses?: boolean;
}

export const INVEST_SHAPE = shapeOf<InvestSection>({
  ...TOKEN_LIMITED_SHAPE,
  package: true,
  token: true,
  accountId: true,
  accountIds: true,
  otherAccountId: true,
  tokenWithoutAccess: true,
  burstToken: true,
  burstAccountId: true,
  totalIsSumOfClasses: true,
});

/** The schema's defaults (a selftest compares them). */
export const INVEST_DEFAULTS = {
  package: 'vendor.public.invest.api.contract.v1',
  totalIsSumOfClasses: false,
} as const satisfies Partial<InvestSection>;

export type InvestConfig = InvestSection & Required<Pick<InvestSection, keyof typeof INVEST_DEFAULTS>> & { accountIds: string[] };

export function investConfig(target: Target): InvestConfig {
  const section = checkedSection(target, 'invest');
  return { ...INVEST_DEFAULTS, ...section, accountIds: section.accountIds ?? [] };
}

/** Test data of the target file (an account), or a FIXTURE_MISSING skip that names the key. */
export function fixtureOf(t: { target: Target }, key: StringKey<InvestSection>): string {
  const value = investConfig(t.target)[key];
  if (!value) throw new ToolError('FIXTURE_MISSING', `the target file ${t.target.name} has no services.invest.${key}`);
  return value;
}

/** The account every test reads first: services.invest.accountId. */
export const mainAccount = (t: { target: Target }) => fixtureOf(t, 'accountId');

/** services.invest.accountId first, then services.invest.accountIds. */
export function accountsOf(t: { target: Target }): string[] {
  return [...new Set([mainAccount(t), ...investConfig(t.target).accountIds])];
}

declare module '../config/target.ts' {
  interface ServiceSections {
    invest: InvestSection;
  }
}
