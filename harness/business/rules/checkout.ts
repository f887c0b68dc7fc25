/**
 * Checkout orders that meet every rule of 2.6, built from a request generated from the served
 * document: a fresh order id (in the target's shop, rules.checkout.shopId, where given), each item one
 * piece at 500, and the order's sum the items' total. A v2 order says it in itemsAmount, without the
 * deprecated amount, and uses delivery services only when asked for (then every item has weight and
 * declaredValue); a v1 order says it in amount, and uses none.
 */
import { randomUUID } from 'node:crypto';
import type { GeneratedRequest } from '../runtime/request.ts';
import { getAt, isJsonObject, removeAt, setAt, type JsonObject } from '../../text/json.ts';
import type { OperationPlan } from '../runtime/plan.ts';
import { generatedRequest, rulesConfig } from './rules.ts';
import { fieldSites, needSite, siteOf } from '../runtime/schema-sites.ts';

const DELIVERY_FIELDS = ['shippingParameters', 'deliveryPayment', 'deliveryCondition', 'delivery'];

/** Identifies the order: the target's shop (rules.checkout.shopId) or the generated one, and a fresh order id. */
export function identify(op: OperationPlan, body: JsonObject): void {
  const shop = rulesConfig().checkout?.shopId;
  const shopSite = siteOf(op, 'shopId');
  if (shopSite && typeof shop === 'string') setAt(body, shopSite.path, shop);
  const orderSite = siteOf(op, 'orderId');
  if (orderSite) setAt(body, orderSite.path, `pc-${randomUUID().slice(0, 30)}`);
}

/**
 * A v2 order that meets every rule: itemsAmount equal to the items' total, no deprecated amount, and
 * no delivery services unless `delivery` (then every item has weight and declaredValue).
 */
export function order(
  op: OperationPlan,
  purpose: string,
  options: { delivery?: boolean; wanted?: (b: JsonObject) => boolean } = {},
): GeneratedRequest & { body: JsonObject } {
  const request = generatedRequest(op, purpose, options.wanted);
  const body = request.body;
  identify(op, body);
  removeAt(body, ['amount']);
  if (!options.wanted) for (const name of DELIVERY_FIELDS) removeAt(body, [name]);
  setAt(body, needSite(op, 'itemsAmount').path, pricedItems(op, body));
  if (options.delivery) {
    const shipping = needSite(op, 'shippingParameters');
    if (!isJsonObject(getAt(body, shipping.path))) setAt(body, shipping.path, { metashipShopId: 'shop-1', metashipWarehouseId: 'wh-1' });
    for (const [name, value] of [
      ['weight', 1200],
      ['declaredValue', 500],
    ] as const)
      setAt(body, needSite(op, name).path, value);
  }
  return request;
}

/** A v1 order (POST /api/v1/checkout/order): its amount the items' total, no delivery. */
export function v1Order(op: OperationPlan, purpose: string): GeneratedRequest & { body: JsonObject } {
  const request = generatedRequest(op, purpose);
  identify(op, request.body);
  for (const name of DELIVERY_FIELDS) removeAt(request.body, [name]);
  setAt(request.body, needSite(op, 'amount').path, pricedItems(op, request.body));
  return request;
}

/** Each item of the order one piece at 500 (where the item has a price); the items' total. */
function pricedItems(op: OperationPlan, body: JsonObject): number {
  const items = Array.isArray(body.items) ? (body.items as JsonObject[]) : [];
  const itemPrice = fieldSites(op, 'price').some((s) => s.path.join('.') === 'items.*.price');
  let total = 0;
  for (const item of items) {
    if (!isJsonObject(item)) continue;
    if ('quantity' in item) item.quantity = 1;
    if (itemPrice) item.price = 500;
    total += 500;
  }
  return total || 500;
}

/** The same value as sent: numbers as numbers, an object by the fields sent, a list item by item in any order. */
function sameAsSent(sent: unknown, got: unknown): boolean {
  if (typeof sent === 'number' || typeof got === 'number') return Number(sent) === Number(got) && got !== null && got !== '';
  if (Array.isArray(sent))
    return Array.isArray(got) && got.length === sent.length && sent.every((item) => got.some((other) => sameAsSent(item, other)));
  if (isJsonObject(sent)) return isJsonObject(got) && Object.entries(sent).every(([key, value]) => sameAsSent(value, got[key]));
  return sent === got;
}

/**
 * What an order read back says of the order sent: each field the create sent that the read carries
 * and its documented schema declares has the value sent (each item of the order among the items read,
 * in any order, by the fields sent). A field the read leaves out is the schema's business (BUS-RUN-004).
 */
export function readBackDifferences(sent: JsonObject, got: JsonObject, declared: ReadonlySet<string>): string[] {
  return Object.entries(sent)
    .filter(([key]) => declared.has(key) && got[key] !== undefined && !sameAsSent(sent[key], got[key]))
    .map(([key, value]) => `${key} ${JSON.stringify(got[key])?.slice(0, 200)}, sent ${JSON.stringify(value)?.slice(0, 200)}`);
}
