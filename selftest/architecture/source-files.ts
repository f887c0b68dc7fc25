/** The project's source files and their relative import specifiers, as the architecture selftests read them. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|mjs)$/.test(name)) yield path;
  }
}

/** A relative import: static, dynamic or side-effect only (type imports included). */
export const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
