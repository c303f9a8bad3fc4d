import { commandSources } from './command-arguments.js';
import { type EffectiveCommand, effectiveCommands, programName } from './effective-command.js';
import type { Tri } from '../tri.js';

export { CHECKS } from './command-checks.js';
export type { EffectiveCommand } from './effective-command.js';

/**
 * Every program a call's arguments run (see `commandSources` for where they
 * are looked for, `effectiveCommands` for how they are read), `undefined`
 * entries standing for those that cannot be read; `undefined` when no
 * argument names a command, so the call runs no program.
 */
export function commandsOf(args: Record<string, unknown>): Array<EffectiveCommand | undefined> | undefined {
  const sources = commandSources(args);
  return sources && effectiveCommands(sources);
}

/**
 * Whether a rule's `command` names this program: exactly (or by its
 * trailing-`*` glob); `unknown` when it does only as a case-insensitive
 * file system or Windows would find it (`RM`, `git.exe`).
 */
export function programMatch(pattern: string, program: string): Tri {
  if (globMatch(pattern, program)) return 'yes';
  return globMatch(programName(pattern), programName(program)) ? 'unknown' : 'no';
}

/** A trailing-`*` glob, or an exact name. */
export function globMatch(pattern: string, name: string): boolean {
  return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}
