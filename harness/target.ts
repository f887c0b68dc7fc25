/**
 * Target file loading: YAML, `${ENV_VAR}` interpolation, validation against the target-file schema,
 * relative paths resolved against the file's folder, every credential registered with the redactor.
 * A bad file fails at once with a message that names the file and the key.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { ToolError } from './errors.ts';
import { Redactor, SECRET_KEY_PATTERN } from './redact.ts';
import { schemaRegistry, SCHEMA_BASE } from './schemas.ts';

export const AREAS = ['speech', 'identity', 'invest', 'insurance', 'business'] as const;
export type Area = (typeof AREAS)[number];
export type TargetKind = 'sandbox' | 'staging' | 'production';

export interface RateLimit {
  requests: number;
  perSeconds: number;
}

export interface ServiceConfig {
  url: string;
  rateLimit?: RateLimit;
  [key: string]: unknown;
}

export interface TargetSettings {
  /** Each request's total deadline: connect, headers and the whole body. */
  timeoutMs: number;
  runs: number;
  seed?: number;
  paceFraction: number;
  retry429: number;
  /** The longest Retry-After a 429 is waited out for; a longer one is TARGET_RATE_LIMITED at once. */
  maxRetryAfterMs: number;
  /** The size cap of one answer's body; past it TARGET_RESPONSE_TOO_LARGE. */
  maxResponseBytes: number;
}

export interface Target {
  file: string;
  name: string;
  kind: TargetKind;
  vendorConventions: boolean;
  /** A failed policy requirement fails the run (true) or is a warning (false, the default). */
  strictPolicy: boolean;
  areas: Area[];
  safety: { allowDestructive: boolean | string[]; allowMoney: boolean | string[]; allowBursts: boolean };
  settings: TargetSettings;
  services: Partial<Record<Area, ServiceConfig>>;
  redactor: Redactor;
}

export const DEFAULT_SETTINGS: Readonly<TargetSettings> = Object.freeze({
  timeoutMs: 15_000,
  runs: 25,
  paceFraction: 0.5,
  retry429: 3,
  maxRetryAfterMs: 10_000,
  maxResponseBytes: 2 * 1024 * 1024,
});

const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
/** Keys whose values are file paths, resolved against the target file's folder. */
const PATH_KEYS = new Set(['cert', 'key', 'ca']);

function interpolate(node: unknown, file: string, keyPath: string, env: NodeJS.ProcessEnv): unknown {
  if (typeof node === 'string') {
    return node.replace(ENV_REF, (_m, name: string) => {
      const value = env[name];
      if (value === undefined || value === '') {
        throw new ToolError(
          'TARGET_FILE_MISSING_VARIABLE',
          `${file}: key "${keyPath}" refers to environment variable \${${name}}, which is not set`,
        );
      }
      return value;
    });
  }
  if (Array.isArray(node)) return node.map((item, i) => interpolate(item, file, `${keyPath}[${i}]`, env));
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [k, interpolate(v, file, keyPath ? `${keyPath}.${k}` : k, env)]),
    );
  }
  return node;
}

function collectSecrets(node: unknown, redactor: Redactor, secret = false, underMtls = false): void {
  if (typeof node === 'string') {
    if (secret && !underMtls) redactor.register(node);
    return;
  }
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    collectSecrets(value, redactor, secret || SECRET_KEY_PATTERN.test(key), underMtls || key === 'mtls');
  }
}

function resolvePaths(node: unknown, base: string): void {
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (typeof value === 'string' && PATH_KEYS.has(key) && !isAbsolute(value)) (node as Record<string, unknown>)[key] = resolve(base, value);
    else resolvePaths(value, base);
  }
}

export function loadTarget(file: string, env: NodeJS.ProcessEnv = process.env): Target {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ToolError('TARGET_FILE_INVALID', `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    const where = error instanceof YAMLParseError && error.linePos ? ` at line ${error.linePos[0].line}` : '';
    throw new ToolError('TARGET_FILE_INVALID', `${file}: not valid YAML${where}: ${(error as Error).message.split('\n')[0]}`);
  }
  const data = interpolate(raw, file, '', env) as Record<string, unknown>;
  const validate = schemaRegistry().validator(`${SCHEMA_BASE}/common/target-file.json`);
  if (!validate(data)) {
    const first = validate.errors![0];
    const key = first.instancePath.replace(/^\//, '').replace(/\//g, '.') || '(top level)';
    const detail = first.keyword === 'additionalProperties' ? `unknown key "${(first.params as { additionalProperty: string }).additionalProperty}"` : first.message;
    throw new ToolError('TARGET_FILE_INVALID', `${file}: key "${key}": ${detail}`);
  }
  resolvePaths(data.services, dirname(resolve(file)));
  const redactor = new Redactor();
  collectSecrets(data.services, redactor);
  const safety = (data.safety ?? {}) as Partial<Target['safety']>;
  const services = data.services as Target['services'];
  return {
    file: resolve(file),
    name: data.name as string,
    kind: data.kind as TargetKind,
    vendorConventions: data.vendorConventions === true,
    strictPolicy: data.strictPolicy === true,
    areas: ((data.areas as Area[] | undefined) ?? AREAS.filter((a) => services[a])) as Area[],
    safety: { allowDestructive: safety.allowDestructive ?? false, allowMoney: safety.allowMoney ?? false, allowBursts: safety.allowBursts ?? false },
    settings: { ...DEFAULT_SETTINGS, ...((data.settings as Partial<TargetSettings>) ?? {}) },
    services,
    redactor,
  };
}

/** The service's config, or a CREDENTIAL_MISSING skip when the target file does not describe it. */
export function serviceOf(target: Target, area: Area): ServiceConfig {
  const service = target.services[area];
  if (!service) throw new ToolError('CREDENTIAL_MISSING', `the target file ${target.name} has no services.${area}`);
  return service;
}

/** A string setting of a service, or a CREDENTIAL_MISSING skip naming the key. */
export function credentialOf(target: Target, area: Area, key: string): string {
  const value = serviceOf(target, area)[key];
  if (typeof value !== 'string' || value === '') {
    throw new ToolError('CREDENTIAL_MISSING', `the target file ${target.name} has no services.${area}.${key}`);
  }
  return value;
}
