import { readsInput } from './interpreters.js';
import type { Word } from './shell-line.js';

// ssh's short options that take a value (the rest of the group, or the next word).
const SSH_VALUED = 'BbcDEeFIiJLlmOoPpQRSWw';
// scp's and sftp's.
const COPY_VALUED = 'BbcDFiJloPRSsX';
// Configuration that makes ssh run a program of the caller's on this machine,
// or read more configuration that may, or run a command on the host as
// `ssh HOST CMD` does (`RemoteCommand`).
const RUNS_LOCALLY = /^\s*(proxycommand|localcommand|permitlocalcommand|knownhostscommand|match|include|securitykeyprovider|pkcs11provider|remotecommand)\b/i;

// Subcommands that run a command inside a container or a pod, or start one
// that runs what its image or compose file says.
const CONTAINER_RUNS = new Set(['exec', 'run', 'create', 'start', 'restart', 'attach', 'debug', 'compose', 'container', 'service', 'stack', 'cp', 'up']);
const CONTAINERS = new Set(['docker', 'podman', 'nerdctl', 'docker-compose', 'podman-compose', 'kubectl', 'oc', 'crictl', 'ctr', 'lxc', 'incus', 'k3s', 'minikube', 'microk8s']);

// rsync's long options that delete on a side (a mirror's `--delete*`, or
// the source once sent), run a command of the caller's (`--rsh`,
// `--rsync-path`), or hand the remote rsync options (`--remote-option`).
const RSYNC_LONG = ['rsh', 'rsync-path', 'remote-option', 'remove-source-files', 'remove-sent-files'];
// rclone's subcommands that delete: a mirror, a move, or plain deletion.
const RCLONE_DELETES = new Set(['sync', 'bisync', 'move', 'moveto', 'delete', 'deletefile', 'purge', 'rmdir', 'rmdirs', 'cleanup']);

/**
 * Whether a program runs a command elsewhere, where the floor cannot
 * follow it, or deletes as a mirror does: `ssh` given a command (or
 * configuration that runs one here, `-o ProxyCommand=…`, `-F file`, or
 * there, `-o RemoteCommand=…`; or a library to load, `-I`), `scp` or `sftp`
 * told which program to run (`-S`), `sftp` reading its batch from input
 * (`-b -`); a container or cluster tool's
 * `exec`, `run` and the like (`docker exec`, `kubectl exec`, `podman run`);
 * `rsync` with `--delete*`, `--del`, `--remove-source-files`, `-e`/`--rsh`
 * or `--rsync-path` (written out or abbreviated); `rclone sync`, `move`,
 * `delete`, `purge`. A word that cannot be read where it matters counts.
 */
export function runsElsewhere(name: string, args: readonly Word[]): boolean {
  if (name === 'ssh' || name === 'autossh') return sshRuns(args, SSH_VALUED, true);
  if (name === 'scp' || name === 'sftp') return sshRuns(args, COPY_VALUED, false);
  // A container's subcommand may come after global options whose values
  // are not read here: any word that names one counts.
  if (CONTAINERS.has(name)) return args.some((word) => word === undefined || CONTAINER_RUNS.has(word));
  if (name === 'rsync') return rsyncDeletesOrRuns(args);
  if (name === 'rclone') return args.some((word) => word === undefined || RCLONE_DELETES.has(word));
  return false;
}

function sshRuns(args: readonly Word[], valued: string, commandAfterHost: boolean): boolean {
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (word === undefined) return true;
    if (word === '--') return commandAfterHost && args.length > i + 2;
    if (!word.startsWith('-') || word === '-') return commandAfterHost && args.length > i + 1;
    for (let j = 1; j < word.length; j++) {
      const letter = word[j] as string;
      if (!valued.includes(letter)) continue;
      const value = word.slice(j + 1) || args[++i];
      // A configuration file may say what to run; so may `-S` (scp's ssh) and `-D` (sftp's server);
      // ssh's `-I` loads a library; sftp's `-b` runs a batch of commands (`!cmd` runs here), read from input with `-`.
      if (value === undefined || 'FS'.includes(letter) || (letter === 'D' && !commandAfterHost) || (letter === 'o' && RUNS_LOCALLY.test(value))) return true;
      if ((letter === 'I' && commandAfterHost) || (letter === 'b' && !commandAfterHost && readsInput(value))) return true;
      break;
    }
  }
  return false;
}

function rsyncDeletesOrRuns(args: readonly Word[]): boolean {
  for (const word of args) {
    if (word === undefined) return true;
    if (word === '--') break;
    if (word.startsWith('--')) {
      const given = (word.slice(2).split('=')[0] as string).toLowerCase();
      if (given.startsWith('del') || (given.length > 1 && RSYNC_LONG.some((option) => option.startsWith(given)))) return true;
    } else if (word.startsWith('-') && /[eM]/.test(word.slice(1).split(/[^A-Za-z]/)[0] as string)) {
      return true;
    }
  }
  return false;
}
