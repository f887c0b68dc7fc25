/**
 * services.speech of the target file (schema: $defs/speech of specs/schemas/common/target-file.json),
 * typed, with the defaults of the schema applied.
 */
import { inconclusive, ToolError } from '../errors.ts';
import { credentialOf, type RateLimit, type Target } from '../config/target.ts';
import { hmacKey, secretVariants, type KeyEncoding, type SpeechKit } from './token.ts';
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
export const SPEECH_DEFAULTS = {
  method: 'GET',
  keyEncoding: 'raw',
  audience: 'tinkoff.cloud.stt',
  tokenIdClaim: 'jti',
} as const satisfies Partial<SpeechSection>;

export const STREAMING_DEFAULTS = {
  method: 'POST',
  contentType: 'application/x-ndjson',
} as const satisfies Partial<SpeechStreamingSection>;

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

export const RECOGNIZE_PATH = '/v1/stt:recognize';

export interface StreamingSettings {
  url: string;
  method: 'POST' | 'GET';
  contentType: string;
}

export interface SpeechSettings extends SpeechKit {
  url: string;
  method: 'GET' | 'POST';
  /** Where `audience` came from, for failure notes. */
  audienceFrom: 'services.speech.audience' | 'the vendor example (services.speech.audience not set)';
  /** The target's streaming call (services.speech.streaming), when it offers one. */
  streaming?: StreamingSettings;
}

const settingsCache = new WeakMap<Target, SpeechSettings>();

/**
 * The speech settings of the target file (speechConfig above: typed, checked against the
 * target-file schema, defaults applied; the audience defaults to the vendor's example).
 * Registers every form of the secret with the redactor (the target loader registers it as given).
 */
export function speechSettings(t: { target: Target }): SpeechSettings {
  const cached = settingsCache.get(t.target);
  if (cached) return cached;
  const service = speechConfig(t.target);
  const apiKey = credentialOf(t.target, 'speech', 'apiKey');
  const secretKey = credentialOf(t.target, 'speech', 'secretKey');
  const keyEncoding: KeyEncoding = service.keyEncoding;
  try {
    hmacKey(secretKey, keyEncoding);
  } catch (error) {
    throw new ToolError('TARGET_FILE_INVALID', `${t.target.file}: key "services.speech.secretKey": ${(error as Error).message}`);
  }
  t.target.redactor.register(...secretVariants(secretKey, keyEncoding));
  const base = service.url.replace(/\/$/, '');
  const streaming = service.streaming;
  const settings: SpeechSettings = {
    url: `${base}${RECOGNIZE_PATH}`,
    method: service.method,
    apiKey,
    secretKey,
    keyEncoding,
    audience: service.audience,
    audienceFrom: service.audienceGiven ? 'services.speech.audience' : 'the vendor example (services.speech.audience not set)',
    tokenIdClaim: service.tokenIdClaim,
    ...(streaming ? { streaming: { url: `${base}${streaming.path}`, method: streaming.method, contentType: streaming.contentType } } : {}),
  };
  settingsCache.set(t.target, settings);
  return settings;
}

/** The streaming settings, or an inconclusive NOT_SUPPORTED: the spec's streaming case is optional. */
export function streamingOf(s: SpeechSettings): StreamingSettings {
  if (s.streaming) return s.streaming;
  throw inconclusive(
    'NOT_SUPPORTED',
    'the target file declares no streaming call (services.speech.streaming: { path }), so "the first message of the request when streaming" cannot be checked',
  );
}

declare module '../config/target.ts' {
  interface ServiceSections {
    speech: SpeechSection;
  }
}
