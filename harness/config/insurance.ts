/**
 * services.insurance of the target file (schema: $defs/insurance of specs/schemas/common/target-file.json),
 * typed. Its credentials are read with credentialOf(target, 'insurance', key), typed by this section.
 */
import type { RateLimit, Target } from '../target.ts';
import { checkedSection } from './section.ts';
import { SERVICE_SHAPE, shapeOf } from './shape.ts';

export interface InsuranceSection {
  url: string;
  rateLimit?: RateLimit;
  token?: string;
  tokenWithoutScope?: string;
  tokenWithoutInteractionScope?: string;
  tokenWithoutDataTransferScope?: string;
}

export const INSURANCE_SHAPE = shapeOf<InsuranceSection>({
  ...SERVICE_SHAPE,
  token: true,
  tokenWithoutScope: true,
  tokenWithoutInteractionScope: true,
  tokenWithoutDataTransferScope: true,
});

export type InsuranceConfig = InsuranceSection;

export function insuranceConfig(target: Target): InsuranceConfig {
  return checkedSection(target, 'insurance');
}
