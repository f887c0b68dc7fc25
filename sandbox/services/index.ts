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
const loaded = new Map<string, Promise<ServiceModule>>();

/** The service of one folder, imported once. */
function loadFolder(folder: string): Promise<ServiceModule> {
  let service = loaded.get(folder);
  if (!service) {
    service = (async () => {
      const mod = (await import(pathToFileURL(join(DIR, folder, 'index.ts')).href)) as Partial<ServiceModule>;
      if (!mod.service || !mod.faults || !mod.latitudes || !mod.credentials)
        throw new Error(`sandbox/services/${folder}/index.ts must export service, faults, latitudes and credentials`);
      return mod as ServiceModule;
    })();
    loaded.set(folder, service);
  }
  return service;
}

/**
 * Every service (a folder is a service once it has an index.ts), in folder order; with `areas`, only the
 * services of those areas (a folder is named after its area): a run of one area does not import the others.
 */
export async function loadServices(areas?: readonly string[]): Promise<ServiceModule[]> {
  const folders = readdirSync(DIR)
    .filter((name) => statSync(join(DIR, name)).isDirectory() && existsSync(join(DIR, name, 'index.ts')))
    .filter((name) => !areas || areas.includes(name))
    .sort();
  const modules: ServiceModule[] = [];
  for (const folder of folders) modules.push(await loadFolder(folder));
  return modules;
}
