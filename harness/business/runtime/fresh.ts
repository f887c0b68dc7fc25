/**
 * Fresh identifiers for a create whose body names the new thing: the value a read then takes as the
 * last identifier of its path (an offline order's orderNumber, a v1 checkout order's orderId). A value
 * generated from the seed may be blank ("  "), carry characters a path segment mangles, or repeat
 * within the run (neighbouring seeds draw the same strings) and across runs against one long-lived
 * target; a repeat is refused as a duplicate, and the create never reaches its success. Each request
 * gets a random value of a plain form the served document allows instead; a parent identifier (the
 * shop an order belongs to) stays as it was. The same values name nothing in a read of an unknown thing.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { GeneratedRequest } from './request.ts';
import { isJsonObject } from '../../text/json.ts';
import { pathParams, readLinks } from './links.ts';
import type { OperationPlan, RuntimePlan } from './plan.ts';

const named = new WeakMap<RuntimePlan, Map<string, string[]>>();

/** Per create, the body properties that name what it makes: the last path identifier of a read it links to. */
function namingProperties(p: RuntimePlan, op: OperationPlan): string[] {
  let byCreate = named.get(p);
  if (!byCreate) {
    byCreate = new Map();
    for (const link of readLinks(p.raw, p.operations)) {
      const last = pathParams(link.read).at(-1);
      if (last && !pathParams(link.create).includes(last)) byCreate.set(link.create.row, [...(byCreate.get(link.create.row) ?? []), last]);
    }
    named.set(p, byCreate);
  }
  return byCreate.get(op.row) ?? [];
}

/** Plain random values, most specific first: the first the document accepts is taken. */
function candidates(): unknown[] {
  const hex = randomBytes(8).toString('hex');
  return [
    randomUUID(),
    `pc-${hex}`,
    `pc${hex.slice(0, 6)}`,
    String(parseInt(hex.slice(0, 12), 16)).padStart(12, '1'),
    parseInt(hex.slice(0, 8), 16) + 1,
  ];
}

/** The request with `name` (a body property or a path parameter) set to a plain random value the document accepts there, if one is. */
export function withFreshValue(
  p: RuntimePlan,
  op: OperationPlan,
  request: GeneratedRequest,
  place: 'body' | 'path',
  name: string,
): GeneratedRequest | undefined {
  return candidates()
    .map((value) =>
      place === 'path'
        ? { ...request, path: { ...request.path, [name]: value } }
        : { ...request, body: { ...(request.body as Record<string, unknown>), [name]: value } },
    )
    .find((candidate) => p.requests.validOnWire(op.model, candidate));
}

export function freshIdentifiers(p: RuntimePlan, op: OperationPlan, request: GeneratedRequest): GeneratedRequest {
  let out = request;
  for (const name of namingProperties(p, op)) {
    if (isJsonObject(out.body) && name in out.body) out = withFreshValue(p, op, out, 'body', name) ?? out;
  }
  return out;
}
