/**
 * services.insurance of the target file (schema: $defs/insurance of specs/schemas/common/target-file.json),
 * typed. Its credentials are read with credentialOf(target, 'insurance', key), typed by this section.
 */
import type { Target, TokenRateLimit } from '../config/target.ts';
import { checkedSection } from '../config/section.ts';
import { shapeOf, TOKEN_LIMITED_SHAPE } from '../config/shape.ts';

export interface InsuranceSection {
  url: string;
  rateLimit?: TokenRateLimit;
  /** More tokens of the partner, used only where rateLimit counts per token (harness/insurance/tokens.ts). */
  tokenPool?: string[];
  token?: string;
  tokenWithoutScope?: string;
  tokenWithoutInteractionScope?: string;
  tokenWithoutDataTransferScope?: string;
}

export const INSURANCE_SHAPE = shapeOf<InsuranceSection>({
  ...TOKEN_LIMITED_SHAPE,
  tokenPool: true,
  token: true,
  tokenWithoutScope: true,
  tokenWithoutInteractionScope: true,
  tokenWithoutDataTransferScope: true,
});

export type InsuranceConfig = InsuranceSection;

export function insuranceConfig(target: Target): InsuranceConfig {
  return checkedSection(target, 'insurance');
}

declare module '../config/target.ts' {
  interface ServiceSections {
    insurance: InsuranceSection;
  }
}
