/**
 * The embedded sandbox: an independent reference implementation of the five interfaces, with named
 * faults. One plain HTTP listener serves every service under its own prefix; services that need a
 * client certificate may add an mTLS listener. It never imports specs/, generators/ or suites/.
 */
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { stringify } from 'yaml';
import { mergeCredentials } from './credentials.ts';
import { FaultSet } from './faults/types.ts';
import { loadServices } from './services/index.ts';
import type { ListenerUrls, ServiceContext } from './types.ts';

export interface SandboxOptions {
  host?: string;
  port?: number;
  tlsPort?: number;
  faults?: string[];
  credentials?: Partial<Record<string, Record<string, string>>>;
  workDir?: string;
  logger?: boolean;
}

export interface RunningSandbox {
  urls: ListenerUrls;
  faults: string[];
  /** The target file's content: kind sandbox, vendorConventions true, inline development credentials. */
  targetDocument(): Record<string, unknown>;
  /** Writes the target file atomically (write a temporary file, then rename) and returns its absolute path. */
  writeTarget(file: string): string;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  const modules = await loadServices();
  const SERVICES = modules.map((m) => m.service);
  const faults = new FaultSet(new Map(modules.flatMap((m) => m.faults).map((f) => [f.id, f])), options.faults ?? []);
  const defaults = Object.fromEntries(modules.map((m) => [m.service.area, m.credentials]));
  const ctx: ServiceContext = {
    faults,
    credentials: mergeCredentials(defaults, options.credentials),
    workDir: options.workDir ?? mkdtempSync(join(tmpdir(), 'pc-sandbox-')),
  };
  const app: FastifyInstance = Fastify({ logger: options.logger ?? false, bodyLimit: 32 * 1024 * 1024 });
  // Every service parses its own body, so malformed input gets the service's own error answer.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  for (const service of SERVICES) {
    await app.register(async (scope) => service.register(scope, ctx), { prefix: service.prefix });
  }
  await app.listen({ host, port: options.port ?? 0 });
  const address = app.server.address() as { port: number };
  const urls: ListenerUrls = { http: `http://${host}:${address.port}` };

  const targetDocument = () => ({
    name: 'embedded-sandbox',
    kind: 'sandbox',
    vendorConventions: true,
    ...(faults.ids.length ? { sandboxFaults: faults.ids } : {}),
    services: Object.fromEntries(SERVICES.map((s) => [s.area, s.targetSection(urls, ctx)])),
  });

  return {
    urls,
    faults: faults.ids,
    targetDocument,
    writeTarget(file: string) {
      const path = resolve(file);
      const header = [
        '# Target file written by the partner-conformance sandbox.',
        '# The credentials below are fixed development credentials that open nothing but this sandbox.',
        faults.ids.length ? `# Faults switched on: ${faults.ids.join(', ')}` : '# No faults switched on.',
        '',
      ].join('\n');
      const { sandboxFaults: _omit, ...doc } = targetDocument() as Record<string, unknown>;
      const temporary = join(dirname(path), `.${Date.now()}-${process.pid}.target.tmp`);
      writeFileSync(temporary, header + stringify(doc));
      renameSync(temporary, path);
      return path;
    },
    close: () => app.close(),
  };
}
