// Exit codes (USAGE and docs/cli.md list them too), in a file of their own:
// main.ts answers --help, --version and bad usage with them before it loads
// the commands, which use them too.

/** The command did what was asked. */
export const OK = 0;
/** The tool answered, with its result marked as an error. */
export const TOOL_ERROR = 1;
/** The command line was wrong. */
export const USAGE_ERROR = 2;
/** A connection, protocol or timeout error, or any other failure. */
export const FAILURE = 3;
/** Interrupted (Ctrl-C); a signal that stops a command exits 128 + its number. */
export const INTERRUPTED = 130;
