/** Selecting is cheaper: the command line hands vitest only the suite folders of the areas a run checks. */
import { describe, expect, it } from 'vitest';
import { areasOfGrep, suiteFilters } from '../../harness/cli/suite-filters.ts';
import { AREAS } from '../../harness/areas.ts';

describe('suite filters', () => {
  it('narrow to the chosen areas, and not at all when every area runs', () => {
    expect(suiteFilters(['insurance'], undefined)).toEqual(['suites/insurance/']);
    expect(suiteFilters(['speech', 'business'], undefined)).toEqual(['suites/speech/', 'suites/business/']);
    expect(suiteFilters([...AREAS], undefined)).toEqual([]);
  });

  it('narrow a grep of requirement ids to their areas (3-NDFL ids are business)', () => {
    expect(suiteFilters([...AREAS], 'INS-LIM-002')).toEqual(['suites/insurance/']);
    expect(suiteFilters([...AREAS], '^INV-REQ|NDF-WF-005')).toEqual(['suites/invest/', 'suites/business/']);
    expect(areasOfGrep('(?:INS-RAT-001|IDN-FMT-001)')).toEqual(['insurance', 'identity']);
  });

  it('leave a grep of title words, or of an unknown prefix, to every chosen area', () => {
    expect(areasOfGrep('surrender')).toBeUndefined();
    expect(areasOfGrep('INS-LIM|contract')).toBeUndefined();
    expect(areasOfGrep('XYZ-ABC-001')).toBeUndefined();
    expect(suiteFilters(['insurance', 'invest'], 'surrender')).toEqual(['suites/invest/', 'suites/insurance/']);
  });

  it('never narrow to nothing: a grep of another area leaves the chosen ones', () => {
    expect(suiteFilters(['insurance'], 'SPE-TOK-001')).toEqual(['suites/insurance/']);
    expect(suiteFilters([], 'SPE-TOK-001')).toEqual([]);
  });
});
