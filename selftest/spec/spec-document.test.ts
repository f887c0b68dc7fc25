/** Locating the contract: CONFORMANCE_SPEC or the copy beside the project; its hash; the quote normalisation. */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SPEC_PATH,
  loadSpecDocument,
  normaliseSpecText,
  SpecDocumentError,
  specContains,
  specDocumentLocation,
} from '../../harness/spec/spec-document.ts';
import { tempDir } from '../helpers.ts';

describe('the spec document', () => {
  it('is read from CONFORMANCE_SPEC when set, else from ../shared beside the project', () => {
    expect(specDocumentLocation({}).path).toBe(DEFAULT_SPEC_PATH);
    expect(DEFAULT_SPEC_PATH.replaceAll('\\', '/')).toMatch(/\/shared\/spec\/partner-interfaces\.md$/);
    const dir = tempDir();
    const file = join(dir, 'contract.md');
    writeFileSync(file, '# A contract\n\n| a | b |\n');
    const doc = loadSpecDocument({ CONFORMANCE_SPEC: relative(process.cwd(), file) });
    expect(doc.path).toBe(file);
    expect(doc.text).toBe('# A contract\n\n| a | b |\n');
    expect(doc.sha256).toBe(createHash('sha256').update('# A contract\n\n| a | b |\n').digest('hex'));
  });

  it('hashes the real contract byte for byte', () => {
    const doc = loadSpecDocument();
    expect(doc.sha256).toBe(createHash('sha256').update(readFileSync(doc.path)).digest('hex'));
    expect(doc.text).toContain('## 2. Resources and their fields');
  });

  it('names where it looked when the contract is absent', () => {
    const missing = join(tempDir(), 'nowhere', 'partner-interfaces.md');
    let error: unknown;
    try {
      loadSpecDocument({ CONFORMANCE_SPEC: missing });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SpecDocumentError);
    expect((error as SpecDocumentError).code).toBe('SPEC_DOCUMENT_MISSING');
    expect((error as Error).message).toContain(missing);
    expect((error as Error).message).toContain('CONFORMANCE_SPEC');
  });
});

describe('quote normalisation', () => {
  const doc = { path: 'mem', sha256: '', text: '| alg | string | `HS256` |\n| exp | integer,\n  Unix time | after this time |\n' };

  it('collapses whitespace and drops table pipes and backticks, nothing else', () => {
    expect(normaliseSpecText(' a |  b `c`\n\td ')).toBe('a b c d');
    expect(specContains(doc, 'alg | string | `HS256`')).toBe(true);
    expect(specContains(doc, 'alg string HS256')).toBe(true);
    expect(specContains(doc, 'exp | integer, Unix time | after this time')).toBe(true);
  });

  it('keeps case and punctuation significant, and never matches nothing', () => {
    expect(specContains(doc, 'ALG string HS256')).toBe(false);
    expect(specContains(doc, 'exp integer Unix time')).toBe(false);
    expect(specContains(doc, 'alg: string')).toBe(false);
    expect(specContains(doc, ' | ` ')).toBe(false);
  });
});
