import { type OptionSpec, readOptions } from './options.js';
import type { Word } from './shell-line.js';

const POSIX_SHELLS = new Set(['sh', 'bash', 'rbash', 'dash', 'ash', 'zsh', 'ksh', 'mksh', 'lksh', 'oksh', 'pdksh', 'yash', 'posh']);
// Their languages are not the POSIX shell's: a line given to them is never read.
const FOREIGN_SHELLS = new Set(['pwsh', 'powershell', 'cmd', 'csh', 'tcsh', 'nu', 'xonsh', 'elvish']);

const FISH: OptionSpec = {
  long: {
    command: 1,
    'init-command': 1,
    login: 0,
    interactive: 0,
    'no-execute': 0,
    profile: 1,
    'profile-startup': 1,
    private: 0,
    debug: 1,
    'debug-output': 1,
    'no-config': 0,
    features: 1,
    'print-rusage-self': 0,
    'print-debug-categories': 0,
    help: 0,
    version: 0,
  },
  short: { c: 'command', C: 'init-command', l: 'login', i: 'interactive', n: 'no-execute', p: 'profile', P: 'private', d: 'debug', o: 'debug-output', N: 'no-config', f: 'features', h: 'help', v: 'version' },
};

const BASH_LONG = new Map<string, 0 | 1>([
  ['login', 0],
  ['norc', 0],
  ['noprofile', 0],
  ['posix', 0],
  ['restricted', 0],
  ['verbose', 0],
  ['noediting', 0],
  ['debugger', 0],
  ['dump-strings', 0],
  ['dump-po-strings', 0],
  ['pretty-print', 0],
  ['protected', 0],
  ['wordexp', 0],
  ['rcfile', 1],
  ['init-file', 1],
  ['help', 0],
  ['version', 0],
]);

/** What a shell program runs: the lines it was given, nothing of the caller's, or something that cannot be read. */
export type ShellRun = { lines: string[] } | 'nothing' | undefined;

/** Whether this (normalised) program name is a shell whose language is the POSIX shell's. */
export function isPosixShell(name: string): boolean {
  return POSIX_SHELLS.has(name);
}

/** Whether this (normalised) program name is a shell. */
export function isShell(name: string): boolean {
  return POSIX_SHELLS.has(name) || FOREIGN_SHELLS.has(name) || name === 'fish';
}

/**
 * What a shell started with these arguments runs. Only a command string
 * (`-c`, alone or in a flag group such as `-lc` or `-ec`) is read; a script
 * file, standard input, an encoded command, or a shell whose language is not
 * the POSIX shell's (PowerShell, cmd, csh) is unknown.
 */
export function shellRuns(name: string, args: readonly Word[]): ShellRun {
  if (FOREIGN_SHELLS.has(name)) return undefined;
  if (name === 'fish') return fishRuns(args);
  let command = false;
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i];
    if (word === undefined) return undefined;
    if (word === '--' || word === '-') {
      i++;
      break;
    }
    if (word.startsWith('--')) {
      const takes = BASH_LONG.get(word.slice(2));
      if (takes === undefined) return undefined;
      if (word === '--help' || word === '--version') return 'nothing';
      i += takes;
      continue;
    }
    if (!/^[-+][A-Za-z]+$/.test(word)) break;
    if (word.includes('c')) command = true;
    // -o and -O (set and shopt options) take the next word, once per letter.
    i += (word.match(/[oO]/g) ?? []).length;
  }
  if (i > args.length) return undefined;
  const operand = args[i];
  if (!command || operand === undefined) return undefined;
  return { lines: [operand] };
}

function fishRuns(args: readonly Word[]): ShellRun {
  const read = readOptions(FISH, args);
  if (!read) return undefined;
  const lines: string[] = [];
  for (const { name, value } of read.options) {
    if (name === 'help' || name === 'version') return 'nothing';
    if (name !== 'command' && name !== 'init-command') continue;
    if (typeof value !== 'string') return undefined;
    lines.push(value);
  }
  return read.options.some((o) => o.name === 'command') ? { lines } : undefined;
}

const SU: OptionSpec = {
  long: {
    command: 1,
    'session-command': 1,
    login: 0,
    'preserve-environment': 0,
    shell: 1,
    group: 1,
    'supp-group': 1,
    'whitelist-environment': 1,
    pty: 0,
    fast: 0,
    help: 0,
    version: 0,
  },
  short: {
    c: 'command',
    l: 'login',
    m: 'preserve-environment',
    p: 'preserve-environment',
    s: 'shell',
    g: 'group',
    G: 'supp-group',
    w: 'whitelist-environment',
    P: 'pty',
    f: 'fast',
    h: 'help',
    V: 'version',
  },
};

/**
 * What `su` runs: its `-c`/`--command` line (options may come after the
 * user name, as GNU getopt permutes them), or nothing but a login shell.
 * A shell named with `-s` that is not a POSIX shell, or operands after the
 * user (a script for the shell), is unknown.
 */
export function suRuns(args: readonly Word[]): ShellRun {
  const operands: Word[] = [];
  const lines: string[] = [];
  let rest = [...args];
  while (rest.length > 0) {
    const read = readOptions(SU, rest);
    if (!read) return undefined;
    for (const { name, value } of read.options) {
      if (name === 'help' || name === 'version') return 'nothing';
      if (name === 'shell' && !(typeof value === 'string' && POSIX_SHELLS.has(value.slice(value.lastIndexOf('/') + 1)))) return undefined;
      if (name !== 'command' && name !== 'session-command') continue;
      if (typeof value !== 'string') return undefined;
      lines.push(value);
    }
    const ended = rest.length - read.rest.length > 0 && rest[rest.length - read.rest.length - 1] === '--';
    if (ended) {
      operands.push(...read.rest);
      break;
    }
    const [first, ...after] = read.rest;
    if (read.rest.length > 0) operands.push(first);
    rest = after;
  }
  const user = operands[0] === '-' ? operands.slice(1) : operands;
  if (user.includes(undefined) || user.length > 1) return undefined;
  return lines.length > 0 ? { lines } : 'nothing';
}
