import type { FastifyInstance } from 'fastify';
import type { Credentials } from './credentials.ts';
import type { FaultSet } from './faults/types.ts';

export type SandboxArea = 'speech' | 'identity' | 'invest' | 'insurance' | 'business';

export interface ServiceContext {
  faults: FaultSet;
  credentials: Credentials;
  /** Folder for files the sandbox makes (certificates); absolute. */
  workDir: string;
}

export interface ListenerUrls {
  /** Plain HTTP listener, e.g. http://127.0.0.1:8080 */
  http: string;
  /** The mTLS listener, e.g. https://127.0.0.1:8443 */
  https?: string;
}

/** One service of the sandbox: its routes under its own prefix, and its section of the target file. */
export interface SandboxService {
  area: SandboxArea;
  prefix: string;
  register(app: FastifyInstance, ctx: ServiceContext): void | Promise<void>;
  targetSection(urls: ListenerUrls, ctx: ServiceContext): Record<string, unknown>;
}
