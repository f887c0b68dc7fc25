/**
 * `Shape`: the keys of a typed section as data, so that a selftest can compare what the readers read
 * with what the schema describes, and the two cannot drift apart.
 */

/**
 * Every key of T, required, nested for object values: `true` marks a leaf (a scalar or a list),
 * `'map'` an object whose keys are data checked elsewhere. An object literal of this type must name
 * every key of T and no other (TypeScript's excess property check), which ties interface to shape.
 */
export type Shape<T> = { [K in keyof T]-?: ShapeOf<NonNullable<T[K]>> };
type ShapeOf<V> = V extends readonly unknown[] ? true : V extends object ? Shape<V> | 'map' : true;

export const shapeOf = <T>(shape: Shape<T>): Shape<T> => shape;

/** The dotted key paths a shape names: ["url", "rateLimit", "rateLimit.requests", ...]. */
export function shapePaths(shape: object, prefix = ''): string[] {
  return Object.entries(shape).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'object' && value !== null ? [path, ...shapePaths(value, path)] : [path];
  });
}

/** The keys every service section has. */
export const SERVICE_SHAPE = { url: true, rateLimit: { requests: true, perSeconds: true } } as const;

/** The keys of a service section whose limit may count per token. */
export const TOKEN_LIMITED_SHAPE = { url: true, rateLimit: { requests: true, perSeconds: true, per: true } } as const;
