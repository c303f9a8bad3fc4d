import type { Tri } from './tri.js';
import { isStrings } from '../../util/values.js';

/** The program a call runs and its argv, once wrappers are taken off; `undefined` when unreadable. */
export interface EffectiveCommand {
  /** The program's basename. */
  program: string;
  /** Its arguments (without the program). */
  argv: string[];
  /** The wrappers that were taken off, outermost first (`sudo`, `env`, …). */
  wrappers: string[];
}

/**
 * Splits a command line as a POSIX shell would into words: quotes and
 * backslashes honoured, nothing expanded. A line with shell operators
 * (`;`, `|`, `&`, `<`, `>`, backquotes, `$(`) or an open quote cannot be read
 * as one command, and gives `undefined`.
 */
export function shellWords(line: string): string[] | undefined {
  const words: string[] = [];
  let word = '';
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i] as string;
    if (char === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) return undefined;
      word += line.slice(i + 1, end);
      started = true;
      i = end;
    } else if (char === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1] as string)) j++;
        else if (line[j] === '$' || line[j] === '`') return undefined;
        word += line[j];
      }
      if (j >= line.length) return undefined;
      started = true;
      i = j;
    } else if (char === '\\') {
      if (i + 1 >= line.length) return undefined;
      word += line[++i];
      started = true;
    } else if (/\s/.test(char)) {
      if (started) words.push(word);
      word = '';
      started = false;
    } else if (';|&<>`'.includes(char) || (char === '$' && line[i + 1] === '(')) {
      return undefined;
    } else {
      word += char;
      started = true;
    }
  }
  if (started) words.push(word);
  return words;
}

// Programs that run another program, and how many words of their own each takes.
const WRAPPERS: Record<string, (argv: string[]) => number | undefined> = {
  env: (argv) => skip(argv, (word) => word.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(word), ['-u', '-C', '-S']),
  sudo: (argv) => skip(argv, (word) => word.startsWith('-'), ['-u', '-g', '-C', '-h', '-p', '-U', '-r', '-t', '-T', '-D']),
  doas: (argv) => skip(argv, (word) => word.startsWith('-'), ['-u', '-C']),
  nice: (argv) => skip(argv, (word) => word.startsWith('-'), ['-n']),
  ionice: (argv) => skip(argv, (word) => word.startsWith('-'), ['-c', '-n', '-p']),
  nohup: () => 0,
  time: (argv) => skip(argv, (word) => word.startsWith('-'), ['-f', '-o']),
  command: (argv) => skip(argv, (word) => word.startsWith('-'), []),
  exec: (argv) => skip(argv, (word) => word.startsWith('-'), ['-a']),
  stdbuf: (argv) => skip(argv, (word) => word.startsWith('-'), ['-i', '-o', '-e']),
  // timeout [options] DURATION COMMAND
  timeout: (argv) => {
    const options = skip(argv, (word) => word.startsWith('-'), ['-s', '-k']);
    return options === undefined || options >= argv.length ? undefined : options + 1;
  },
};

// How many leading words are the wrapper's own: those `own` accepts, plus
// the value after an option in `withValue`.
function skip(argv: string[], own: (word: string) => boolean, withValue: string[]): number | undefined {
  let n = 0;
  while (n < argv.length && own(argv[n] as string)) {
    if (argv[n] === '--') return n + 1;
    n += withValue.includes(argv[n] as string) ? 2 : 1;
  }
  return n <= argv.length ? n : undefined;
}

/**
 * The effective command of a call's arguments: a `command` string (split as
 * a shell would) optionally followed by an `args` list, or a `command` or
 * `argv` list. Wrapper programs (`env`, `sudo`, `nice`, `timeout`, …) are
 * taken off; the program is a basename.
 */
export function effectiveCommand(args: Record<string, unknown>): EffectiveCommand | undefined {
  let words: string[] | undefined;
  const { command, argv } = args;
  if (typeof command === 'string') words = shellWords(command);
  else if (isStrings(command)) words = [...command];
  else if (isStrings(argv)) words = [...argv];
  if (!words) return undefined;
  if (args.args !== undefined) {
    if (!isStrings(args.args)) return undefined;
    words.push(...args.args);
  }
  const wrappers: string[] = [];
  for (;;) {
    const [head, ...rest] = words;
    if (head === undefined) return undefined;
    const program = head.slice(head.lastIndexOf('/') + 1);
    const unwrap = WRAPPERS[program];
    if (!unwrap) return { program, argv: rest, wrappers };
    const own = unwrap(rest);
    if (own === undefined || own >= rest.length) return undefined;
    wrappers.push(program);
    words = rest.slice(own);
  }
}

/**
 * The built-in `check` predicates, over the effective command:
 * - `rm-recursive`: `rm` with `-r`, `-R` or `--recursive` (alone or in a flag group such as `-rf`);
 * - `git-force-push`: `git push` with `--force`, `-f`, `--force-with-lease` or a `+refspec`;
 * - `git-reset-hard`: `git reset --hard`;
 * - `disk-destroy`: `dd`, `shred`, `wipefs`, `fdisk`, or any `mkfs*`;
 * - `privileged`: run through `sudo` or `doas`.
 */
export const CHECKS: Record<string, (command: EffectiveCommand) => boolean> = {
  'rm-recursive': ({ program, argv }) =>
    program === 'rm' && argv.some((word) => word === '--recursive' || /^-[A-Za-z]*[rR][A-Za-z]*$/.test(word)),
  'git-force-push': ({ program, argv }) =>
    program === 'git' &&
    argv.includes('push') &&
    argv.some((word) => word === '--force' || word === '-f' || word.startsWith('--force-with-lease') || word.startsWith('+')),
  'git-reset-hard': ({ program, argv }) => program === 'git' && argv.includes('reset') && argv.includes('--hard'),
  'disk-destroy': ({ program }) => ['dd', 'shred', 'wipefs', 'fdisk'].includes(program) || program.startsWith('mkfs'),
  privileged: ({ wrappers }) => wrappers.includes('sudo') || wrappers.includes('doas'),
};

/** A trailing-`*` glob, or an exact name. */
export function globMatch(pattern: string, name: string): boolean {
  return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}

/** Whether the call's `url` argument has this host: exact, or a `*.` suffix that needs at least one more label. */
export function hostMatch(pattern: string, url: unknown): Tri {
  if (typeof url !== 'string') return 'unknown';
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return 'unknown';
  }
  if (!host) return 'unknown';
  const wanted = pattern.toLowerCase();
  if (wanted.startsWith('*.')) return host.endsWith(wanted.slice(1)) && host.length > wanted.length - 1 ? 'yes' : 'no';
  return host === wanted ? 'yes' : 'no';
}
