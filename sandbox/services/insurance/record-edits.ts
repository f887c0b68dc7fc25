/**
 * An edit of the 201 answer that a fault and a latitude share: stored record ids written as 19-digit
 * integers, which no JavaScript number holds, so the body is sent as text.
 */
import type { Answer } from '../../exchange.ts';

type Node = Record<string, unknown>;

/** A 19-digit base: ids above it differ only past the 16th digit, where doubles round them alike. */
export const BIG_ID_BASE = 1_234_567_890_123_456_000n;

/** The 201's stored record ids written as the integers `idOf` makes of them. */
export const idsWritten =
  (idOf: (id: number) => bigint) =>
  (a: Answer): Answer => {
    if (a.status !== 201 || typeof a.body !== 'object' || a.body === null) return a;
    const body = structuredClone(a.body) as Node;
    const records = (body.surrender as Node[] | undefined) ?? [];
    const ids = records.map((r) => idOf(r.id as number));
    records.forEach((r, i) => (r.id = `__id_${i}__`));
    return { ...a, body: JSON.stringify(body).replace(/"__id_(\d+)__"/g, (_, i: string) => String(ids[Number(i)])) };
  };
