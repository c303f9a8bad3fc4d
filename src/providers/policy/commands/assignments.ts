import type { Word } from './shell-line.js';

// Variables that change which program runs or make a shell run code of
// their own: a start-up file, a prompt expanded under -x, an exported
// function, a library preloaded into the program; git's configuration
// (which can name a program `git status` runs), repository, and the
// programs it starts; and interpreters' options and search paths, which
// load code of the caller's into any script (`NODE_OPTIONS=--import=data:…`,
// `PYTHONPATH` with a `sitecustomize`, `PERL5OPT=-M…`, `LUA_INIT`).
const CHANGES_WHAT_RUNS =
  /^(BASH_ENV|ENV|PATH|IFS|PS[0-4]|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_INSERT_LIBRARIES|BASH_FUNC_.*|GIT_CONFIG.*|GIT_DIR|GIT_COMMON_DIR|GIT_EXEC_PATH|GIT_TEMPLATE_DIR|GIT_EXTERNAL_DIFF|GIT_SSH|GIT_SSH_COMMAND|GIT_PROXY_COMMAND|GIT_ALLOW_PROTOCOL|GIT_ASKPASS|SSH_ASKPASS|GIT_PAGER|PAGER|GIT_EDITOR|GIT_SEQUENCE_EDITOR|EDITOR|VISUAL|NODE_OPTIONS|NODE_PATH|PYTHONPATH|PYTHONHOME|PYTHONSTARTUP|PYTHONINSPECT|PYTHONWARNINGS|PYTHONBREAKPOINT|PYTHONUSERBASE|PERL5OPT|PERL5LIB|PERLLIB|PERL5DB|RUBYOPT|RUBYLIB|LUA_INIT.*|LUA_PATH.*|LUA_CPATH.*|PHPRC|PHP_INI_SCAN_DIR|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|R_PROFILE.*|R_ENVIRON.*|TCLLIBPATH|AWKPATH|AWKLIBPATH|DENO_.*|BUN_OPTIONS)$/;

/**
 * How many leading words are `NAME=VALUE` assignments. The shell takes only
 * a name of letters, digits and `_`; `env` (`loose`) takes any word holding
 * a `=`.
 *
 * @returns the count (an unreadable word ends them, and is left for the
 * caller to find in the program's place), or `undefined` when an
 * assignment changes what runs (`PATH`, `BASH_ENV`, `LD_PRELOAD`, an
 * exported `BASH_FUNC_…`, …).
 */
export function assignments(words: readonly Word[], loose = false): number | undefined {
  let n = 0;
  for (; n < words.length; n++) {
    const word = words[n];
    if (word === undefined) break;
    const eq = word.indexOf('=');
    if (eq <= 0 || (!loose && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(word.slice(0, eq)))) break;
    if (CHANGES_WHAT_RUNS.test(word.slice(0, eq))) return undefined;
  }
  return n;
}
