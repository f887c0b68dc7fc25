/**
 * services.business of the target file (schema: $defs/business of specs/schemas/common/target-file.json),
 * typed, with the defaults of the schema applied: the service itself, its client certificate, the
 * 3-NDFL workflow (ndfl3) and the fixtures of the rule suites (rules).
 */
import type { RateLimit, Target } from '../config/target.ts';
import { checkedSection } from '../config/section.ts';
import { SERVICE_SHAPE, shapeOf } from '../config/shape.ts';

export interface MtlsSection {
  cert?: string;
  key?: string;
  ca?: string;
}

export interface Ndfl3Section {
  requestPool?: string[];
  provisioning?: boolean | string;
  stateField?: string;
  versionFrom?: 'header' | 'body';
  versionField?: string;
  /** Workflow operation name → the states it is allowed from; the schema lists every operation of 3.1. */
  sourceStates?: Record<string, string[]>;
}

export interface PayerAccounts {
  payerAccountPrefix?: string;
  payerAccounts?: string[];
}

export interface RulesSection extends PayerAccounts {
  monthNearLimit?: PayerAccounts & { paidThisMonth: number };
  sbp?: { freeLimit?: number; commissionField?: string };
  selfEmployed?: { inn?: string; inactiveInn?: string };
  checkout?: { shopId?: string; itemsAmountCondition?: 'without-amount' };
}

/** The identifiers of one existing thing, by parameter name. */
export type IdentifierSet = Record<string, string | number>;

/** Existing test data of one operation: one set or a pool; only a disposable one reaches a destructive operation. */
export interface FixtureSection {
  identifiers: IdentifierSet | IdentifierSet[];
  disposable?: boolean;
}

export interface BusinessSection {
  url: string;
  rateLimit?: RateLimit;
  /** A group's limit by its key in specs/rate-limits.yaml `businessGroups`, or `undocumented` (harness/request/rate-groups.ts). */
  rateGroups?: Record<string, RateLimit>;
  token?: string;
  tokenWithoutScope?: string;
  scopeRefusalAreas?: string[];
  documentPath?: string;
  mtlsUrl?: string;
  mtls?: MtlsSection;
  mtlsOperations?: string[];
  /** Existing test data by path or query parameter name, for the runtime suites. */
  identifiers?: IdentifierSet;
  /** Existing test data per operation ("METHOD /path"), winning over `identifiers` for that operation. */
  fixtures?: Record<string, FixtureSection>;
  ndfl3?: Ndfl3Section;
  rules?: RulesSection;
}

export const BUSINESS_SHAPE = shapeOf<BusinessSection>({
  ...SERVICE_SHAPE,
  // Its keys are the groups of specs/rate-limits.yaml, compared by a selftest.
  rateGroups: 'map',
  token: true,
  tokenWithoutScope: true,
  scopeRefusalAreas: true,
  documentPath: true,
  mtlsUrl: true,
  mtls: { cert: true, key: true, ca: true },
  mtlsOperations: true,
  identifiers: 'map',
  fixtures: 'map',
  // sourceStates: its keys are the workflow's operations, compared with specs/workflows/ by a selftest.
  ndfl3: { requestPool: true, provisioning: true, stateField: true, versionFrom: true, versionField: true, sourceStates: 'map' },
  rules: {
    payerAccountPrefix: true,
    payerAccounts: true,
    monthNearLimit: { payerAccountPrefix: true, payerAccounts: true, paidThisMonth: true },
    sbp: { freeLimit: true, commissionField: true },
    selfEmployed: { inn: true, inactiveInn: true },
    checkout: { shopId: true, itemsAmountCondition: true },
  },
});

/** The schema's defaults (a selftest compares them). */
export const BUSINESS_DEFAULTS = { documentPath: '/openapi/docs/openapi.yaml' } as const satisfies Partial<BusinessSection>;
export const NDFL3_DEFAULTS = { versionFrom: 'header', versionField: 'version' } as const satisfies Partial<Ndfl3Section>;
export const SBP_DEFAULTS = { commissionField: 'commission' } as const;

export type BusinessConfig = BusinessSection & Required<Pick<BusinessSection, keyof typeof BUSINESS_DEFAULTS>>;
export type Ndfl3Config = Ndfl3Section & Required<Pick<Ndfl3Section, keyof typeof NDFL3_DEFAULTS | 'requestPool'>>;

export function businessConfig(target: Target): BusinessConfig {
  return { ...BUSINESS_DEFAULTS, ...checkedSection(target, 'business') };
}

/** services.business.ndfl3 with its defaults (an absent section is an empty one). */
export function ndfl3Section(target: Target): Ndfl3Config {
  const section = businessConfig(target).ndfl3 ?? {};
  return { ...NDFL3_DEFAULTS, ...section, requestPool: section.requestPool ?? [] };
}

/** services.business.rules (an absent section is an empty one; each test names the fixture it lacks). */
export function rulesSection(target: Target): RulesSection {
  const rules = businessConfig(target).rules ?? {};
  return rules.sbp ? { ...rules, sbp: { ...SBP_DEFAULTS, ...rules.sbp } } : rules;
}

declare module '../config/target.ts' {
  interface ServiceSections {
    business: BusinessSection;
  }
}
