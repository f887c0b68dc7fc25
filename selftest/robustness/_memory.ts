/**
 * The memory of a process tree, sampled from /proc (Linux): the highest peak RSS (VmHWM) of any one
 * process, and the highest sum of RSS over the whole tree at one sample. For the end-to-end rows that
 * run the suite in a child process whose workers are its own children.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export const canSampleMemory = existsSync('/proc/self/status');

export interface MemoryPeak {
  /** The largest VmHWM (peak resident set) of any process of the tree, in MiB. */
  processMiB: number;
  /** The largest sum of VmRSS over the tree at one sample, in MiB. */
  treeMiB: number;
  processes: number;
}

function statusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

function treeOf(root: number): number[] {
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command may hold spaces and parentheses: the parent pid is the second field after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const [pid, ppid] of parent) if (ppid === tree[i]) tree.push(pid);
  return tree;
}

export function sampleMemory(root: number, everyMs = 200): { stop(): MemoryPeak } {
  const hwm = new Map<number, number>();
  let treeKb = 0;
  const sample = () => {
    let sum = 0;
    for (const pid of treeOf(root)) {
      hwm.set(pid, Math.max(hwm.get(pid) ?? 0, statusKb(pid, 'VmHWM')));
      sum += statusKb(pid, 'VmRSS');
    }
    treeKb = Math.max(treeKb, sum);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return { processMiB: Math.round(Math.max(0, ...hwm.values()) / 1024), treeMiB: Math.round(treeKb / 1024), processes: hwm.size };
    },
  };
}
