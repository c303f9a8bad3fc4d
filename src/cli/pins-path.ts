import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';

/**
 * Where `rxmcp serve` keeps the pins of the servers of one config file when
 * the policy file names no `pinsFile`, and where `rxmcp servers` looks for
 * them: `$XDG_CONFIG_HOME/rxmcp/pins/<name>-<hash>.json` (default
 * `~/.config`), one file per config file (by its absolute path), since a
 * tool's key is its server's name in that file and its own.
 */
export function pinsPathFor(configPath: string): string {
  const absolute = resolve(configPath);
  const xdg = process.env['XDG_CONFIG_HOME'];
  // The XDG spec tells programs to ignore a relative path here.
  const config = xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.config');
  const label = basename(absolute).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40);
  const digest = createHash('sha256').update(absolute).digest('hex').slice(0, 16);
  return join(config, 'rxmcp', 'pins', `${label}-${digest}.json`);
}
