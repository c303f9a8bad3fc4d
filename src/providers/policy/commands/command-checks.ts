import { isBlockDevice } from './block-device.js';
import type { EffectiveCommand } from './effective-command.js';
import { programName } from './effective-command.js';
import { gitSubcommand } from './git-command.js';
import type { Word } from './shell-line.js';
import type { Tri } from '../tri.js';

/**
 * Whether an option is among the words: a long option written in full, with
 * `=value`, or abbreviated to any prefix (as GNU and git accept), or a short
 * letter alone or in a group (`-rf`, `-vf`). Options end at `--`.
 */
function hasOption(words: readonly Word[], letters: string, names: readonly string[]): Tri {
  let unread = false;
  for (const word of words) {
    if (word === undefined) {
      unread = true;
      continue;
    }
    if (word === '--') break;
    if (word.startsWith('--')) {
      const given = word.slice(2).split('=')[0] as string;
      if (given !== '' && names.some((name) => name.startsWith(given))) return 'yes';
    } else if (word.startsWith('-') && [...word.slice(1)].some((letter) => letters.includes(letter))) {
      return 'yes';
    }
  }
  return unread ? 'unknown' : 'no';
}

/**
 * The built-in `check` predicates, over one effective command, each a
 * three-valued answer (`unknown` where a word that matters cannot be read):
 * - `rm-recursive`: `rm` with `-r`, `-R` or `--recursive` (in a flag group such as `-rfv`, or abbreviated as
 *   `--recur`), or `find` with `-delete`;
 * - `git-force-push`: `git push` with `--force`, `--force-with-lease`, `--mirror` (written out or abbreviated),
 *   `-f` (alone or in a group such as `-vf`), or a `+refspec`; or one that deletes remote branches, as
 *   lost to the others as a rewritten one: `--delete`, `-d`, `--prune`, or a `:branch` refspec;
 * - `git-reset-hard`: `git reset --hard` (or an abbreviation);
 * - `disk-destroy`: `dd`, `shred`, `wipefs`, `fdisk`, `sfdisk`, `sgdisk`, `parted`, `blkdiscard`, or any `mkfs*` or `mke2fs`;
 *   or any program given a disk or partition (`tee /dev/sda`, `cp disk.img /dev/nvme0n1`);
 * - `privileged`: `sudo`, `doas`, `pkexec`, `su`, `run0` (and `sudo-rs`, `pfexec`, `ksu`, `gsudo`, `gksu`, `kdesu`, …),
 *   run directly or wrapped around the command.
 *
 * For git, a global option that makes git run a program of its choosing (`-c alias.*`, `-c core.pager=…`)
 * or a subcommand git does not ship (an alias) makes the git checks unknown.
 */
export const CHECKS: Record<string, (command: EffectiveCommand) => Tri> = {
  'rm-recursive': ({ program, argv }) => {
    const name = programName(program);
    if (name === 'find') return argv.includes('-delete') ? 'yes' : argv.includes(undefined) ? 'unknown' : 'no';
    return name === 'rm' ? hasOption(argv, 'rR', ['recursive']) : 'no';
  },
  'git-force-push': ({ program, argv }) => {
    if (programName(program) !== 'git') return 'no';
    const sub = gitSubcommand(argv);
    if (!sub) return 'unknown';
    if (sub.name !== 'push') return 'no';
    if (sub.args.some((word) => word?.startsWith('+') || /^:./.test(word ?? ''))) return 'yes';
    return hasOption(sub.args, 'fd', ['force', 'force-with-lease', 'mirror', 'delete', 'prune']);
  },
  'git-reset-hard': ({ program, argv }) => {
    if (programName(program) !== 'git') return 'no';
    const sub = gitSubcommand(argv);
    if (!sub) return 'unknown';
    return sub.name === 'reset' ? hasOption(sub.args, '', ['hard']) : 'no';
  },
  'disk-destroy': ({ program, argv }) => {
    const name = programName(program);
    if (argv.some((word) => word !== undefined && isBlockDevice(word))) return 'yes';
    return ['dd', 'shred', 'wipefs', 'fdisk', 'sfdisk', 'sgdisk', 'parted', 'blkdiscard', 'mke2fs'].includes(name) || name.startsWith('mkfs') ? 'yes' : 'no';
  },
  privileged: ({ program, wrappers }) => ([program, ...wrappers].map(programName).some((name) => PRIVILEGED.has(name)) ? 'yes' : 'no'),
};

const PRIVILEGED = new Set(['sudo', 'sudoedit', 'sudo-rs', 'doas', 'pkexec', 'su', 'run0', 'pfexec', 'ksu', 'gsudo', 'gksu', 'gksudo', 'kdesu', 'kdesudo']);
