/**
 * The business runtime plan with its requests generated from the served document: what the runtime
 * and rule suites await before they declare their tests. The plan itself is harness's; the generator is
 * handed in from here, since harness never imports generators.
 */
import { runtimePlanWith, type RuntimePlan } from '../../harness/business/runtime/plan.ts';
import { OpenApiRequests } from './openapi.ts';

/** One generator function for the whole run: the plan keeps what a document's generator made by this function and the document. */
const generatorFor = (document: Record<string, unknown>) => new OpenApiRequests(document);

export function runtimePlan(): Promise<RuntimePlan> {
  return runtimePlanWith(generatorFor);
}
