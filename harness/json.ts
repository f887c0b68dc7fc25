/**
 * The one test of "a JSON object" (not an array, not null) the harness and the generators use when they
 * read bodies, schemas and documents. The type parameter names what the object is read as.
 */
export type JsonObject = Record<string, unknown>;

export function isJsonObject<T extends object = JsonObject>(value: unknown): value is T {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
