/** A section of the target file checked against its part of the schema, once per target and area. */
import { ToolError } from '../errors.ts';
import { schemaRegistry } from '../spec/schemas.ts';
import { schemaChecked, serviceOf, type ServiceSections, type Target } from './target.ts';
import type { Area } from '../areas.ts';
import { describeSchemaErrors } from './schema-errors.ts';
import { TARGET_FILE_SCHEMA_ID } from './target-schema.ts';

const checked = new WeakMap<Target, Set<Area>>();

/**
 * The area's section, checked against `$defs/<area>` of the target-file schema. A target made from a
 * checked file (loadTarget) needs no second look (compiling the schema costs a worker about a second);
 * this guards a Target made another way (tests, a future loader), once per target and area.
 */
export function checkedSection<A extends Area>(target: Target, area: A): ServiceSections[A] {
  const section = serviceOf(target, area);
  let areas = checked.get(target);
  if (!schemaChecked(target) && !areas?.has(area)) {
    const validate = schemaRegistry().validator(`${TARGET_FILE_SCHEMA_ID}#/$defs/${area}`);
    if (!validate(section))
      throw new ToolError('TARGET_FILE_INVALID', `${target.file}: ${describeSchemaErrors(validate.errors ?? [], ['services', area])}`);
    if (!areas) checked.set(target, (areas = new Set()));
    areas.add(area);
  }
  return section;
}
