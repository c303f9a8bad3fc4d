import { assignments } from './assignments.js';
import { type OptionSpec, readOptions } from './options.js';
import { parseShellLine, type Word } from './shell-line.js';

/** A program that runs another program given as its operands. */
interface Wrapper {
  options: OptionSpec;
  /** Operands of its own before the program (timeout's duration, chroot's directory). */
  operands?: number;
  /** Whether `NAME=VALUE` words may come before the program. */
  assignments?: boolean;
  /** Options with which it runs no program of the caller's (`command -v`, `sudo -l`). */
  runsNothing?: string[];
}

const HELP = { help: 0, version: 0 } as const;

const WRAPPERS: Record<string, Wrapper> = {
  env: {
    options: {
      long: {
        ...HELP,
        'ignore-environment': 0,
        null: 0,
        unset: 1,
        chdir: 1,
        'split-string': 1,
        debug: 0,
        argv0: 1,
        'block-signal': '?',
        'default-signal': '?',
        'ignore-signal': '?',
        'list-signal-handling': 0,
      },
      short: { i: 'ignore-environment', '0': 'null', u: 'unset', C: 'chdir', S: 'split-string', v: 'debug', a: 'argv0', P: ['path', 1] },
    },
    assignments: true,
  },
  timeout: {
    options: {
      long: { ...HELP, foreground: 0, 'kill-after': 1, 'preserve-status': 0, signal: 1, verbose: 0 },
      short: { f: 'foreground', k: 'kill-after', p: 'preserve-status', s: 'signal', v: 'verbose' },
    },
    operands: 1,
  },
  nice: { options: { long: { ...HELP, adjustment: 1 }, short: { n: 'adjustment' }, numeric: true } },
  nohup: { options: { long: { ...HELP }, short: {} } },
  stdbuf: { options: { long: { ...HELP, input: 1, output: 1, error: 1 }, short: { i: 'input', o: 'output', e: 'error' } } },
  ionice: {
    options: {
      long: { ...HELP, class: 1, classdata: 1, pid: 1, pgid: 1, uid: 1, ignore: 0 },
      short: { c: 'class', n: 'classdata', p: 'pid', P: 'pgid', u: 'uid', t: 'ignore', h: 'help', V: 'version' },
    },
    runsNothing: ['pid', 'pgid', 'uid'],
  },
  chrt: {
    options: {
      long: {
        ...HELP,
        'all-tasks': 0,
        batch: 0,
        deadline: 0,
        fifo: 0,
        idle: 0,
        other: 0,
        rr: 0,
        ext: 0,
        'reset-on-fork': 0,
        'sched-runtime': 1,
        'sched-period': 1,
        'sched-deadline': 1,
        pid: 0,
        max: 0,
        verbose: 0,
      },
      short: {
        a: 'all-tasks',
        b: 'batch',
        d: 'deadline',
        f: 'fifo',
        i: 'idle',
        o: 'other',
        r: 'rr',
        e: 'ext',
        R: 'reset-on-fork',
        T: 'sched-runtime',
        P: 'sched-period',
        D: 'sched-deadline',
        p: 'pid',
        m: 'max',
        v: 'verbose',
        h: 'help',
        V: 'version',
      },
    },
    operands: 1,
    runsNothing: ['pid', 'max'],
  },
  taskset: {
    options: { long: { ...HELP, 'all-tasks': 0, 'cpu-list': 0, pid: 0 }, short: { a: 'all-tasks', c: 'cpu-list', p: 'pid', h: 'help', V: 'version' } },
    operands: 1,
    runsNothing: ['pid'],
  },
  setsid: { options: { long: { ...HELP, ctty: 0, fork: 0, wait: 0 }, short: { c: 'ctty', f: 'fork', w: 'wait', h: 'help', V: 'version' } } },
  time: {
    options: {
      long: { ...HELP, format: 1, portability: 0, output: 1, append: 0, verbose: 0, quiet: 0 },
      short: { f: 'format', p: 'portability', o: 'output', a: 'append', v: 'verbose', q: 'quiet' },
    },
  },
  command: { options: { long: {}, short: { p: ['default-path', 0], v: ['describe', 0], V: ['describe', 0] } }, runsNothing: ['describe'] },
  builtin: { options: { long: {}, short: {} } },
  exec: { options: { long: {}, short: { a: ['name', 1], c: ['clear', 0], l: ['login', 0] } } },
  chroot: { options: { long: { ...HELP, userspec: 1, groups: 1, 'skip-chdir': 0 }, short: {} }, operands: 1 },
  sudo: {
    options: {
      long: {
        ...HELP,
        askpass: 0,
        background: 0,
        bell: 0,
        'close-from': 1,
        chdir: 1,
        'preserve-env': '?',
        edit: 0,
        group: 1,
        'set-home': 0,
        host: 1,
        login: 0,
        'remove-timestamp': 0,
        'reset-timestamp': 0,
        list: 0,
        'non-interactive': 0,
        'preserve-groups': 0,
        prompt: 1,
        chroot: 1,
        role: 1,
        stdin: 0,
        shell: 0,
        type: 1,
        'command-timeout': 1,
        'other-user': 1,
        user: 1,
        validate: 0,
      },
      short: {
        A: 'askpass',
        a: ['auth-type', 1],
        b: 'background',
        B: 'bell',
        C: 'close-from',
        c: ['class', 1],
        D: 'chdir',
        E: ['preserve-env', 0],
        e: 'edit',
        g: 'group',
        H: 'set-home',
        h: ['help', '?'],
        i: 'login',
        K: 'remove-timestamp',
        k: 'reset-timestamp',
        l: 'list',
        N: ['no-update', 0],
        n: 'non-interactive',
        P: 'preserve-groups',
        p: 'prompt',
        R: 'chroot',
        r: 'role',
        S: 'stdin',
        s: 'shell',
        T: 'command-timeout',
        t: 'type',
        U: 'other-user',
        u: 'user',
        V: 'version',
        v: 'validate',
      },
    },
    assignments: true,
    runsNothing: ['edit', 'list', 'validate'],
  },
  doas: {
    options: { long: {}, short: { u: ['user', 1], C: ['config', 1], n: ['non-interactive', 0], s: ['shell', 0], L: ['clear', 0] } },
    runsNothing: ['config', 'clear'],
  },
  pkexec: { options: { long: { ...HELP, user: 1, 'disable-internal-agent': 0, 'keep-cwd': 0 }, short: {} } },
  run0: {
    options: {
      long: {
        ...HELP,
        'no-ask-password': 0,
        unit: 1,
        property: 1,
        description: 1,
        slice: 1,
        'slice-inherit': 0,
        user: 1,
        group: 1,
        nice: 1,
        chdir: 1,
        setenv: 1,
        background: 1,
        pty: 0,
        pipe: 0,
        'shell-prompt-prefix': 1,
        machine: 1,
        'via-shell': 0,
        area: 1,
      },
      short: { u: 'user', g: 'group', D: 'chdir', i: 'via-shell', h: 'help', V: 'version' },
    },
  },
  xargs: {
    options: {
      long: {
        ...HELP,
        null: 0,
        'arg-file': 1,
        delimiter: 1,
        eof: '?',
        replace: '?',
        'max-lines': '?',
        'max-args': 1,
        'max-procs': 1,
        interactive: 0,
        'no-run-if-empty': 0,
        'max-chars': 1,
        verbose: 0,
        exit: 0,
        'open-tty': 0,
        'process-slot-var': 1,
        'show-limits': 0,
      },
      short: {
        '0': 'null',
        a: 'arg-file',
        d: 'delimiter',
        E: ['eof', 1],
        e: 'eof',
        I: ['replace', 1],
        i: 'replace',
        L: ['max-lines', 1],
        l: 'max-lines',
        n: 'max-args',
        P: 'max-procs',
        p: 'interactive',
        r: 'no-run-if-empty',
        s: 'max-chars',
        t: 'verbose',
        x: 'exit',
        o: 'open-tty',
      },
    },
  },
};

/** What taking a wrapper off gives: the words of the program it runs, the wrapper itself (it runs nothing else), or unknown. */
export type Unwrapped = { words: Word[] } | 'itself' | undefined;

/** Whether this (normalised) program name is a wrapper this module reads. */
export function isWrapper(name: string): boolean {
  return Object.hasOwn(WRAPPERS, name);
}

/**
 * Takes one wrapper off: reads its options (each option's value consumed),
 * its own operands and assignments, and returns the words of the program it
 * runs. An option the wrapper does not have, or a word that cannot be read
 * where its options or operands are, makes the whole command unknown.
 * `xargs` appends arguments nobody can know (an unknown word); `env -S`
 * splits its string into the words read next.
 */
export function unwrap(name: string, args: readonly Word[]): Unwrapped {
  const wrapper = WRAPPERS[name] as Wrapper;
  const read = readOptions(wrapper.options, args);
  if (!read) return undefined;
  const { options } = read;
  let rest = read.rest;
  const given = (option: string) => options.some((o) => o.name === option);
  if (given('help') || given('version') || wrapper.runsNothing?.some(given)) return 'itself';
  if (name === 'env') {
    // BSD env -P DIR looks the program up there, not on PATH.
    if (given('path')) return undefined;
    if (rest[0] === '-') rest = rest.slice(1);
    const split = options.filter((o) => o.name === 'split-string');
    if (split.length > 0) return splitString(split, rest);
  }
  if (wrapper.assignments) {
    const n = assignments(rest, name === 'env');
    if (n === undefined) return undefined;
    rest = rest.slice(n);
  }
  const operands = wrapper.operands ?? 0;
  if (rest.slice(0, operands).includes(undefined)) return undefined;
  rest = rest.slice(operands);
  if (rest.length === 0) return 'itself';
  if (name === 'xargs') {
    const replace = options.find((o) => o.name === 'replace');
    const marker = replace === undefined ? undefined : replace.value === null ? '{}' : replace.value;
    if (replace !== undefined && marker === undefined) return undefined;
    rest = rest.map((word) => (marker !== undefined && word?.includes(marker) ? undefined : word));
    rest.push(undefined);
  }
  return { words: rest };
}

// env -S STRING: the string is split into words that env reads as its own
// arguments. Only a plain string (no escapes, one command) is read.
function splitString(split: Array<{ value: Word | null }>, rest: Word[]): Unwrapped {
  const value = split.length === 1 ? split[0]?.value : undefined;
  if (typeof value !== 'string' || value.includes('\\')) return undefined;
  const commands = parseShellLine(value);
  if (!commands || commands.length > 1) return undefined;
  return { words: ['env', ...(commands[0] ?? []), ...rest] };
}
