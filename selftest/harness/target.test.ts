/** Target file loading: interpolation, validation, and errors that name the file and the key. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolError } from '../../harness/errors.ts';
import { loadTarget } from '../../harness/target.ts';
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

describe('loadTarget', () => {
  it('interpolates ${ENV} and registers every credential with the redactor', () => {
    const path = file('name: t\nkind: staging\nservices:\n  insurance: { url: "https://example.test", token: "${INS_TOKEN}" }\n  business: { url: "https://b.test", mtls: { cert: c.pem, key: k.pem } }\n');
    const target = loadTarget(path, { INS_TOKEN: 'secret-token-123' });
    expect(target.services.insurance?.token).toBe('secret-token-123');
    expect(target.redactor.redact('Bearer secret-token-123 and secret-token-123')).not.toContain('secret-token-123');
    expect((target.services.business?.mtls as { cert: string }).cert).toBe(join(path, '..', 'c.pem'));
    expect(target.areas).toEqual(['insurance', 'business']);
  });

  it('names the file and the key of a missing environment variable', () => {
    const path = file('name: t\nkind: staging\nservices:\n  insurance: { url: "https://x.test", token: "${PC_UNSET_VARIABLE}" }\n');
    const error = errorOf(() => loadTarget(path, {}));
    expect(error.code).toBe('TARGET_FILE_MISSING_VARIABLE');
    expect(error.message).toContain(path);
    expect(error.message).toContain('services.insurance.token');
    expect(error.message).toContain('PC_UNSET_VARIABLE');
  });

  it('names the file and the line of a YAML syntax error', () => {
    const path = file('name: t\nkind: [staging\nservices: {}\n');
    const error = errorOf(() => loadTarget(path, {}));
    expect(error.code).toBe('TARGET_FILE_INVALID');
    expect(error.message).toMatch(/not valid YAML at line \d/);
    expect(error.message).toContain(path);
  });

  it('names an unknown key and a bad value', () => {
    const unknown = errorOf(() => loadTarget(file('name: t\nkind: staging\nservices: {}\nsafty: {}\n'), {}));
    expect(unknown.message).toContain('unknown key "safty"');
    const badKind = errorOf(() => loadTarget(file('name: t\nkind: live\nservices: {}\n'), {}));
    expect(badKind.message).toContain('key "kind"');
    const badUrl = errorOf(() => loadTarget(file('name: t\nkind: staging\nservices:\n  insurance: { url: "ftp://x" }\n'), {}));
    expect(badUrl.message).toContain('services.insurance.url');
  });

  it('says when the file cannot be read', () => {
    const error = errorOf(() => loadTarget('/nonexistent/target.yaml', {}));
    expect(error.code).toBe('TARGET_FILE_INVALID');
    expect(error.message).toContain('ENOENT');
  });
});

describe('examples/target.example.yaml', () => {
  it('loads, with every credential it names registered for redaction', () => {
    const env = Object.fromEntries(['SPEECH_API_KEY', 'SPEECH_SECRET_KEY', 'ID_ACCESS_TOKEN', 'ID_CLIENT_SECRET', 'INVEST_TOKEN', 'INSURANCE_TOKEN', 'INSURANCE_TOKEN_NO_SCOPE', 'BUSINESS_TOKEN'].map((k) => [k, `value-of-${k}`]));
    const target = loadTarget(join(ROOT, 'examples', 'target.example.yaml'), env);
    expect(target.kind).toBe('staging');
    for (const value of Object.values(env)) expect(target.redactor.redact(`x ${value} y`)).toBe('x *** y');
  });
});
