/** The five interfaces of the contract, in the spec's order: the names the target file, the reports and `--areas` use. */
export const AREAS = ['speech', 'identity', 'invest', 'insurance', 'business'] as const;
export type Area = (typeof AREAS)[number];
