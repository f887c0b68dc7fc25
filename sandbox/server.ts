/**
 * The embedded sandbox: an independent reference implementation of the five interfaces, with named
 * faults. One plain HTTP listener serves every service under its own prefix; an mTLS listener (HTTPS
 * that asks every client for a certificate of the sandbox's own CA, made at start) serves the same
 * routes, so a handler tells the two apart with `clientCertified(request)`. It never imports specs/,
 * generators/ or suites/.
 */
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { stringify } from 'yaml';
import { sandboxCertificates } from './certificates.ts';
import { mergeCredentials } from './credentials.ts';
import { installTargetWideFaults, TARGET_WIDE_FAULTS } from './faults/degenerate.ts';
import { FaultSet } from './faults/types.ts';
import { loadServices } from './services/index.ts';
import type { ListenerUrls, ServiceContext } from './types.ts';

export interface SandboxOptions {
  host?: string;
  port?: number;
  tlsPort?: number;
  /** Faults and latitudes to switch on, by id. */
  faults?: string[];
  /**
   * Serve only these areas (the others are neither imported nor in the target file); every area when
   * absent. A fault or latitude must then be one of these areas' (or target-wide).
   */
  areas?: string[];
  credentials?: Partial<Record<string, Record<string, string>>>;
  workDir?: string;
  logger?: boolean;
  /**
   * Whether the target file declares the limits the sandbox enforces (each service's `rateLimit`, the
   * business `rateGroups`: far above the vendor's, so that its runs are bound by their work). false
   * leaves them out, so that a run is paced by the documented limits, as against a partner's staging.
   */
  declareLimits?: boolean;
}

export interface RunningSandbox {
  urls: ListenerUrls;
  faults: string[];
  /** The target file's content: kind sandbox, vendorConventions and strictPolicy true, inline development credentials. */
  targetDocument(): Record<string, unknown>;
  /** Writes the target file atomically (write a temporary file, then rename) and returns its absolute path. */
  writeTarget(file: string): string;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  const modules = await loadServices(options.areas);
  const SERVICES = modules.map((m) => m.service);
  const targetWide = (options.faults ?? []).filter((id) => TARGET_WIDE_FAULTS.some((f) => f.id === id));
  const catalog = new Map(modules.flatMap((m) => [...m.faults, ...m.latitudes]).map((f) => [f.id, f]));
  const faults = new FaultSet(
    catalog,
    (options.faults ?? []).filter((id) => !targetWide.includes(id)),
  );
  const defaults = Object.fromEntries(modules.map((m) => [m.service.area, m.credentials]));
  const ownWorkDir = options.workDir === undefined;
  const workDir = options.workDir ?? mkdtempSync(join(tmpdir(), 'pc-sandbox-'));
  const ctx: ServiceContext = {
    faults,
    credentials: mergeCredentials(defaults, options.credentials),
    workDir,
    // Certificates (and the mTLS listener) only where a service serves over mTLS.
    tls: modules.some((m) => m.service.mtls) ? await sandboxCertificates(workDir, host) : undefined,
  };
  const app: FastifyInstance = Fastify({ logger: options.logger ?? false, bodyLimit: 32 * 1024 * 1024 });
  // Every service parses its own body, so malformed input gets the service's own error answer.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  installTargetWideFaults(app, targetWide);
  for (const service of SERVICES) {
    await app.register(async (scope) => service.register(scope, ctx), { prefix: service.prefix });
  }
  await app.listen({ host, port: options.port ?? 0 });
  const address = app.server.address() as { port: number };
  let tlsServer: HttpsServer | undefined;
  try {
    if (ctx.tls) tlsServer = await listenMtls(app, ctx.tls, host, options.tlsPort ?? 0);
  } catch (error) {
    await app.close();
    throw error;
  }
  const urls: ListenerUrls = { http: `http://${host}:${address.port}` };
  if (tlsServer) urls.https = `https://${urlHost(host)}:${(tlsServer.address() as { port: number }).port}`;

  const targetDocument = () => ({
    name: 'embedded-sandbox',
    kind: 'sandbox',
    vendorConventions: true,
    // The reference target meets our policy readings too, so a fault against one fails the run.
    strictPolicy: true,
    ...(faults.ids.length ? { sandboxFaults: faults.ids } : {}),
    services: Object.fromEntries(
      SERVICES.map((s) => {
        const section = s.targetSection(urls, ctx);
        if (options.declareLimits !== false) return [s.area, section];
        const { rateLimit: _limit, rateGroups: _groups, ...undeclared } = section;
        return [s.area, undeclared];
      }),
    ),
  });

  return {
    urls,
    faults: [...targetWide, ...faults.ids],
    targetDocument,
    writeTarget(file: string) {
      const path = resolve(file);
      const header = [
        '# Target file written by the partner-conformance sandbox.',
        '# The credentials below are fixed development credentials that open nothing but this sandbox.',
        faults.ids.length + targetWide.length
          ? `# Faults switched on: ${[...targetWide, ...faults.ids].join(', ')}`
          : '# No faults switched on.',
        '',
      ].join('\n');
      const { sandboxFaults: _omit, ...doc } = targetDocument() as Record<string, unknown>;
      const temporary = join(dirname(path), `.${Date.now()}-${process.pid}.target.tmp`);
      writeFileSync(temporary, header + stringify(doc));
      renameSync(temporary, path);
      return path;
    },
    async close() {
      if (tlsServer) {
        const server = tlsServer;
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
      }
      await app.close();
      if (ownWorkDir) rmSync(workDir, { recursive: true, force: true });
    },
  };
}

/**
 * The mTLS listener: the same routes as the plain one. Every client is asked for a certificate; one
 * that the sandbox's CA did not sign (or none) still gets through the handshake, so that the service
 * can answer with its own error body (403, the vendor's "wrong TLS certificate"), as a real gateway does.
 */
async function listenMtls(app: FastifyInstance, tls: NonNullable<ServiceContext['tls']>, host: string, port: number): Promise<HttpsServer> {
  const server = createHttpsServer(
    {
      key: readFileSync(tls.serverKey),
      cert: readFileSync(tls.serverCert),
      ca: readFileSync(tls.ca),
      requestCert: true,
      rejectUnauthorized: false,
    },
    app.routing,
  );
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(`the mTLS listener cannot listen on ${host}:${port} (${error.code ?? error.message})`)),
    );
    server.listen(port, host, () => resolveListen());
  });
  return server;
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
