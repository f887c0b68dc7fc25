/**
 * Noticing that the process that started this one has ended. A CI runner that cancels `npm test` sends
 * SIGTERM to npm alone: npm passes it to the shell that runs the script, which dies, and the suite's own
 * processes would go on sending to the target for nobody. Node tells a process nothing when its parent
 * ends, but its parent's pid changes (init or a subreaper adopts it). A shell can outlive an npm that was
 * killed outright, so a process started by an npm script may watch its parent's parent too, where /proc
 * shows it (elsewhere only the parent is watched).
 */
import { readFileSync } from 'node:fs';

const EVERY_MS = 500;

/** The parent of `pid` from /proc, or undefined where there is no /proc or no such process. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (name) state ppid …": the name may hold spaces and parentheses, so the fields are read after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Calls `onGone` once, with what ended, when this process's parent (and, for a process an npm script
 * started, npm: its parent's parent) is no longer the one it started under. The check runs every half second and never keeps the
 * process alive; the returned function stops it.
 */
export function watchParents(onGone: (what: string) => void, options: { npmScript?: boolean } = {}): () => void {
  const parent = process.ppid;
  const grandparent = options.npmScript ? parentOf(parent) : undefined;
  const timer = setInterval(() => {
    const what =
      process.ppid !== parent
        ? `the process that started it (pid ${parent}) ended`
        : grandparent !== undefined && parentOf(parent) !== grandparent
          ? `npm, which started it (pid ${grandparent}), ended`
          : undefined;
    if (!what) return;
    clearInterval(timer);
    onGone(what);
  }, EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
