/**
 * The keys of a whole target file as the harness reads them: target.ts the top level, the readers of
 * harness/config/ each service. A selftest compares these paths with the schema's.
 */
import type { TargetFileData } from '../target.ts';
import { BUSINESS_SHAPE } from './business.ts';
import { IDENTITY_SHAPE } from '../identity/config.ts';
import { INSURANCE_SHAPE } from '../insurance/config.ts';
import { INVEST_SHAPE } from '../invest/config.ts';
import { shapeOf } from './shape.ts';
import { SPEECH_SHAPE } from '../speech/config.ts';

export const TARGET_FILE_SHAPE = shapeOf<TargetFileData>({
  name: true,
  kind: true,
  vendorConventions: true,
  strictPolicy: true,
  waivers: true,
  areas: true,
  safety: { allowDestructive: true, allowMoney: true, allowBursts: true },
  // Run settings grow with the harness: their keys are compared with DEFAULT_SETTINGS and SETTINGS_TABLE.
  settings: 'map',
  services: { speech: SPEECH_SHAPE, identity: IDENTITY_SHAPE, invest: INVEST_SHAPE, insurance: INSURANCE_SHAPE, business: BUSINESS_SHAPE },
});
