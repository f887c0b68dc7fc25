/**
 * services.speech of the target file (schema: $defs/speech of specs/schemas/common/target-file.json),
 * typed, with the defaults of the schema applied.
 */
import type { RateLimit, Target } from '../target.ts';
import { checkedSection } from '../config/section.ts';
import { SERVICE_SHAPE, shapeOf } from '../config/shape.ts';

export interface SpeechSection {
  url: string;
  rateLimit?: RateLimit;
  apiKey?: string;
  secretKey?: string;
  method?: 'GET' | 'POST';
  keyEncoding?: 'raw' | 'base64';
  audience?: string;
  tokenIdClaim?: 'jti' | 'jit';
  streaming?: SpeechStreamingSection;
}

export interface SpeechStreamingSection {
  path: string;
  method?: 'POST' | 'GET';
  contentType?: string;
}

export const SPEECH_SHAPE = shapeOf<SpeechSection>({
  ...SERVICE_SHAPE,
  apiKey: true,
  secretKey: true,
  method: true,
  keyEncoding: true,
  audience: true,
  tokenIdClaim: true,
  streaming: { path: true, method: true, contentType: true },
});

/** The schema's defaults (a selftest compares them). */
export const SPEECH_DEFAULTS = { method: 'GET', keyEncoding: 'raw', audience: 'tinkoff.cloud.stt', tokenIdClaim: 'jti' } as const satisfies Partial<SpeechSection>;

export const STREAMING_DEFAULTS = { method: 'POST', contentType: 'application/x-ndjson' } as const satisfies Partial<SpeechStreamingSection>;

export type SpeechConfig = Omit<SpeechSection, 'streaming'> &
  Required<Pick<SpeechSection, keyof typeof SPEECH_DEFAULTS>> & {
    /** Whether the target file names the audience (else the vendor's example is used). */
    audienceGiven: boolean;
    streaming?: Required<SpeechStreamingSection>;
  };

export function speechConfig(target: Target): SpeechConfig {
  const { streaming, ...section } = checkedSection(target, 'speech');
  return {
    ...SPEECH_DEFAULTS,
    ...section,
    audienceGiven: section.audience !== undefined,
    ...(streaming ? { streaming: { ...STREAMING_DEFAULTS, ...streaming } } : {}),
  };
}
