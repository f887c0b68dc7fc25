/**
 * Target file loading: interpolation, validation against the one schema, and one short message for
 * each kind of bad file (the issue's "a malformed target file", "a 40 MB target file", "port 99999",
 * "a misspelt key inside services", "mtlsUrl: http", "a password or apikey= in a service URL" and the
 * production file with allowances); the example file and the sandbox's own file validate.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { describe, expect, it, vi } from 'vitest';
import { keyPaths } from '../../harness/config/target-schema.ts';
import type { ToolError } from '../../harness/errors.ts';
import { loadTarget, MAX_TARGET_FILE_BYTES, validateTargetFile } from '../../harness/config/target.ts';
import { startSandbox } from '../../sandbox/server.ts';
import { ROOT, tempDir } from '../helpers.ts';

function file(content: string): string {
  const path = join(tempDir(), 'target.yaml');
  writeFileSync(path, content);
  return path;
}

function errorOf(fn: () => unknown): ToolError {
  try {
    fn();
  } catch (error) {
    return error as ToolError;
  }
  throw new Error('expected an error');
}

const EXAMPLE = join(ROOT, 'examples', 'target.example.yaml');
/** Every ${NAME} of the example, set. */
const exampleEnv = (): Record<string, string> => {
  const code = readText(EXAMPLE)
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, ''))
    .join('\n');
  const names = [...new Set([...code.matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((m) => m[1]))];
  return Object.fromEntries(names.map((n) => [n, `value-of-${n}-~!'()`]));
};
const readText = (path: string) => readFileSync(path, 'utf8');

describe('loadTarget', () => {
  it('interpolates ${ENV} and registers every credential with the redactor', () => {
    const path = file(
      'name: t\nkind: staging\nservices:\n  insurance: { url: "https://example.test", token: "${INS_TOKEN}" }\n  business: { url: "https://b.test", mtls: { cert: c.pem, key: k.pem } }\n',
    );
    const target = loadTarget(path, { INS_TOKEN: 'secret-token-123' });
    expect(target.services.insurance?.token).toBe('secret-token-123');
    expect(target.redactor.redact('Bearer secret-token-123 and secret-token-123')).not.toContain('secret-token-123');
    expect(target.services.business?.mtls?.cert).toBe(join(path, '..', 'c.pem'));
    expect(target.areas).toEqual(['insurance', 'business']);
    expect(target.notices).toEqual([]);
  });

  it('refuses a credential whose variable holds a line break, naming the key and the variable, never the value', () => {
    const path = file('name: t\nkind: staging\nservices:\n  insurance: { url: "https://x.test", token: "Bearer-${INS_TOKEN}" }\n');
    const error = errorOf(() => loadTarget(path, { INS_TOKEN: 'secret-token-123\n' }));
    expect(error.code).toBe('TARGET_FILE_INVALID');
    expect(error.message).toBe(
      `TARGET_FILE_INVALID: ${path}: key "services.insurance.token" (from \${INS_TOKEN}): the credential holds a line break, which no HTTP header can carry: refused, not trimmed (often the line end of a file or a paste)`,
    );
    expect(errorOf(() => loadTarget(path, { INS_TOKEN: 'tab\tbed' })).message).toContain('holds a control character');
  });

  it('names the file and the key of a missing environment variable', () => {
    const path = file('name: t\nkind: staging\nservices:\n  insurance: { url: "https://x.test", token: "${PC_UNSET_VARIABLE}" }\n');
    const error = errorOf(() => loadTarget(path, {}));
    expect(error.code).toBe('TARGET_FILE_MISSING_VARIABLE');
    expect(error.message).toContain(path);
    expect(error.message).toContain('services.insurance.token');
    expect(error.message).toContain('PC_UNSET_VARIABLE');
  });

  it('names every missing variable at once, each with the keys that refer to it (a CI job lacking secrets learns them all in one run)', () => {
    const env = exampleEnv();
    const names = Object.keys(env);
    expect(names.length).toBeGreaterThan(20);
    const error = errorOf(() => loadTarget(EXAMPLE, { INSURANCE_TOKEN: env.INSURANCE_TOKEN, ID_PERSON_2: '' }));
    expect(error.code).toBe('TARGET_FILE_MISSING_VARIABLE');
    expect(error.message).toContain(`${names.length - 1} environment variables it refers to are missing`);
    for (const name of names.filter((n) => n !== 'INSURANCE_TOKEN')) expect(error.message).toContain(`\${${name}} (`);
    expect(error.message).not.toContain('${INSURANCE_TOKEN}');
    expect(error.message).toContain('${ID_PERSON_2} (set but empty; key "services.identity.tokens.people[1]")');
    expect(error.message).toContain('${SPEECH_API_KEY} (not set; key "services.speech.apiKey")');
    const twice = file(
      'name: t\nkind: staging\nservices:\n  insurance: { url: "https://x.test", token: "${PC_T}", tokenWithoutScope: "${PC_T}" }\n',
    );
    expect(errorOf(() => loadTarget(twice, {})).message).toContain(
      'keys "services.insurance.token", "services.insurance.tokenWithoutScope" refer to environment variable ${PC_T}, which is not set',
    );
  });

  it('says that a variable is set but empty, rather than not set', () => {
    const path = file('name: t\nkind: staging\nservices:\n  insurance: { url: "https://x.test", token: "${PC_EMPTY_VARIABLE}" }\n');
    const error = errorOf(() => loadTarget(path, { PC_EMPTY_VARIABLE: '' }));
    expect(error.code).toBe('TARGET_FILE_MISSING_VARIABLE');
    expect(error.message).toContain('refers to environment variable ${PC_EMPTY_VARIABLE}, which is set but empty');
    expect(errorOf(() => loadTarget(path, {})).message).toContain('${PC_EMPTY_VARIABLE}, which is not set');
  });

  it('prints nothing of its own for YAML the parser warns about (a warning once printed the whole source line)', () => {
    const warnings: unknown[] = [];
    const listener = (warning: unknown) => warnings.push(warning);
    process.on('warning', listener);
    const logged = vi.spyOn(console, 'warn');
    try {
      const path = file('name: t\nkind: staging\nservices:\n  insurance:\n    url: "https://x.test"\n    token: !PCMKabc\n');
      expect(errorOf(() => loadTarget(path, {})).message).not.toContain('PCMK');
    } finally {
      process.off('warning', listener);
    }
    expect(logged).not.toHaveBeenCalled();
    expect(warnings).toEqual([]);
  });

  it('says when the file cannot be read', () => {
    const error = errorOf(() => loadTarget('/nonexistent/target.yaml', {}));
    expect(error.code).toBe('TARGET_FILE_INVALID');
    expect(error.message).toContain('ENOENT');
  });

  it('refuses a file over 1 MiB before parsing it', () => {
    const path = file(
      `name: t\nkind: staging\nservices:\n  insurance: { url: "https://x.test" }\n# ${'x'.repeat(MAX_TARGET_FILE_BYTES)}\n`,
    );
    const error = errorOf(() => loadTarget(path, {}));
    expect(error.code).toBe('TARGET_FILE_INVALID');
    expect(error.message).toContain('larger than 1 MiB');
  });
});

const BASE = 'name: t\nkind: staging\n';
const INSURANCE = 'services:\n  insurance: { url: "https://x.test", token: "T0k3n-SECRET" }\n';

/** Bad files: the content, the key path the message must name, and what it must say. */
const BAD_FILES: Array<[string, string, string, RegExp]> = [
  ['an empty file', '', '(file)', /is empty/],
  ['YAML syntax', `name: t\nkind: [staging\n${INSURANCE}`, '(file)', /not valid YAML at line \d/],
  ['a duplicate key', `${BASE}kind: sandbox\n${INSURANCE}`, '(file)', /not valid YAML at line 3: key "kind" is given twice in one mapping/],
  [
    'a duplicate key deep down',
    `${BASE}services:\n  insurance:\n    url: "https://x.test"\n    token: T0k3n-SECRET\n    token: T0k3n-SECRET\n`,
    '(file)',
    /at line 7: key "services\.insurance\.token" is given twice/,
  ],
  [
    'a credential that YAML reads as an alias',
    `${BASE}services:\n  insurance:\n    url: "https://x.test"\n    token: *PCMK~!()'&=+/%\n`,
    'services.insurance.token',
    /not valid YAML at line 6, key "services\.insurance\.token": an alias \(\*\) to an anchor that is not defined; a value that starts with .* must be quoted$/,
  ],
  [
    'a credential that YAML reads as a tag',
    `${BASE}services:\n  insurance:\n    url: "https://x.test"\n    token: !PCMKtag~abc\n`,
    'services.insurance.token',
    /line 6, key "services\.insurance\.token": a tag \(!\) YAML does not know/,
  ],
  [
    'a credential that YAML reads as a tag and a value',
    `${BASE}services:\n  insurance:\n    url: "https://x.test"\n    token: !PCMK~!()'&=+/%\n`,
    'services.insurance.token',
    /line 6, key "services\.insurance\.token"/,
  ],
  [
    'aliases of aliases ("billion laughs")',
    `${BASE}${['a', 'b', 'c', 'd', 'e', 'f', 'g']
      .map(
        (k, i) =>
          `${k}: &${k} [${Array(9)
            .fill(i ? `*${'abcdefg'[i - 1]}` : '"lol"')
            .join(',')}]`,
      )
      .join('\n')}\n${INSURANCE}`,
    '(file)',
    /not valid YAML: aliases \(\*\) that expand past the limit of 100 expansions, which keeps a file of aliases of aliases \("billion laughs"\) from filling memory/,
  ],
  [
    'a value nested 20,000 levels deep',
    `${BASE}services:\n  insurance:\n    url: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`,
    '(file)',
    /^[^\n]{0,400}key "services\.insurance\.url\[0\]\[0\]\[0\]\[0\]\[0\]… \(\d+ levels deeper\)": collections nested deeper than the parser can follow/,
  ],
  [
    'a credential with a line break',
    `${BASE}services:\n  insurance: { url: "https://x.test", token: "T0k3n-SECRET\\n" }\n`,
    'services.insurance.token',
    /the credential holds a line break, which no HTTP header can carry: refused, not trimmed/,
  ],
  ['a list at the top', '- name: t\n', '(top level)', /must be a mapping/],
  ['no name', `kind: staging\n${INSURANCE}`, 'name', /is required/],
  ['no services', BASE, 'services', /is required/],
  ['empty services', `${BASE}services: {}\n`, 'services', /must not be empty/],
  ['a misspelt top-level key', `${BASE}safty: {}\n${INSURANCE}`, 'safty', /unknown key; did you mean "safety"\?/],
  ['an unknown kind', `name: t\nkind: live\n${INSURANCE}`, 'kind', /must be one of sandbox, staging, production/],
  [
    'a misspelt credential in a service',
    `${BASE}services:\n  insurance: { url: "https://x.test", tokn: abc }\n`,
    'services.insurance.tokn',
    /did you mean "token"\?/,
  ],
  [
    'a prefix of a known key',
    `${BASE}services:\n  insurance: { url: "https://x.test", tokenWithoutScop: abc }\n`,
    'services.insurance.tokenWithoutScop',
    /did you mean "tokenWithoutScope"\?/,
  ],
  ['an unknown service', `${BASE}services:\n  insurence: { url: "https://x.test" }\n`, 'services.insurence', /did you mean "insurance"\?/],
  [
    'an unknown key deep down',
    `${BASE}services:\n  business: { url: "https://b.test", rules: { sbp: { freeLimitt: 1 } } }\n`,
    'services.business.rules.sbp.freeLimitt',
    /did you mean "freeLimit"\?/,
  ],
  [
    'an unknown identity token',
    `${BASE}services:\n  identity: { url: "https://i.test", tokens: { withoutPhon: x } }\n`,
    'services.identity.tokens.withoutPhon',
    /did you mean "withoutPhone"\?/,
  ],
  ['a service without url', `${BASE}services:\n  insurance: { token: abc }\n`, 'services.insurance.url', /is required/],
  ['an ftp URL', `${BASE}services:\n  insurance: { url: "ftp://x.test" }\n`, 'services.insurance.url', /http or https URL/],
  [
    'port 99999',
    `${BASE}services:\n  insurance: { url: "https://x.test:99999" }\n`,
    'services.insurance.url',
    /port 99999, outside 1 to 65535/,
  ],
  ['port 0', `${BASE}services:\n  insurance: { url: "http://127.0.0.1:0/x" }\n`, 'services.insurance.url', /port 0, outside 1 to 65535/],
  [
    'a password in a URL',
    `${BASE}services:\n  insurance: { url: "https://partner:P4ssw0rd@x.test" }\n`,
    'services.insurance.url',
    /credential \(user:password@\).*\$\{ENV\}/,
  ],
  [
    'an apikey query parameter',
    `${BASE}services:\n  invest: { url: "https://x.test/?apikey=K3y" }\n`,
    'services.invest.url',
    /query parameter "apikey".*\$\{ENV\}/,
  ],
  [
    'a pwd query parameter',
    `${BASE}services:\n  invest: { url: "https://x.test/?pwd=P4ssw0rd" }\n`,
    'services.invest.url',
    /query parameter "pwd".*\$\{ENV\}/,
  ],
  [
    'an auth query parameter after another',
    `${BASE}services:\n  invest: { url: "https://x.test/?tenant=a&auth=K3y" }\n`,
    'services.invest.url',
    /query parameter "auth".*\$\{ENV\}/,
  ],
  [
    'a query string in a service URL',
    `${BASE}services:\n  insurance: { url: "http://x.test/insurance?tenant=acme" }\n`,
    'services.insurance.url',
    /has a query string \("tenant"\); the suite appends each operation's path to this URL/,
  ],
  [
    'a fragment in a service URL',
    `${BASE}services:\n  insurance: { url: "http://x.test/insurance#top" }\n`,
    'services.insurance.url',
    /has a fragment/,
  ],
  [
    'a token in an absolute documentPath',
    `${BASE}services:\n  business: { url: "https://b.test", documentPath: "https://b.test/openapi.yaml?access_token=abc" }\n`,
    'services.business.documentPath',
    /query parameter "access_token"/,
  ],
  [
    'mtlsUrl over http',
    `${BASE}services:\n  business: { url: "https://b.test", mtlsUrl: "http://b.test:8443" }\n`,
    'services.business.mtlsUrl',
    /https/,
  ],
  ['a wrong type', `${BASE}settings: { runs: many }\n${INSURANCE}`, 'settings.runs', /must be a whole number/],
  ['a number out of range', `${BASE}settings: { timeoutMs: 5 }\n${INSURANCE}`, 'settings.timeoutMs', /must be >= 100/],
  [
    'an allowance of the wrong kind',
    `${BASE}safety: { allowMoney: yes please }\n${INSURANCE}`,
    'safety.allowMoney',
    /must be true or false or a list/,
  ],
  ['an allowance naming no operation', `${BASE}safety: { allowMoney: [pay] }\n${INSURANCE}`, 'safety.allowMoney[0]', /METHOD \/path/],
  ['an empty areas list', `${BASE}areas: []\n${INSURANCE}`, 'areas', /must list at least 1/],
  ['an area without its service', `${BASE}areas: [speech]\n${INSURANCE}`, 'areas', /names speech, but services has no speech/],
  [
    'an incomplete 3-NDFL table',
    `${BASE}services:\n  business: { url: "https://b.test", ndfl3: { sourceStates: { start-work: [Preprocess] } } }\n`,
    'services.business.ndfl3.sourceStates.start-review',
    /is required/,
  ],
  [
    'an unknown 3-NDFL state',
    `${BASE}services:\n  business: { url: "https://b.test", ndfl3: { versionFrom: cookie } }\n`,
    'services.business.ndfl3.versionFrom',
    /must be one of header, body/,
  ],
];

describe('a bad target file: one short message naming the file, the key and what is wrong', () => {
  it.each(BAD_FILES)('%s', (_what, content, key, says) => {
    const path = file(content);
    const result = validateTargetFile(path, {});
    expect('error' in result).toBe(true);
    const error = (result as { error: ToolError }).error;
    expect(error.code).toBe('TARGET_FILE_INVALID');
    expect(error.message.startsWith(`TARGET_FILE_INVALID: ${path}: `), error.message).toBe(true);
    if (key !== '(file)') expect(error.message).toContain(`key "${key}"`);
    expect(error.message).toMatch(says);
    expect(error.message.split('\n'), 'one line').toHaveLength(1);
    expect(error.message.length, error.message).toBeLessThan(path.length + 260);
    for (const secret of ['T0k3n-SECRET', 'P4ssw0rd', 'K3y', 'PCMK', 'acme']) expect(error.message).not.toContain(secret);
  });

  it('covers more than twenty kinds', () => expect(BAD_FILES.length).toBeGreaterThan(23));
});

describe('a production target file', () => {
  it('drops every allowance and says so, one notice each', () => {
    const path = file(
      `name: p\nkind: production\nsafety: { allowMoney: true, allowDestructive: ["DELETE /x"], allowBursts: true }\n${INSURANCE}`,
    );
    const target = loadTarget(path, {});
    expect(target.safety).toEqual({ allowMoney: false, allowDestructive: false, allowBursts: false });
    expect(target.notices).toEqual([
      'safety.allowDestructive is ignored for kind production: production allows reads only',
      'safety.allowMoney is ignored for kind production: production allows reads only',
      'safety.allowBursts is ignored for kind production: production allows reads only',
    ]);
    expect(
      loadTarget(file(`name: p\nkind: production\nsafety: { allowMoney: false, allowDestructive: [] }\n${INSURANCE}`), {}).notices,
    ).toEqual([]);
    expect(loadTarget(file(`name: s\nkind: staging\nsafety: { allowMoney: true }\n${INSURANCE}`), {}).safety.allowMoney).toBe(true);
  });
});

describe('examples/target.example.yaml', () => {
  it('loads, with every credential it names registered for redaction', () => {
    const env = exampleEnv();
    const target = loadTarget(EXAMPLE, env);
    expect(target.kind).toBe('staging');
    for (const value of Object.values(env)) expect(target.redactor.redact(`x ${value} y`)).toBe('x *** y');
  });

  it('names every key path of the schema', () => {
    const data = parse(readText(EXAMPLE)) as unknown;
    const named = new Set<string>();
    const walk = (node: unknown, prefix: string) => {
      if (!node || typeof node !== 'object' || Array.isArray(node)) return;
      for (const [key, value] of Object.entries(node)) {
        const path = prefix ? `${prefix}.${key}` : key;
        named.add(path);
        walk(value, path);
      }
    };
    walk(data, '');
    const missing = keyPaths()
      .map((k) => k.path)
      .filter((p) => !named.has(p));
    expect(missing).toEqual([]);
  });
});

describe('the sandbox target file', () => {
  it('validates, with and without faults, and names no key the schema lacks', async () => {
    for (const faults of [[], ['ins-contract-id-unbounded', 'bus-doc-mtls-unmarked']]) {
      const sandbox = await startSandbox({ faults });
      try {
        const path = sandbox.writeTarget(join(tempDir(), 'target.yaml'));
        const result = validateTargetFile(path, {});
        expect('target' in result ? 'ok' : (result as { error: Error }).error.message).toBe('ok');
        const doc = parse(readText(path)) as Record<string, unknown>;
        expect(stringify(doc)).not.toContain('sandboxFaults');
      } finally {
        await sandbox.close();
      }
    }
  });
});
