import { assignments } from './assignments.js';
import { type CommandSource, programName } from './effective-command.js';
import { isPosixShell } from './shells.js';

// Argument names, compared without case, `_` or `-`, that hold a command:
// a string is a shell line, a list of strings an argv run without a shell.
const COMMAND_KEYS = new Set(['command', 'cmd', 'commandline', 'cmdline', 'shellcommand', 'bashcommand', 'script', 'shellscript', 'program', 'executable', 'argv']);
// Names that hold several shell lines (a string is one).
const LINES_KEYS = new Set(['commands', 'scripts']);
// Names that may hold a command though they say more (`shellCmd`,
// `commandString`, `script_body`) or say it otherwise (`run`, `exec`): a
// string or a list of strings there is read as one; anything else is walked
// as any argument is (`commandTimeout: 30` holds no command).
const LOOSE_KEY = /command|cmd|script|^(run|exec|execute)$/;
// Names of the arguments appended to the command named beside them (`args`, `cmdArgs`, `commandArguments`).
const ARGS_KEY = /(args|arguments)$/;

// Names of the shell a tool is told to run its command with (`shell: 'pwsh'`).
const SHELL_KEYS = new Set(['shell', 'interpreter', 'shelltype']);
// Names of an environment given to the command (an object, or `NAME=VALUE` strings).
const ENV_KEYS = new Set(['env', 'environment', 'envvars', 'environmentvariables']);

// Bounds on the walk over a call's arguments (objects, lists, and lines in
// a list): past them, unknown.
const MAX_DEPTH = 32;
const MAX_NODES = 10_000;

// Were a tool to join its arguments into a line for a shell: characters that
// shell would read as syntax, and characters it would expand.
const SHELL_SYNTAX = /[\n\r;&|<>()$`\\"']/;
const SHELL_EXPANDS = /[*?[\]{}~#]/;

const normalise = (key: string) => key.toLowerCase().replace(/[-_]/g, '');

/**
 * The commands a call's arguments carry, wherever they sit: every argument
 * whose name says it holds a command (`command`, `cmd`, `commandLine`,
 * `shell_command`, `script`, `program`, `argv`, `commands`, …; see the
 * policy docs), at any depth of nested objects and lists, with an `args` or
 * `arguments` list beside it appended; an environment (`env`) that sets a
 * variable changing what runs, or a `shell` that is not a POSIX shell, is unknown. A value of another type, or
 * arguments too deep or too many to walk, is an unreadable source
 * (`undefined`).
 *
 * @returns the sources, or `undefined` when no argument names a command.
 */
export function commandSources(args: Record<string, unknown>): Array<CommandSource | undefined> | undefined {
  const sources: Array<CommandSource | undefined> = [];
  let named = false;
  const stack: Array<[unknown, number]> = [[args, 0]];
  let nodes = 0;
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const [value, depth] = entry;
    if (++nodes > MAX_NODES || depth > MAX_DEPTH) return [undefined];
    if (Array.isArray(value)) {
      // Counted before it is opened: a list of millions costs what one just past the limit does.
      if ((nodes += value.length) > MAX_NODES) return [undefined];
      for (const item of value) if (typeof item === 'object' && item !== null) stack.push([item, depth + 1]);
      continue;
    }
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    // Every list of arguments beside a command: a tool may append any of them.
    const extras = keys.filter((key) => ARGS_KEY.test(normalise(key)));
    const appended = extras.every((key) => isStringList(object[key])) ? extras.flatMap((key) => object[key] as string[]) : undefined;
    for (const key of keys) {
      const name = normalise(key);
      const held = object[key];
      if (COMMAND_KEYS.has(name)) {
        named = true;
        sources.push(source(held, appended));
      } else if (LINES_KEYS.has(name)) {
        named = true;
        if (!Array.isArray(held)) sources.push(typeof held === 'string' ? { line: held } : undefined);
        else if ((nodes += held.length) > MAX_NODES) return [undefined];
        else for (const line of held) sources.push(typeof line === 'string' ? { line } : undefined);
      } else if (!extras.includes(key) && LOOSE_KEY.test(name) && (typeof held === 'string' || isStringList(held))) {
        named = true;
        sources.push(source(held, appended));
      } else if (SHELL_KEYS.has(name) && !(typeof held === 'boolean' || (typeof held === 'string' && isPosixShell(programName(held.slice(Math.max(held.lastIndexOf('/'), held.lastIndexOf('\\')) + 1)))))) {
        // A line for PowerShell or cmd (`Remove-Item -Recurse`, `rd /s`) is not read as a POSIX shell's.
        named = true;
        sources.push(undefined);
      } else if (ENV_KEYS.has(name) && changesWhatRuns(held)) {
        // `{ command: 'git status', env: { GIT_CONFIG_PARAMETERS: … } }`: as an assignment before it would.
        named = true;
        sources.push(undefined);
      } else if (typeof held === 'object' && held !== null) {
        stack.push([held, depth + 1]);
      }
    }
  }
  return named ? sources : undefined;
}

function source(held: unknown, appended: unknown): CommandSource | undefined {
  if (!isStringList(appended)) return undefined;
  if (typeof held === 'string') {
    // A tool may join the two into one line for a shell: an argument the
    // shell would read as syntax could then start anything.
    if (appended.some((word) => SHELL_SYNTAX.test(word))) return undefined;
    return { line: held, then: appended.map((word) => (SHELL_EXPANDS.test(word) ? undefined : word)) };
  }
  if (isStringList(held)) return { words: [...held, ...appended] };
  return undefined;
}

function changesWhatRuns(env: unknown): boolean {
  if (isStringList(env)) return assignments(env, true) === undefined;
  return typeof env === 'object' && env !== null && Object.keys(env).some((name) => assignments([`${name}=`], true) === undefined);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
