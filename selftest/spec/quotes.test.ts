/** Spec fidelity: every `source: spec` requirement quotes the spec, and every quote is the spec's own words. */
import { describe, expect, it } from 'vitest';
import { quoteProblems, requirements, requirementShapeProblem, type Requirement } from '../../harness/spec/requirements.ts';
import { loadSpecDocument } from '../../harness/spec/spec-document.ts';

const spec = loadSpecDocument();

function req(fields: Partial<Requirement>): Requirement {
  return { id: 'INS-XYZ-001', area: 'insurance', section: '4.4', source: 'spec', text: 'a text', ...fields };
}

describe('requirement quotes', () => {
  it('every spec requirement has a quote and every quote is found in the spec', () => {
    expect(quoteProblems(requirements(), spec)).toEqual([]);
  });

  it('flags a spec requirement without a quote, and a quote the spec does not contain', () => {
    const registry = new Map([
      ['INS-XYZ-001', req({})],
      ['INS-XYZ-002', req({ id: 'INS-XYZ-002', source: 'policy', quote: 'words the spec never says' })],
      [
        'INS-XYZ-003',
        req({ id: 'INS-XYZ-003', quote: ['Response 201: the contract record of 2.5 with the stored surrender records.', 'response 201'] }),
      ],
    ]);
    expect(quoteProblems(registry, spec)).toEqual([
      'INS-XYZ-001 is source: spec but has no quote',
      'INS-XYZ-002: quote not found in the spec: "words the spec never says"',
      'INS-XYZ-003: quote not found in the spec: "response 201"',
    ]);
  });

  it('refuses malformed quote, reading and acceptance fields and unknown fields', () => {
    expect(requirementShapeProblem(req({ quote: 'x' }))).toBeUndefined();
    expect(requirementShapeProblem(req({ quote: [] }))).toMatch(/empty list/);
    expect(requirementShapeProblem(req({ quote: ['x', ''] }))).toMatch(/non-empty string/);
    expect(requirementShapeProblem(req({ quote: 3 as unknown as string }))).toMatch(/non-empty string/);
    expect(requirementShapeProblem(req({ reading: '' }))).toMatch(/reading/);
    expect(requirementShapeProblem(req({ acceptance: 'yes' as unknown as boolean }))).toMatch(/acceptance/);
    expect(requirementShapeProblem({ ...req({}), quotes: 'x' } as Requirement)).toMatch(/unknown field\(s\) quotes/);
    expect(requirementShapeProblem(req({ source: 'reading' as Requirement['source'] }))).toMatch(/source/);
  });

  it('every policy requirement says how it reads the spec', () => {
    const policyWithoutReading = [...requirements().values()].filter((r) => r.source === 'policy' && !r.reading).map((r) => r.id);
    expect(policyWithoutReading).toEqual([]);
  });
});
