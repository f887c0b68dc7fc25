/**
 * Options nobody knows. A command refuses an option that is neither its own nor (for `run`, which hands
 * the rest to vitest) vitest's, with one line and a "did you mean", before anything starts: vitest would
 * otherwise stop with its parser's stack trace (`CACError: Unknown option --depht`).
 */
import { createRequire } from 'node:module';
import { didYouMean } from '../config/schema-errors.ts';
import { madeOnce } from '../text/parsed-once.ts';

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

/** The options `vitest run` knows: every flag, and those that take a value (`--bail <number>`, `--update [type]`). */
interface VitestOptions {
  flags: string[];
  valued: string[];
}

let vitestOptions: Promise<VitestOptions> | undefined;

/** The options `vitest run --help` lists (its own parser's help), or an error when it lists too few to trust. */
async function helpedOptions(): Promise<VitestOptions> {
  const { parseCLI } = await import('vitest/node');
  const lines: string[] = [];
  const log = console.log;
  console.log = (...parts: unknown[]) => void lines.push(parts.join(' '));
  try {
    parseCLI(['vitest', 'run', '--help']);
  } finally {
    console.log = log;
  }
  const options = lines
    .join('\n')
    .split('\n')
    .flatMap((line) => {
      const m = /^\s+(?:(-[A-Za-z]), )?(--[A-Za-z][\w.-]*)( [<[])?/.exec(line);
      return m ? [{ flags: [m[1], m[2]].filter((f): f is string => Boolean(f)), valued: Boolean(m[3]) }] : [];
    });
  const flags = options.flatMap((o) => o.flags);
  if (flags.length < 10) throw new Error(`vitest's help listed ${flags.length} options`);
  return { flags: [...flags, '--version', '-v'], valued: options.filter((o) => o.valued).flatMap((o) => o.flags) };
}

/**
 * The options of `vitest run`, as its own parser lists them in its help (read only when an argument is
 * not one of ours). Loading vitest's parser takes two seconds of CPU, more than the rest of the command
 * line: the list is kept per installed vitest version (harness/text/parsed-once.ts), so only the first run
 * after an install pays it. Empty when the help cannot be read, and then vitest itself judges what it is
 * handed.
 */
function knownVitestOptions(): Promise<VitestOptions> {
  vitestOptions ??= (async () => {
    try {
      const version = (createRequire(import.meta.url)('vitest/package.json') as { version: string }).version;
      return await madeOnce(`vitest ${version}`, helpedOptions, 'vitest run --help options 2');
    } catch {
      return { flags: [], valued: [] };
    }
  })();
  return vitestOptions;
}

/** Every option of `vitest run`. */
export async function vitestRunOptions(): Promise<string[]> {
  return (await knownVitestOptions()).flags;
}

/**
 * The file filters among the arguments handed to vitest: what is neither an option nor the value of one
 * (`--bail 1` names no file). Everything after `--` is a filter.
 */
export async function fileFilters(args: readonly string[]): Promise<string[]> {
  // Without an option there is no value to tell apart, and vitest's option list is not needed.
  const valued = args.some((a) => a.startsWith('-')) ? new Set((await knownVitestOptions()).valued.map(canonical)) : new Set<string>();
  const filters: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') return [...filters, ...args.slice(i + 1)];
    if (!arg.startsWith('-') || arg === '-') filters.push(arg);
    else if (!arg.includes('=') && valued.has(canonical(flagOf(arg)))) i++;
  }
  return filters;
}
