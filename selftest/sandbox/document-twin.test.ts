/**
 * The sandbox keeps a JSON twin of its business document (sandbox/services/business/document.ts): that
 * is only right while JSON carries the parsed YAML exactly (no infinities, dates or -0 in it).
 */
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { cleanDocument, documentText } from '../../sandbox/services/business/document.ts';

describe("the sandbox document's JSON twin", () => {
  it('is the parsed YAML exactly', () => {
    const fromYaml = parse(documentText()) as unknown;
    expect(JSON.parse(JSON.stringify(fromYaml))).toStrictEqual(fromYaml);
    expect(cleanDocument()).toStrictEqual(fromYaml);
  });
});
