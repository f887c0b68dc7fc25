/**
 * Every hand-written schema of specs/schemas is valid JSON Schema 2020-12: the registry of a run skips
 * this check (harness/spec/schemas.ts), so it is made here, once, with the meta-schema.
 */
import { describe, expect, it } from 'vitest';
import { SchemaRegistry } from '../../harness/spec/schemas.ts';

describe('specs/schemas', () => {
  it('every schema is valid against the JSON Schema 2020-12 meta-schema and compiles in strict mode', () => {
    const registry = new SchemaRegistry(undefined, { validateSchemas: true });
    expect(registry.schemas.size).toBeGreaterThan(10);
    for (const id of registry.schemas.keys()) expect(() => registry.validator(id), id).not.toThrow();
  });

  it('a schema that breaks the meta-schema is refused', () => {
    const registry = new SchemaRegistry(undefined, { validateSchemas: true });
    expect(() => registry.ajv.addSchema({ $id: 'https://example.invalid/broken.json', type: 12 })).toThrow(/schema is invalid/);
  });
});
