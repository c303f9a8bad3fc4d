import type { Word } from './shell-line.js';

/** How an interpreter is told to run code written on its command line, as far as the floor reads it. */
interface Interpreter {
  /** Short letters whose option is code to run (`-c`, `-e`), alone or in a group (`-ic`, `-ne`). */
  code: string;
  /** Long options whose value is code to run (`--eval`). */
  codeLong?: string[];
  /** Short letters that take a value: the rest of their group, or else the next word. */
  valued?: string;
  /** Long options that take a value: after `=`, or else the next word. */
  valuedLong?: string[];
  /** Long options known to take no value, so the word after one is the script. */
  flagLong?: RegExp;
  /** A letter whose value names the script or module to run, after which the words are its own (`python -m pytest`, `php -f x.php`). */
  script?: string;
  /** Modules that run code given on the command line (`python -m timeit 'code'`). */
  inlineModules?: string[];
  /** Subcommands that run code given inline (`deno eval`). */
  codeCommands?: string[];
  /** Subcommands that run a script named after them (`deno run x.ts`); any other first word is a script. */
  runCommands?: string[];
}

// `-i` reads standard input as code once the script is done; `asyncio` is a REPL too.
const PYTHON: Interpreter = { code: 'ci', valued: 'WXQ', valuedLong: ['check-hash-based-pycs'], script: 'm', inlineModules: ['timeit', 'pdb', 'code', 'cProfile', 'profile', 'asyncio'] };
const NODE: Interpreter = {
  code: 'ep',
  codeLong: ['eval', 'print'],
  valued: 'rC',
  valuedLong: ['require', 'import', 'loader', 'experimental-loader', 'input-type', 'conditions', 'title', 'env-file', 'env-file-if-exists', 'stack-size', 'watch-path', 'disable-warning'],
  flagLong: /^(no-|trace-|experimental-|inspect|watch$|test$|check$|interactive$|enable-source-maps$|expose-gc$|preserve-symlinks|throw-deprecation$|pending-deprecation$|abort-on-uncaught-exception$|frozen-intrinsics$|jitless$|cpu-prof$|heap-prof$)/,
};
const RUBY: Interpreter = { code: 'e', valued: 'ICrEF', valuedLong: ['enable', 'disable', 'encoding', 'external-encoding', 'internal-encoding', 'dump'] };

// Interpreters by program name (as `programName` gives it). Each reads its
// code from standard input when given no script, which a pipe or a here
// document can fill, so that is inline code too.
const INTERPRETERS = new Map<string, Interpreter>([
  ['perl', { code: 'eEMm' }],
  ['ruby', RUBY],
  ['jruby', RUBY],
  ['truffleruby', RUBY],
  ['irb', RUBY],
  ['node', NODE],
  ['nodejs', NODE],
  ['tsx', NODE],
  ['ts-node', NODE],
  ['bun', { ...NODE, runCommands: ['run', 'x', 'test'] }],
  ['deno', { code: 'e', codeLong: ['eval', 'print'], codeCommands: ['eval', 'repl'], runCommands: ['run', 'test', 'serve', 'bench', 'task', 'compile', 'install'] }],
  ['php', { code: 'rBRE', codeLong: ['run', 'process-begin', 'process-code', 'process-end'], script: 'f', valued: 'cdzt', valuedLong: ['php-ini', 'define', 'file', 'zend-extension', 'docroot'] }],
  ['lua', { code: 'el', valued: '' }],
  ['luajit', { code: 'elj', valued: 'bO' }],
  ['osascript', { code: 'e', valued: 'lis' }],
  ['rscript', { code: 'e', valuedLong: ['default-packages'] }],
  ['r', { code: 'e', script: 'f', valued: 'dg', valuedLong: ['file', 'debugger', 'gui', 'args', 'encoding'] }],
  ['tclsh', { code: '', valued: '' }],
  ['wish', { code: '', valued: '' }],
  ['julia', { code: 'eEL', codeLong: ['eval', 'print', 'load'], valued: 'ptJCOg', valuedLong: ['project', 'threads', 'sysimage', 'cpu-target', 'optimize', 'depwarn', 'startup-file', 'history-file', 'banner', 'color', 'math-mode'] }],
  ['elixir', { code: 'er', codeLong: ['eval', 'require'], valued: 'S', valuedLong: ['erl', 'name', 'sname', 'cookie', 'pa', 'pz'] }],
  ['racket', { code: 'efrtlpikmu', codeLong: ['eval', 'load', 'require', 'lib'] }],
  ['guile', { code: 'cls', valued: 'Lx', valuedLong: ['use-srfi'] }],
  ['sbcl', { code: '', codeLong: ['eval', 'load', 'script'] }],
  ['clisp', { code: 'xi', valued: 'BKMmELq' }],
  ['groovy', { code: 'ep', valued: 'cDa', valuedLong: ['encoding', 'classpath'] }],
  ['scala', { code: 'e', valued: 'cp', valuedLong: ['classpath'] }],
  ['ghc', { code: 'e' }],
  ['runghc', { code: 'e' }],
  ['swift', { code: 'e' }],
  ['jshell', { code: '', valuedLong: ['class-path', 'module-path', 'add-modules', 'startup'] }],
]);

/** Whether this (normalised) program name is an interpreter whose inline code the floor cannot read. */
function interpreterOf(name: string): Interpreter | undefined {
  // Under any build's name too: `pythonw`, `python3-dbg`, `python3.12d`, `ipython3`, `micropython`, `jython`, `graalpy`.
  if (/^(python|pypy|ipython|micropython|jython|graalpy)[0-9.]*(w|d|m|-dbg)?$/.test(name) || name === 'py' || name === 'pyw') return PYTHON;
  // Installed under a version too: `perl5.36`, `lua5.4`, `ruby3.2`, `php8.2`, `tclsh8.6`.
  return INTERPRETERS.get(name) ?? INTERPRETERS.get(name.replace(/-?[0-9][0-9.]*$/, ''));
}

/**
 * Whether a program runs code handed to it inline, which the floor cannot
 * read: an interpreter's code option (`python -c`, `perl -e`, `node
 * --eval`, `php -r`, in a group such as `-ic` or `-ne`), its code read from
 * standard input (no script, `-`, `/dev/stdin`, see `readsInput`), a module
 * or subcommand that runs inline code (`python -m timeit`, `deno eval`), a
 * `data:` URL given as a module to load; an awk program that runs commands
 * (`system`, a pipe, gawk's `@` indirect calls and extensions); or a
 * program whose own words can run a command (`sqlite3 '.shell …'`, `psql
 * '\! …'`, `gdb -ex`, `npx -c`; see `SHELL_ESCAPES`). A word that cannot be read
 * where it matters counts as inline code.
 */
export function runsInlineCode(name: string, args: readonly Word[]): boolean {
  if (AWKS.has(name) || AWKS.has(name.replace(/-?[0-9][0-9.]*$/, ''))) return awkRunsCommands(args);
  const escape = SHELL_ESCAPES.get(name);
  if (escape) return args.some((word) => word === undefined || escape.test(word));
  const spec = interpreterOf(name);
  return spec !== undefined && interpreterRunsInline(spec, args);
}

// What an interpreter's words say about the code it runs.
function interpreterRunsInline(spec: Interpreter, args: readonly Word[]): boolean {
  // The interpreter's own options say nothing: it runs nothing of the caller's.
  if (args.length > 0 && args.every((word) => INFO.has(word as string))) return false;
  // Set by a long option not known to take a value or not: the next word
  // may be its value or the script, so scanning goes on past it.
  let unsure = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (word === undefined || readsInput(word)) return true;
    if (word === '--') return args[i + 1] === undefined || readsInput(args[i + 1] as string);
    if (word.startsWith('--')) {
      const [given, value] = splitLong(word.slice(2));
      if (spec.codeLong?.includes(given)) return true;
      if (value !== undefined) {
        if (mayBeCode(value)) return true;
      } else if (spec.valuedLong?.includes(given)) {
        if (mayBeCode(args[++i])) return true;
      } else if (!spec.flagLong?.test(given) && !INFO.has(word)) {
        unsure = true;
        continue;
      }
    } else if (word.startsWith('-') && word.length > 1) {
      for (let j = 1; j < word.length; j++) {
        const letter = word[j] as string;
        if (spec.code.includes(letter)) return true;
        if (letter === spec.script) return scriptRunsInline(spec, word.slice(j + 1) || args[i + 1]);
        if (spec.valued?.includes(letter)) {
          if (mayBeCode(word.slice(j + 1) || args[++i])) return true;
          break;
        }
      }
    } else if (spec.codeCommands?.includes(word) && i === 0) {
      return true;
    } else if (spec.runCommands?.includes(word) && i === 0) {
      // `deno run x.ts`: what follows is read as the interpreter's own words again.
      return interpreterRunsInline({ ...spec, runCommands: [], codeCommands: [] }, args.slice(1));
    } else if (!unsure) {
      // The script: a file, unless it is standard input or another descriptor by another name, or a data: URL.
      return mayBeCode(word);
    }
    unsure = false;
  }
  // No script was named for certain: the code comes from standard input.
  return true;
}

// Programs whose words can run a command of the caller's: a database
// shell's escape (`sqlite3 db '.shell …'`, `.output |cmd`, `.load lib`;
// psql's `\! …`, `\o |cmd`, `-o '|cmd'`, `COPY … PROGRAM`; mysql's
// `system …`, `\! …` and its pager), gdb's
// commands (`-ex 'shell …'`), npx's and npm's `-c`/`--call` line. Any word
// that matches counts, wherever it stands.
const SHELL_ESCAPES = new Map<string, RegExp>([
  ['sqlite3', /\.(sh|shell|system|load|output|once|import)\b|\|/],
  ['psql', /\\(!|[ogw]\s*\|)|^\s*\||\bprogram\b/i],
  ['mysql', /\\[!P]|\b(system|pager)\b/i],
  ['mariadb', /\\[!P]|\b(system|pager)\b/i],
  // gdb reads long options with one dash, abbreviated (`-eval`, `-comm`).
  ['gdb', /^--?(i?ex|i?x|(init-)?(ev|com)[a-z-]*)(=|$)/],
  ['npx', /^(-c|--call)(=|$)/],
  ['npm', /^(-c|--call)(=|$)/],
]);

// Alone, these ask the interpreter about itself (`-v` is not among them: python reads it as verbose).
const INFO = new Set(['--version', '--help', '-V', '-h', '-version']);

function splitLong(option: string): [name: string, value: string | undefined] {
  const at = option.indexOf('=');
  return at === -1 ? [option, undefined] : [option.slice(0, at), option.slice(at + 1)];
}

// An option's value that may be code: one that cannot be read, a data:
// URL (a module given as one is its own source text), or standard input
// (`--require=/dev/stdin`, php's `-d auto_prepend_file=/dev/stdin`).
const mayBeCode = (value: Word): boolean => value === undefined || /^\s*data:/i.test(value) || readsInput(value.slice(value.indexOf('=') + 1));

function scriptRunsInline(spec: Interpreter, script: Word): boolean {
  return script === undefined || readsInput(script) || (spec.inlineModules?.includes(script) ?? false);
}

/**
 * Whether a script named by this word is what the caller writes to the
 * program's input, as `-` is: `/dev/stdin`, `/dev/fd/N`, `/proc/self/fd/N`
 * (filled by a pipe, a here-string `3<<<'…'` or a process substitution), or
 * any file under `/dev` or `/proc`, or a path that climbs with `..`, which
 * may lead there.
 */
export function readsInput(word: string): boolean {
  return word === '-' || /^\/+(?:\.\/+)*(?:dev|proc)(?:\/|$)/.test(word) || /^\/.*(?:^|\/)\.\.(?:\/|$)/.test(word);
}

const AWKS = new Set(['awk', 'gawk', 'mawk', 'nawk', 'original-awk', 'onetrue-awk', 'bwk-awk', 'goawk', 'busybox-awk']);

// What in an awk program runs a command: `system(…)`, a pipe to or from a
// command (`print | "sh"`, `"cmd" | getline`, gawk's `|&`), gawk's indirect
// calls (`@f()`, which may name `system`) and its `@load` and `@include`.
// Generous: `||` counts too, as the floor errs toward asking.
const AWK_RUNS = /system|[|@]/;

// awk's program text is its first operand, or each `-e`/`--source`; `-f`
// names a file of it, which the floor does not read (as it reads no
// script's file), unless it is standard input (`-f -`, `-f /dev/stdin`).
// `-l`/`--load`, `-E`, `--exec` and gawk's `-W` naming any of these are unknown.
function awkRunsCommands(args: readonly Word[]): boolean {
  const programs: Word[] = [];
  let fromFile = false;
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i];
    if (word === undefined) return true;
    if (word === '--') {
      i++;
      break;
    }
    if (word.startsWith('--')) {
      const [given, value] = splitLong(word.slice(2));
      const next = () => value ?? args[++i];
      if (['load', 'exec', 'include'].some((name) => name.startsWith(given))) return true;
      if ('source'.startsWith(given) && given.length > 1) programs.push(next());
      else if ('file'.startsWith(given) && given.length > 1) {
        const file = next();
        if (file === undefined || readsInput(file)) return true;
        fromFile = true;
      } else if (['field-separator', 'assign'].some((name) => name.startsWith(given)) && given.length > 1) next();
      continue;
    }
    if (!word.startsWith('-') || word === '-') break;
    // Letters group as getopt reads them (`-nv x=1`, `-Pf prog.awk`): the
    // first that takes a value takes the rest of the word, or the next word.
    for (let j = 1; j < word.length; j++) {
      const letter = word[j] as string;
      if ('lE'.includes(letter)) return true;
      if (!'efiWFv'.includes(letter)) continue;
      const value = word.slice(j + 1) || args[++i];
      if (letter === 'e') programs.push(value);
      else if (letter === 'f' || letter === 'i') {
        // A file of program text (`-i` includes one before the program).
        if (value === undefined || readsInput(value)) return true;
        fromFile ||= letter === 'f';
      } else if (letter === 'W') {
        // gawk reads `-W name=value` as `--name=value`; mawk's `-W exec` runs a file.
        const given = value === undefined ? undefined : splitLong(value)[0];
        if (given === undefined || ['exec', 'source', 'file', 'include', 'load'].some((name) => name.startsWith(given))) return true;
      }
      break;
    }
  }
  if (!fromFile && programs.length === 0 && i < args.length) programs.push(args[i]);
  return programs.some((program) => program === undefined || AWK_RUNS.test(program));
}
