/**
 * An HttpClient against one fault server: a sandbox-kind target with the settings a test gives, paced
 * locally unless a pacer is given; the run's shared records (origin health, service stops) are its own
 * unless a test gives some, as two workers of one run share them.
 */
import { HttpClient, type HttpClientOptions, type RequestSpec } from '../../harness/request/http.ts';
import { LocalPacer, type Pacer } from '../../harness/request/pacer.ts';
import { Redactor } from '../../harness/secrets/redact.ts';
import { DEFAULT_SETTINGS, type RateLimit, type Target, type TargetSettings } from '../../harness/config/target.ts';

export const SECRET = 'robustness-secret-token';

export function clientFor(
  base: string,
  settings: Partial<TargetSettings> = {},
  options: { pacer?: Pacer; limit?: RateLimit } & Pick<HttpClientOptions, 'health' | 'stops'> = {},
): HttpClient {
  const redactor = new Redactor();
  redactor.register(SECRET);
  const target: Target = {
    file: 'robustness.yaml',
    name: 'robustness',
    kind: 'sandbox',
    vendorConventions: false,
    strictPolicy: false,
    areas: ['insurance', 'business'],
    safety: { allowDestructive: false, allowMoney: false, allowBursts: false },
    settings: { ...DEFAULT_SETTINGS, ...settings },
    services: { insurance: { url: base }, business: { url: base } },
    redactor,
  };
  const limit = options.limit ?? { requests: 10_000, perSeconds: 1 };
  return new HttpClient(target, {
    pacer: options.pacer ?? new LocalPacer(),
    limits: { insurance: limit, business: limit },
    health: options.health,
    stops: options.stops,
  });
}

export const get = (base: string, path = '/x', extra: Partial<RequestSpec> = {}): RequestSpec => ({
  area: 'insurance',
  operation: `GET ${path}`,
  sideEffect: 'read',
  method: 'GET',
  url: `${base}${path}`,
  ...extra,
});

/** The ToolError a send ends with (fails the test when it resolves instead), and how long it took. */
export async function failureOf(promise: Promise<unknown>): Promise<{ error: Error & { code?: string }; ms: number }> {
  const started = performance.now();
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: Error) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a tool error, got an answer: ${JSON.stringify(outcome.value).slice(0, 200)}`);
  return { error: outcome.error as Error & { code?: string }, ms: performance.now() - started };
}
