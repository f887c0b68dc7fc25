/**
 * Every service of the sandbox, discovered by folder: sandbox/services/<area>/index.ts exports
 * `service` (a SandboxService), `faults` (its Fault list), `latitudes` (its Latitude list: changes
 * within what the spec allows) and `credentials` (its fixed development credentials). A new area is a
 * new folder; nothing else is edited.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Fault, Latitude } from '../faults/types.ts';
import type { SandboxService } from '../types.ts';

export interface ServiceModule {
  service: SandboxService;
  faults: Fault[];
  latitudes: Latitude[];
  credentials: Record<string, string>;
}

const DIR = fileURLToPath(new URL('.', import.meta.url));
let loaded: Promise<ServiceModule[]> | undefined;

export function loadServices(): Promise<ServiceModule[]> {
  loaded ??= (async () => {
    // A folder is a service once it has an index.ts.
    const folders = readdirSync(DIR)
      .filter((name) => statSync(join(DIR, name)).isDirectory() && existsSync(join(DIR, name, 'index.ts')))
      .sort();
    const modules: ServiceModule[] = [];
    for (const folder of folders) {
      const mod = (await import(pathToFileURL(join(DIR, folder, 'index.ts')).href)) as Partial<ServiceModule>;
      if (!mod.service || !mod.faults || !mod.latitudes || !mod.credentials)
        throw new Error(`sandbox/services/${folder}/index.ts must export service, faults, latitudes and credentials`);
      modules.push(mod as ServiceModule);
    }
    return modules;
  })();
  return loaded;
}
