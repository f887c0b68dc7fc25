/**
 * services.identity of the target file (schema: $defs/identity of specs/schemas/common/target-file.json),
 * typed, with the defaults of the schema applied.
 */
import { ToolError } from '../errors.ts';
import type { RateLimit, Target } from '../config/target.ts';
import { checkedSection } from '../config/section.ts';
import { SERVICE_SHAPE, shapeOf } from '../config/shape.ts';

export interface IdentityTokens {
  people?: string[];
  withoutProfile?: string;
  withoutPhone?: string;
  withoutEmail?: string;
  withoutConsent?: string;
  nonPartner?: string;
}

export interface IdentitySection {
  url: string;
  rateLimit?: RateLimit;
  accessToken?: string;
  clientId?: string;
  clientSecret?: string;
  nonPartnerClientId?: string;
  nonPartnerClientSecret?: string;
  scopes?: string[];
  tokens?: IdentityTokens;
}

export const IDENTITY_SHAPE = shapeOf<IdentitySection>({
  ...SERVICE_SHAPE,
  accessToken: true,
  clientId: true,
  clientSecret: true,
  nonPartnerClientId: true,
  nonPartnerClientSecret: true,
  scopes: true,
  tokens: { people: true, withoutProfile: true, withoutPhone: true, withoutEmail: true, withoutConsent: true, nonPartner: true },
});

/** The schema's defaults (a selftest compares them). */
export const IDENTITY_DEFAULTS = { scopes: ['openid', 'profile', 'phone', 'email'] } as const;

export type IdentityConfig = IdentitySection & { scopes: string[]; tokens: IdentityTokens };

export function identityConfig(target: Target): IdentityConfig {
  const section = checkedSection(target, 'identity');
  return { ...section, scopes: section.scopes ?? [...IDENTITY_DEFAULTS.scopes], tokens: section.tokens ?? {} };
}

export type IdentityTokenName = Exclude<keyof IdentityTokens, 'people'>;

/** services.identity.tokens.<name>, or a CREDENTIAL_MISSING skip naming the key. */
export function identityToken(target: Target, name: IdentityTokenName): string {
  const value = identityConfig(target).tokens[name];
  if (!value) throw new ToolError('CREDENTIAL_MISSING', `the target file ${target.name} has no services.identity.tokens.${name}`);
  return value;
}

declare module '../config/target.ts' {
  interface ServiceSections {
    identity: IdentitySection;
  }
}
