/**
 * npm run sandbox -- --port 8080 [--tls-port 8443] [--faults id,id] [--target-out target.yaml] [--documented-limits] [--list-faults]
 * --faults takes latitude ids too (changes within what the spec allows; --list-faults lists them).
 * --documented-limits leaves the sandbox's own limits out of the target file: a run is then paced by the
 * documented ones, as against a partner's staging.
 * Starts the sandbox alone and, once every listener is up, writes a target file that points at it.
 */
import { parseArgs } from 'node:util';
import { TARGET_WIDE_FAULTS } from './faults/degenerate.ts';
import { loadFaults, loadLatitudes } from './faults/index.ts';
import { startSandbox } from './server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8080' },
    'tls-port': { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    faults: { type: 'string', default: '' },
    'target-out': { type: 'string', default: 'sandbox-target.yaml' },
    'documented-limits': { type: 'boolean', default: false },
    'list-faults': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(
    'usage: npm run sandbox -- --port 8080 [--tls-port 8443] [--faults id,id] [--target-out target.yaml] [--documented-limits] [--list-faults]',
  );
  process.exit(0);
}
if (values['list-faults']) {
  for (const f of await loadFaults()) console.log(`${f.id.padEnd(40)} ${f.area.padEnd(10)} ${f.description}  [${f.catches.join(', ')}]`);
  for (const f of TARGET_WIDE_FAULTS) console.log(`${f.id.padEnd(40)} ${'all'.padEnd(10)} ${f.description}  [degenerate target]`);
  for (const l of await loadLatitudes()) console.log(`${l.id.padEnd(40)} ${l.area.padEnd(10)} ${l.description}  [latitude]`);
  process.exit(0);
}

function portOf(flag: string, value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`sandbox: ${flag} must be a port number, got "${value}"`);
    process.exit(2);
  }
  return port;
}

const port = portOf('--port', values.port);
// The mTLS listener takes --tls-port, or a free port when it is not given.
const tlsPort = values['tls-port'] !== undefined ? portOf('--tls-port', values['tls-port']) : undefined;
try {
  const sandbox = await startSandbox({
    host: values.host,
    port,
    tlsPort,
    faults: values.faults
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    declareLimits: !values['documented-limits'],
  });
  const file = sandbox.writeTarget(values['target-out']);
  console.log(`sandbox listening on ${sandbox.urls.http}${sandbox.urls.https ? ` and ${sandbox.urls.https} (mTLS)` : ''}`);
  console.log(`faults: ${sandbox.faults.length ? sandbox.faults.join(', ') : 'none'}`);
  if (values['documented-limits']) console.log("limits: the documented ones (the target file declares none of the sandbox's own)");
  console.log(`target file: ${file}`);
  console.log(`run the suite against it: CONFORMANCE_TARGET=${file} npm test`);
  const stop = async () => {
    await sandbox.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
  // A sandbox whose starter ended (killed outright, or npm killed above it) serves nobody: its parent's pid changes.
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && void stop(), 500).unref();
} catch (error) {
  console.error(`sandbox: ${(error as Error).message}`);
  process.exit(1);
}
