/**
 * How a list operation pages, as its served document names it (spec 4.5: "paginated statuses of virtual
 * card applications"): a query parameter that sizes the page, one that places it (an offset, a page
 * number, a cursor), and the items of an answer. The names are the common ones of REST APIs; a document
 * that names its paging otherwise is not located (inconclusive), never failed on a name.
 */
import type { OperationModel, ParameterModel } from '../openapi/operation-model.ts';
import { isJsonObject } from '../../text/json.ts';

const SIZE = /^(limit|size|page_?size|per_?page|count|take|top)$/i;
const POSITION = /^(offset|skip|page|page_?number|page_?no|cursor|page_?token|after|from|start)$/i;

export interface Paging {
  /** The parameter that sizes a page (limit, size, pageSize, ...). */
  size?: ParameterModel;
  /** The parameter that places a page (offset, page, cursor, ...). */
  position?: ParameterModel;
}

export function pagingOf(op: OperationModel): Paging {
  const query = op.parameters.filter((p) => p.in === 'query');
  return { size: query.find((p) => SIZE.test(p.name)), position: query.find((p) => POSITION.test(p.name)) };
}

export const PAGING_NAMES = `a page size (${SIZE.source}) or a position (${POSITION.source})`;

/** The items of a list answer: a root array, or the answer's first array property. */
export function itemsOf(json: unknown): unknown[] | undefined {
  if (Array.isArray(json)) return json;
  if (isJsonObject(json)) return Object.values(json).find(Array.isArray) as unknown[] | undefined;
  return undefined;
}
