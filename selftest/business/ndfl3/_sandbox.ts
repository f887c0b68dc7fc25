/** A real sandbox on loopback for the 3-NDFL selftests, and a target file written from it with edits. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { HttpClient } from '../../../harness/request/http.ts';
import { Ndfl3Api } from '../../../harness/business/ndfl3/api.ts';
import { LocalPacer } from '../../../harness/request/pacer.ts';
import { loadTarget, type Target } from '../../../harness/config/target.ts';
import { startSandbox, type RunningSandbox } from '../../../sandbox/server.ts';
import { tempDir } from '../../helpers.ts';

export async function sandbox(faults: string[] = []): Promise<RunningSandbox> {
  return startSandbox({ faults });
}

type Doc = Record<string, unknown> & { services: { business: Record<string, unknown> & { ndfl3: Record<string, unknown> } } };

/** The sandbox's own target document, edited, loaded as a Target, with a fast pacer (90% of the limit). */
export function targetOf(running: RunningSandbox, edit: (doc: Doc) => void = () => undefined): Target {
  const doc = structuredClone(running.targetDocument()) as Doc;
  delete doc.sandboxFaults;
  doc.settings = { paceFraction: 0.9 };
  edit(doc);
  const file = join(tempDir('pc-ndf-'), 'target.yaml');
  writeFileSync(file, stringify(doc));
  return loadTarget(file, {});
}

export function apiOf(target: Target): Ndfl3Api {
  return new Ndfl3Api(target, new HttpClient(target, { pacer: new LocalPacer() }));
}
