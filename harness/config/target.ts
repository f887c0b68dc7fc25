/**
 * Target file loading: a bounded read, YAML, `${ENV_VAR}` interpolation, validation against the one
 * target-file schema (specs/schemas/common/target-file.json: every key, every object closed), URL rules
 * the schema cannot state, the mTLS paths resolved against the file's folder, and every credential the
 * schema marks registered with the redactor. A bad file fails at once with one short message that names
 * the file, the key and what is wrong (never a value: it may be a credential).
 * Each service section is typed by its area's reader, which adds it to ServiceSections: this file
 * imports no area.
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import { readBounded } from './bounded-file.ts';
import { describeSchemaErrors } from './schema-errors.ts';
import { formatPath, stringsWithKind, TARGET_FILE_SCHEMA_ID } from './target-schema.ts';
import { urlProblem } from './url-rules.ts';
import { parseYamlText, YamlProblem } from './yaml-text.ts';
import { ToolError } from '../errors.ts';
import { getAt, setAt } from '../text/json.ts';
import { Redactor } from '../secrets/redact.ts';
import { schemaRegistry } from '../spec/schemas.ts';
import { inject } from 'vitest';
import { AREAS, type Area } from '../areas.ts';

export type TargetKind = 'sandbox' | 'staging' | 'production';

export interface RateLimit {
  requests: number;
  perSeconds: number;
}

/** A service's limit that may count each bearer token apart (`per: token`) instead of the whole service. */
export interface TokenRateLimit extends RateLimit {
  per?: 'service' | 'token';
}

/** What every service section has. */
export interface ServiceSection {
  url: string;
  rateLimit?: TokenRateLimit;
}

/**
 * Each service section, as its area's reader types it: the reader merges its own entry into this
 * interface (`declare module` of this file), so that the shared machinery names no area's type.
 */
export interface ServiceSections extends Record<Area, ServiceSection> {}

/** Any service section: what every one has. */
export type ServiceConfig = ServiceSections[Area];

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

export interface Safety {
  allowDestructive: boolean | string[];
  allowMoney: boolean | string[];
  allowBursts: boolean;
}

export interface Target {
  file: string;
  name: string;
  kind: TargetKind;
  vendorConventions: boolean;
  /** A failed policy requirement fails the run (true) or is a warning (false, the default). */
  strictPolicy: boolean;
  areas: Area[];
  safety: Safety;
  settings: TargetSettings;
  services: { [A in Area]?: ServiceSections[A] };
  redactor: Redactor;
  /** What the file asks for and the suite does not do (a production file's allowances); the CLI prints them. */
  notices?: string[];
}

/** A target as loadTarget returns it: notices always present (empty when there are none). */
export type LoadedTarget = Target & { notices: string[] };

export const DEFAULT_SETTINGS: Readonly<TargetSettings> = Object.freeze({
  timeoutMs: 15_000,
  runs: 25,
  paceFraction: 0.5,
  retry429: 3,
  maxRetryAfterMs: 10_000,
  maxResponseBytes: 2 * 1024 * 1024,
});

/** A target file larger than this is refused before it is parsed. */
export { MAX_TARGET_FILE_BYTES } from './bounded-file.ts';

const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

const invalid = (file: string, what: string) => new ToolError('TARGET_FILE_INVALID', `${file}: ${what}`);

interface MissingVariable {
  name: string;
  path: Array<string | number>;
  empty: boolean;
}

/** The node with every `${NAME}` filled in from `env`; a reference to a variable unset or empty is listed in `missing` and left empty. */
function interpolate(node: unknown, path: Array<string | number>, env: NodeJS.ProcessEnv, missing: MissingVariable[]): unknown {
  if (typeof node === 'string') {
    return node.replace(ENV_REF, (_m, name: string) => {
      const value = env[name];
      if (value === undefined || value === '') missing.push({ name, path, empty: value === '' });
      return value ?? '';
    });
  }
  if (Array.isArray(node)) return node.map((item, i) => interpolate(item, [...path, i], env, missing));
  if (node && typeof node === 'object')
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, interpolate(v, [...path, k], env, missing)]));
  return node;
}

/**
 * One error naming every variable the file needs and the environment lacks, each once with the keys that
 * refer to it: a CI job that lacks several secrets learns them all in one run, not one per run.
 */
function missingVariablesError(file: string, missing: readonly MissingVariable[]): ToolError {
  const byName = new Map<string, MissingVariable[]>();
  for (const m of missing) byName.set(m.name, [...(byName.get(m.name) ?? []), m]);
  const state = (refs: MissingVariable[]) => (refs[0].empty ? 'set but empty' : 'not set');
  const keys = (refs: MissingVariable[]) => `${refs.length > 1 ? 'keys' : 'key'} ${refs.map((r) => `"${formatPath(r.path)}"`).join(', ')}`;
  if (byName.size === 1) {
    const [[name, refs]] = byName;
    return new ToolError(
      'TARGET_FILE_MISSING_VARIABLE',
      `${file}: ${keys(refs)} ${refs.length > 1 ? 'refer' : 'refers'} to environment variable \${${name}}, which is ${state(refs)}`,
    );
  }
  const each = [...byName].map(([name, refs]) => `\${${name}} (${state(refs)}; ${keys(refs)})`);
  return new ToolError(
    'TARGET_FILE_MISSING_VARIABLE',
    `${file}: ${byName.size} environment variables it refers to are missing: ${each.join(', ')}`,
  );
}

export interface TargetFileData {
  name: string;
  kind: TargetKind;
  vendorConventions?: boolean;
  strictPolicy?: boolean;
  /** Read by harness/report/waiver-file.ts, which resolves it against the target file's folder. */
  waivers?: string;
  areas?: Area[];
  safety?: Partial<Safety>;
  settings?: Partial<TargetSettings>;
  services: Target['services'];
}

/** Rules the schema cannot state: URLs (scheme, port, no credentials) and areas that need their service. */
function semanticProblem(data: TargetFileData): string | undefined {
  for (const { path, value, kind } of stringsWithKind(data)) {
    const absoluteDocument = path.at(-1) === 'documentPath' && /^https?:\/\//i.test(value);
    if (kind !== 'url' && kind !== 'httpsUrl' && !absoluteDocument) continue;
    const problem = urlProblem(value, kind === 'httpsUrl', !absoluteDocument);
    if (problem) return `key "${formatPath(path)}": ${problem}`;
  }
  const missing = (data.areas ?? []).filter((area) => !data.services[area]);
  if (missing.length) return `key "areas": names ${missing.join(', ')}, but services has no ${missing.join(', ')}`;
  return undefined;
}

function parseTargetFile(file: string, env: NodeJS.ProcessEnv): TargetFileData {
  const text = readBounded(file, (what) => invalid(file, what), 'a target file is a few kilobytes');
  let raw: unknown;
  try {
    raw = parseYamlText(text);
  } catch (error) {
    if (error instanceof YamlProblem) throw invalid(file, error.message);
    throw error;
  }
  if (raw === null || raw === undefined)
    throw invalid(file, 'is empty; a target file needs name, kind and services (see examples/target.example.yaml)');
  const missing: MissingVariable[] = [];
  const data = interpolate(raw, [], env, missing);
  if (missing.length) throw missingVariablesError(file, missing);
  const validate = schemaRegistry().validator(TARGET_FILE_SCHEMA_ID);
  if (!validate(data)) throw invalid(file, describeSchemaErrors(validate.errors ?? []));
  const problem = semanticProblem(data as TargetFileData) ?? credentialProblem(data as TargetFileData, raw);
  if (problem) throw invalid(file, problem);
  return data as TargetFileData;
}

/** A control character: a line break, a tab, a NUL. */
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * A credential with a control character in it (the final line break of a variable set from a file, most
 * often) is refused at load: no HTTP header can carry it, and every test would end in a transport error.
 * Named by its key and the variables it came from, never by its value.
 */
function credentialProblem(data: TargetFileData, raw: unknown): string | undefined {
  for (const { path, value, kind } of stringsWithKind(data)) {
    if (kind !== 'secret' || !CONTROL.test(value)) continue;
    const written = getAt(raw, path.map(String));
    const variables = typeof written === 'string' ? [...written.matchAll(ENV_REF)].map((m) => `\${${m[1]}}`) : [];
    const from = variables.length ? ` (from ${variables.join(', ')})` : '';
    const what = /[\r\n]/.test(value) ? 'a line break' : 'a control character';
    return `key "${formatPath(path)}"${from}: the credential holds ${what}, which no HTTP header can carry: refused, not trimmed (often the line end of a file or a paste)`;
  }
  return undefined;
}

/** Every file path the schema marks ($defs/filePath), a relative one made relative to the target file's folder. */
function resolveFilePaths(services: Target['services'], base: string): void {
  for (const { path, value, kind } of [...stringsWithKind({ services })]) {
    if (kind === 'filePath' && !isAbsolute(value)) setAt(services, path.slice(1).map(String), resolve(base, value));
  }
}

/** Every value the schema marks as a credential ($defs/secret). */
function registerSecrets(services: Target['services'], redactor: Redactor): void {
  // One call: each call that adds a secret builds the redactor's patterns again.
  redactor.register(...[...stringsWithKind({ services })].filter(({ kind }) => kind === 'secret').map(({ value }) => value));
}

const SAFETY_KEYS = ['allowDestructive', 'allowMoney', 'allowBursts'] as const;

/** A production target allows reads only: its allowances are dropped, each with a notice saying so. */
function safetyOf(data: TargetFileData): { safety: Safety; notices: string[] } {
  const given = data.safety ?? {};
  const safety: Safety = {
    allowDestructive: given.allowDestructive ?? false,
    allowMoney: given.allowMoney ?? false,
    allowBursts: given.allowBursts ?? false,
  };
  if (data.kind !== 'production') return { safety, notices: [] };
  const notices = SAFETY_KEYS.filter((key) => given[key] === true || (Array.isArray(given[key]) && given[key].length > 0)).map(
    (key) => `safety.${key} is ignored for kind production: production allows reads only`,
  );
  return { safety: { allowDestructive: false, allowMoney: false, allowBursts: false }, notices };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * What the global setup read from each target file of the run, checked and with its variables
     * filled in, by absolute path: a worker builds its target from it instead of parsing the file and
     * compiling the schema again.
     */
    targetData?: Record<string, TargetFileData>;
  }
}

/** The checked data the global setup handed this worker for `file`, if any (a copy: loading changes it). */
function providedData(file: string): TargetFileData | undefined {
  let all: Record<string, TargetFileData> | undefined;
  try {
    all = inject('targetData');
  } catch {
    return undefined;
  }
  const data = all?.[resolve(file)];
  return data ? structuredClone(data) : undefined;
}

/** The target file's data, checked (YAML, schema, URLs) and with its variables filled in; throws a TARGET_FILE_* ToolError. */
export function targetFileData(file: string, env: NodeJS.ProcessEnv = process.env): TargetFileData {
  return parseTargetFile(file, env);
}

/** What the file names and the suite will not use. */
function unusedKeys(services: Target['services']): string[] {
  const insurance = services.insurance;
  if (!insurance?.tokenPool?.length || insurance.rateLimit?.per === 'token') return [];
  return [
    'services.insurance.tokenPool is not used: its tokens spread the requests only where services.insurance.rateLimit says per: token',
  ];
}

export function loadTarget(file: string, env: NodeJS.ProcessEnv = process.env): LoadedTarget {
  return targetOf(file, providedData(file) ?? parseTargetFile(file, env));
}

/** Set on a target made from checked data (and kept by a spread copy such as effectiveTarget's). */
const SCHEMA_CHECKED = Symbol('checked against the target-file schema');

/** Whether the target was made from a target file checked against its schema (loadTarget, targetOf). */
export function schemaChecked(target: Target): boolean {
  return (target as { [SCHEMA_CHECKED]?: boolean })[SCHEMA_CHECKED] === true;
}

/** The target of checked data (targetFileData); the data's certificate paths are made absolute in place. */
export function targetOf(file: string, data: TargetFileData): LoadedTarget {
  const services = data.services;
  resolveFilePaths(services, dirname(resolve(file)));
  const redactor = new Redactor();
  registerSecrets(services, redactor);
  const { safety, notices } = safetyOf(data);
  return {
    file: resolve(file),
    name: data.name,
    kind: data.kind,
    vendorConventions: data.vendorConventions === true,
    strictPolicy: data.strictPolicy === true,
    areas: data.areas ?? AREAS.filter((a) => services[a]),
    safety,
    settings: { ...DEFAULT_SETTINGS, ...(data.settings ?? {}) },
    services,
    redactor,
    notices: [...notices, ...unusedKeys(services)],
    [SCHEMA_CHECKED]: true,
  } as LoadedTarget;
}

/** loadTarget without throwing, for the command line: the target, or the error to print (exit 2). */
export function validateTargetFile(file: string, env: NodeJS.ProcessEnv = process.env): { target: LoadedTarget } | { error: ToolError } {
  try {
    return { target: loadTarget(file, env) };
  } catch (error) {
    if (error instanceof ToolError) return { error };
    return { error: new ToolError('TARGET_FILE_INVALID', `${file}: ${(error as Error).message ?? String(error)}`) };
  }
}

/** The service's section, or a CREDENTIAL_MISSING skip when the target file does not describe it. */
export function serviceOf<A extends Area>(target: Target, area: A): ServiceSections[A] {
  const service = target.services[area];
  if (!service) throw new ToolError('CREDENTIAL_MISSING', `the target file ${target.name} has no services.${area}`);
  return service as ServiceSections[A];
}

/** The keys of a section that hold a string. */
export type StringKey<T> = { [K in keyof T]-?: NonNullable<T[K]> extends string ? K : never }[keyof T] & string;

/** A string key of a service section, or a CREDENTIAL_MISSING skip naming the key. */
export function credentialOf<A extends Area>(target: Target, area: A, key: StringKey<ServiceSections[A]>): string {
  const value = (serviceOf(target, area) as unknown as Record<string, unknown>)[key];
  if (typeof value !== 'string' || value === '') {
    throw new ToolError('CREDENTIAL_MISSING', `the target file ${target.name} has no services.${area}.${key}`);
  }
  return value;
}
