import { assignments } from './assignments.js';
import { gitRuns } from './git-command.js';
import { runsInlineCode } from './interpreters.js';
import { type OptionSpec, readOptions } from './options.js';
import { parseShellLine, type Word } from './shell-line.js';
import { runsElsewhere } from './remote.js';
import { isShell, shellRuns, suRuns } from './shells.js';
import { isWrapper, unwrap } from './wrappers.js';

/** One program a call runs, once wrappers and shells are taken off. */
export interface EffectiveCommand {
  /** The program's basename (after the last `/` or `\`). */
  program: string;
  /** Its arguments (without the program); `undefined` for a word that cannot be known before it runs. */
  argv: Word[];
  /** The wrappers and shells that were taken off, outermost first (`sudo`, `env`, `sh`, …). */
  wrappers: string[];
  /**
   * Whether it or a wrapper was named by a path (`./git`, `/tmp/x/env`)
   * rather than looked up on `PATH`: a file there may be anything.
   */
  byPath?: boolean;
}

/** Where a call's command comes from: a shell line, or an argv run without a shell. */
export type CommandSource = { line: string; then?: Word[] } | { words: Word[] };

// A line handed to a shell inside a shell… past this many levels, unknown.
const MAX_DEPTH = 8;
// Every program a call runs is weighed; past this many it is unknown.
const MAX_PROGRAMS = 1_000;
// Wrappers around one program (`nice nice … rm`): past this many, unknown.
const MAX_WRAPPERS = 64;

// Words a shell reads as syntax at the start of a command, not as a program.
const RESERVED = new Set(['!', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'case', 'esac', 'in']);

// Builtins that set variables for the rest of the line.
const DECLARES = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);
// Builtins whose effect on what runs later cannot be followed: a file read
// as shell code, an alias,
// a coprocess with a name, arithmetic (`let`) that runs what a variable holds.
const UNREADABLE = new Set(['source', '.', 'alias', 'coproc', 'enable', 'let']);
// Programs whose work is to run a command they are given, whose options
// are not read here: unknown, rather than taken as the program.
const LAUNCHERS = new Set(
  (
    'flock unshare nsenter setpriv prlimit strace ltrace valgrind script parallel sem firejail bwrap systemd-run systemd-inhibit runuser ' +
    'unbuffer faketime torsocks proxychains proxychains4 chronic numactl cpulimit trickle tsp at batch tmux screen dtach expect entr sg ' +
    'catchsegv cgexec setarch linux32 linux64 capsh chpst softlimit setuidgid daemonize start-stop-daemon machinectl wsl runas'
  ).split(' '),
);
// Builtins (and loops) that take a variable's name to set, or one in whose
// array subscript bash runs any `$(…)`; printf and test only with the
// option that names one.
const TAKES_NAMES = new Map<string, string[]>([
  ['for', []],
  ['select', []],
  ['read', []],
  ['getopts', []],
  ['mapfile', []],
  ['readarray', []],
  ['wait', []],
  ['unset', []],
  ['printf', ['-v']],
  ['test', ['-v', '-R']],
]);

const WATCH: OptionSpec = {
  long: {
    beep: 0,
    color: 0,
    'no-color': 0,
    differences: '?',
    errexit: 0,
    chgexit: 0,
    interval: 1,
    precise: 0,
    equexit: 1,
    'no-rerun': 0,
    'no-title': 0,
    'no-wrap': 0,
    exec: 0,
    help: 0,
    version: 0,
  },
  short: { b: 'beep', c: 'color', C: 'no-color', d: 'differences', e: 'errexit', g: 'chgexit', n: 'interval', p: 'precise', q: 'equexit', r: 'no-rerun', t: 'no-title', w: 'no-wrap', x: 'exec', h: 'help', v: 'version' },
};

// Whether a builtin given these arguments may evaluate a subscript nobody
// can read (a name that is unknown, or holds `[` and an expansion), or set
// a variable that changes what runs (`read PATH`, `printf -vPATH`, `for IFS in`).
function touchesNames(name: string, args: readonly Word[]): boolean {
  const when = TAKES_NAMES.get(name);
  if (when === undefined || (when.length > 0 && !args.some((word) => when.some((flag) => word?.startsWith(flag))))) return false;
  // A loop's words after its name are values, whatever they expand to.
  const names = name === 'for' || name === 'select' ? args.slice(0, 1) : args;
  return names.some((word) => word === undefined || /\[.*[$`]/.test(word) || [word, word.replace(/^-\w/, '')].some((n) => assignments([`${n}=`]) === undefined));
}

/** A program's name as the checks compare it: lowercase (as case-insensitive file systems find it), without `.exe`. */
export function programName(program: string): string {
  return program.toLowerCase().replace(/\.exe$/, '');
}

interface Pending {
  words: Word[];
  depth: number;
  wrappers: string[];
  byPath: boolean;
}

/**
 * Every program the sources run, each as an effective command, or
 * `undefined` for one that cannot be read to a conclusion (an unknown word
 * in the program's place, a wrapper option it does not know, a shell
 * running a script, `source`, …). Shell lines are split into all their
 * commands; shells with `-c`, `eval`, `trap`, `watch`, `su -c`,
 * `find -exec` and git's `submodule foreach`, `bisect run` and
 * `rebase --exec` are read into the commands they run, to a bounded depth;
 * wrappers (`env`, `sudo`, `timeout`, `xargs`, `busybox`, …) are taken off;
 * git whose subcommand cannot be read (an alias) is unknown, and so is a
 * program given code inline (`python -c`, `awk '…system…'`, see
 * `runsInlineCode`), one that runs a command elsewhere (`ssh HOST CMD`,
 * `docker exec`) or deletes as a mirror (`rsync --delete`; see `runsElsewhere`).
 */
export function effectiveCommands(sources: ReadonlyArray<CommandSource | undefined>): Array<EffectiveCommand | undefined> {
  const found: Array<EffectiveCommand | undefined> = [];
  const pending: Pending[] = [];
  const addLine = (line: string, depth: number, wrappers: string[], byPath: boolean, then: Word[] = []) => {
    const commands = depth > MAX_DEPTH ? undefined : parseShellLine(line);
    if (!commands) return found.push(undefined);
    // Words given beside a line belong to its last command.
    if (then.length > 0) commands.splice(-1, 1, [...(commands.at(-1) ?? []), ...then]);
    for (const words of commands) pending.push({ words, depth, wrappers, byPath });
  };
  for (const source of sources) {
    if (source === undefined) found.push(undefined);
    else if ('line' in source) addLine(source.line, 0, [], false, source.then);
    else pending.push({ words: source.words, depth: 0, wrappers: [], byPath: false });
  }
  for (let item = pending.pop(); item; item = pending.pop()) {
    if (found.length + pending.length > MAX_PROGRAMS) return [undefined];
    const { depth } = item;
    const wrappers = [...item.wrappers];
    let { words, byPath } = item;
    for (;;) {
      if (wrappers.length > MAX_WRAPPERS) {
        found.push(undefined);
        break;
      }
      let start = 0;
      while (start < words.length && RESERVED.has(words[start] as string)) start++;
      const assigned = assignments(words.slice(start));
      if (assigned === undefined) {
        found.push(undefined);
        break;
      }
      words = words.slice(start + assigned);
      const head = words[0];
      if (words.length === 0) break;
      // zsh expands `=rm` to the path of rm.
      if (head === undefined || head.startsWith('=')) {
        found.push(undefined);
        break;
      }
      // Either separator: an argv may name a Windows path.
      const program = head.slice(Math.max(head.lastIndexOf('/'), head.lastIndexOf('\\')) + 1);
      byPath ||= program !== head;
      const name = programName(program);
      const args = words.slice(1);
      const itself = () => found.push({ program, argv: args, wrappers, byPath });
      if (isShell(name) || name === 'su') {
        const runs = name === 'su' ? suRuns(args) : shellRuns(name, args);
        if (runs === undefined) found.push(undefined);
        else if (runs === 'nothing') itself();
        else {
          if (name === 'su') itself();
          for (const line of runs.lines) addLine(line, depth + 1, [...wrappers, program], byPath);
        }
        break;
      }
      if (name === 'eval') {
        if (args.includes(undefined)) found.push(undefined);
        else addLine(args.join(' '), depth + 1, wrappers, byPath);
        break;
      }
      if (DECLARES.has(name)) {
        // export PATH=…, declare -x BASH_ENV=…: what the rest of the line runs changes; with an
        // option (-i, -n, -a) or a subscript, bash evaluates what is assigned.
        if (args.some((word) => word === undefined || /^[-+]|\[/.test(word) || assignments([word], true) === undefined)) found.push(undefined);
        else itself();
        break;
      }
      if (name === 'trap') {
        const action = args[0] === '--' ? args[1] : args[0];
        if (action === undefined) found.push(args.length === 0 ? { program, argv: [], wrappers, byPath } : undefined);
        else if (action.startsWith('-')) itself();
        else addLine(action, depth + 1, wrappers, byPath);
        break;
      }
      if (name === 'watch') {
        const read = readOptions(WATCH, args);
        if (!read || read.rest.length === 0) found.push(read ? { program, argv: args, wrappers, byPath } : undefined);
        else if (read.options.some((o) => o.name === 'exec')) pending.push({ words: read.rest, depth: depth + 1, wrappers: [...wrappers, program], byPath });
        else if (read.rest.includes(undefined)) found.push(undefined);
        else addLine(read.rest.join(' '), depth + 1, [...wrappers, program], byPath);
        break;
      }
      if (UNREADABLE.has(name) || LAUNCHERS.has(name) || touchesNames(name, args)) {
        found.push(undefined);
        break;
      }
      if (name === 'busybox' || name === 'toybox') {
        if (args[0] === undefined || args[0].startsWith('-')) {
          found.push(args.length === 0 ? { program, argv: [], wrappers, byPath } : undefined);
          break;
        }
        wrappers.push(program);
        words = args;
        continue;
      }
      if (name === 'git') {
        const runs = gitRuns(args);
        if (!runs) found.push(undefined);
        else {
          itself();
          for (const line of runs.lines) addLine(line, depth + 1, [...wrappers, program], byPath);
          for (const argv of runs.argvs) pending.push({ words: argv, depth: depth + 1, wrappers: [...wrappers, program], byPath });
        }
        break;
      }
      if (name === 'find') {
        itself();
        findRuns(args, { depth, wrappers: [...wrappers, program], byPath }, pending, found);
        break;
      }
      if (isWrapper(name)) {
        const unwrapped = unwrap(name, args);
        if (unwrapped === undefined) found.push(undefined);
        else if (unwrapped === 'itself') itself();
        else {
          wrappers.push(program);
          words = unwrapped.words;
          continue;
        }
        break;
      }
      // Code it is handed inline, a command it runs on another machine or in
      // a container, a mirror's deletions: none of it is read here.
      if (runsInlineCode(name, args) || runsElsewhere(name, args)) found.push(undefined);
      else itself();
      break;
    }
  }
  return found;
}

// find's -exec, -execdir, -ok and -okdir run a command, up to `;` or `+`,
// with `{}` standing for each file found.
function findRuns(args: readonly Word[], { depth, wrappers, byPath }: Omit<Pending, 'words'>, pending: Pending[], found: Array<EffectiveCommand | undefined>): void {
  if (args.includes(undefined)) {
    found.push(undefined);
    return;
  }
  for (let i = 0; i < args.length; i++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(args[i] as string)) continue;
    const end = args.findIndex((word, j) => j > i && (word === ';' || word === '+'));
    if (end === -1) {
      found.push(undefined);
      return;
    }
    pending.push({ words: args.slice(i + 1, end).map((word) => (word?.includes('{}') ? undefined : word)), depth: depth + 1, wrappers, byPath });
    i = end;
  }
}
