/**
 * Two readings of one document agree: what the sandbox synthesizes for an operation's success answer
 * (its own walker, ajv draft-07) is valid under the suite's conversion of the same document (OpenAPI
 * 3.0 to JSON Schema 2020-12, formats on), for every operation and several seeds.
 */
import { describe, expect, it } from 'vitest';
import { DocumentSchemas } from '../../../harness/business/openapi/json-schema.ts';
import { resolvePointer } from '../../../harness/business/openapi/refs.ts';
import { cleanDocument } from '../../../sandbox/services/business/document.ts';
import { allOperations } from '../../../sandbox/services/business/runtime/operations.ts';
import { Synthesizer } from '../../../sandbox/services/business/runtime/synthesize.ts';

const schemas = new DocumentSchemas(cleanDocument());
const withSchema = allOperations().filter((op) => op.success.schema);

describe('synthesized answers of the sandbox', () => {
  it('cover the operations with a JSON success answer', () => {
    expect(withSchema.length).toBeGreaterThan(140);
  });

  it.each(withSchema.map((op) => [op.key, op] as const))('%s: valid under the suite reading of the document', (_key, op) => {
    const schema = resolvePointer(cleanDocument(), op.success.schema!) as Record<string, unknown>;
    const validate = schemas.validator(schema, 'response');
    for (const seed of ['a', 'b', 'c']) {
      const value = new Synthesizer(`${op.key}:${seed}`).value(op.success.schema!);
      const ok = validate(value);
      expect(ok, `${JSON.stringify(validate.errors?.slice(0, 3))} in ${JSON.stringify(value).slice(0, 300)}`).toBe(true);
    }
  });

  it('is deterministic for a seed', () => {
    const op = withSchema.find((o) => o.key === 'GET /api/v1/company')!;
    expect(new Synthesizer('s').value(op.success.schema!)).toEqual(new Synthesizer('s').value(op.success.schema!));
  });
});
