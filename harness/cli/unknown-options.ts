/**
 * Options nobody knows. A command refuses an option that is neither its own nor (for `run`, which hands
 * the rest to vitest) vitest's, with one line and a "did you mean", before anything starts: vitest would
 * otherwise stop with its parser's stack trace (`CACError: Unknown option --depht`).
 */
import { createRequire } from 'node:module';
import { didYouMean } from '../config/schema-errors.ts';
import { madeOnce } from '../parsed-once.ts';

/** The flag of an option argument as typed: `--depht` of `--depht=quick`, `-t` of `-t`. */
const flagOf = (arg: string) => (arg.startsWith('--') ? arg.split('=')[0] : arg.slice(0, 2));

const camel = (name: string) => name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/** How the parser vitest uses (cac) names an option: no dashes, no "no-", no ".sub" part, camelCase. */
const canonical = (flag: string) => camel(flag.replace(/^-+/, '').replace(/^no-/, '').split('.')[0]);

/** The one line for an unknown option, with the known option it most likely meant. */
export function unknownOptionMessage(flag: string, known: readonly string[]): string {
  const guess = didYouMean(
    flag.replace(/^-+/, ''),
    known.map((k) => k.replace(/^-+/, '')),
  );
  const meant = guess ? known.find((k) => k.replace(/^-+/, '') === guess) : undefined;
  return `unknown option ${flag}${meant ? `; did you mean ${meant}?` : ''} (--help lists the options)`;
}

/** The first option argument that is not one of `known` (flags with their dashes), or undefined. */
export function firstUnknown(args: readonly string[], known: readonly string[]): string | undefined {
  const names = new Set(known.map(canonical));
  return args
    .map((arg) => (arg.startsWith('-') && arg !== '-' && arg !== '--' ? flagOf(arg) : undefined))
    .find((flag) => flag && !names.has(canonical(flag)));
}

let vitestOptions: Promise<string[]> | undefined;

/** The options `vitest run --help` lists (its own parser's help), or an error when it lists too few to trust. */
async function helpedOptions(): Promise<string[]> {
  const { parseCLI } = await import('vitest/node');
  const lines: string[] = [];
  const log = console.log;
  console.log = (...parts: unknown[]) => void lines.push(parts.join(' '));
  try {
    parseCLI(['vitest', 'run', '--help']);
  } finally {
    console.log = log;
  }
  const flags = lines
    .join('\n')
    .split('\n')
    .flatMap((line) => {
      const m = /^\s+(?:(-[A-Za-z]), )?(--[A-Za-z][\w.-]*)/.exec(line);
      return m ? [m[1], m[2]].filter((f): f is string => Boolean(f)) : [];
    });
  if (flags.length < 10) throw new Error(`vitest's help listed ${flags.length} options`);
  return [...flags, '--version', '-v'];
}

/**
 * The options of `vitest run`, as its own parser lists them in its help (read only when an argument is
 * not one of ours). Loading vitest's parser takes two seconds of CPU, more than the rest of the command
 * line: the list is kept per installed vitest version (harness/parsed-once.ts), so only the first run
 * after an install pays it. Empty when the help cannot be read, and then vitest itself judges what it is
 * handed.
 */
export function vitestRunOptions(): Promise<string[]> {
  vitestOptions ??= (async () => {
    try {
      const version = (createRequire(import.meta.url)('vitest/package.json') as { version: string }).version;
      return await madeOnce(`vitest ${version}`, helpedOptions, 'vitest run --help options 1');
    } catch {
      return [];
    }
  })();
  return vitestOptions;
}
