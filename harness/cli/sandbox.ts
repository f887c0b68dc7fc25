/**
 * `partner-conformance sandbox`: the embedded sandbox alone (sandbox/cli.ts, in its own process, so that
 * the harness never imports the sandbox).
 */
import type { Command } from './command.ts';
import { interruption, signalToPass } from './interruption.ts';
import { sandboxProcess } from './sandbox-process.ts';

export const sandboxCommand: Command = {
  name: 'sandbox',
  summary: 'Starts the embedded sandbox alone and writes a target file that points at it.',
  usage:
    'partner-conformance sandbox [--port 8080] [--tls-port 8443] [--host 127.0.0.1] [--faults id,id] [--target-out FILE] [--list-faults]',
  options: [
    {
      flag: '--port',
      value: 'N',
      meaning: 'the plain HTTP listener (all services, each under its own prefix); default 8080, 0 for a free port',
    },
    { flag: '--tls-port', value: 'N', meaning: 'the mTLS listener; default the next free port' },
    { flag: '--host', value: 'HOST', meaning: 'the address to listen on; default 127.0.0.1' },
    { flag: '--faults', value: 'ID,ID', meaning: 'named faults to switch on (see --list-faults)' },
    {
      flag: '--target-out',
      value: 'FILE',
      meaning: 'where the target file is written once every listener is up; default sandbox-target.yaml',
    },
    { flag: '--list-faults', meaning: 'lists the fault catalog and exits' },
  ],
  main(argv) {
    const stop = interruption();
    return new Promise((resolve) => {
      const child = sandboxProcess(argv, 'inherit');
      stop.addEventListener('abort', () => child.kill(signalToPass(stop.reason)), { once: true });
      child.on('close', (code) => resolve(code ?? 0));
    });
  },
};
