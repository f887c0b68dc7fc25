/** The sandbox's one test for a JSON object (not an array, not null); the sandbox shares no code with the harness. */
export const isJsonObject = <T extends object = Record<string, unknown>>(v: unknown): v is T =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
