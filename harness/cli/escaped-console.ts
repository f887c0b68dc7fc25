/**
 * The command line's own console prints escaped: what it prints often quotes a file (a target file's
 * key or name, a waiver's reason, the titles and messages of a summary read back by diff or merge), and a
 * control character in it would be obeyed by the terminal. Nothing the command line itself writes needs
 * one (it prints no colours); the suite's run prints through its own reporters, in its own process.
 */
import { printable } from '../text/printable.ts';

export function escapeConsole(target: Pick<Console, 'log' | 'error' | 'warn'> = console): void {
  for (const name of ['log', 'error', 'warn'] as const) {
    const print = target[name].bind(target);
    target[name] = (...parts: unknown[]) => print(...parts.map((part) => (typeof part === 'string' ? printable(part) : part)));
  }
}
