import type { EffectiveCommand } from './effective-command.js';
import { programName } from './effective-command.js';
import type { Word } from './shell-line.js';
import type { Tri } from './tri.js';

// git's options before the subcommand that take the next word as their value.
const GIT_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--attr-source', '--list-cmds']);
const GIT_FLAGS = new Set([
  '-p',
  '-P',
  '-v',
  '-h',
  '--paginate',
  '--no-pager',
  '--bare',
  '--no-replace-objects',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-optional-locks',
  '--no-advice',
  '--no-lazy-fetch',
  '--exec-path',
  '--html-path',
  '--man-path',
  '--info-path',
  '--version',
  '--help',
]);
// Configuration that names a program git runs, or renames a subcommand.
const GIT_RUNS = /^(alias|pager)\.|\.(pager|editor|sshcommand|fsmonitor|hookspath|gitproxy|askpass|external|helper|program|command|cmd|textconv|driver|clean|smudge|process|packobjectshook|receivepack|uploadpack)$/i;
// Subcommands git ships; any other word may be an alias, which can stand for anything.
const GIT_COMMANDS = new Set(
  (
    'add am annotate apply archive backfill bisect blame branch bundle cat-file check-attr check-ignore check-mailmap check-ref-format checkout ' +
    'checkout-index cherry cherry-pick citool clean clone column commit commit-graph commit-tree config count-objects credential describe diff ' +
    'diff-files diff-index diff-tree difftool fast-export fast-import fetch fetch-pack filter-branch fmt-merge-msg for-each-ref for-each-repo ' +
    'format-patch fsck gc get-tar-commit-id grep gui hash-object help index-pack init init-db instaweb interpret-trailers log ls-files ' +
    'ls-remote ls-tree maintenance merge merge-base merge-file merge-tree mergetool mktag mktree multi-pack-index mv name-rev notes pack-objects ' +
    'prune prune-packed pull push range-diff read-tree rebase reflog remote repack replace replay request-pull rerere reset restore rev-list ' +
    'rev-parse revert rm send-email shortlog show show-branch show-ref sparse-checkout stash status stripspace submodule switch symbolic-ref tag ' +
    'unpack-objects update-index update-ref verify-commit verify-pack verify-tag version whatchanged worktree write-tree'
  ).split(' '),
);

/** git's subcommand and its arguments, past git's own options; `undefined` when they cannot be read. */
function gitSubcommand(argv: readonly Word[]): { name: string; args: Word[] } | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (word === undefined) return undefined;
    const eq = word.indexOf('=');
    const option = word.startsWith('--') && eq !== -1 ? word.slice(0, eq) : word;
    if (GIT_VALUED.has(option)) {
      const value = option === word ? argv[++i] : word.slice(eq + 1);
      if (value === undefined) return undefined;
      if ((option === '-c' || option === '--config-env') && GIT_RUNS.test(value.split('=')[0] as string)) return undefined;
      continue;
    }
    if (GIT_FLAGS.has(word)) continue;
    if (word.startsWith('-') || !GIT_COMMANDS.has(word)) return undefined;
    return { name: word, args: argv.slice(i + 1) };
  }
  return { name: '', args: [] };
}

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
 *   `-f` (alone or in a group such as `-vf`), or a `+refspec`;
 * - `git-reset-hard`: `git reset --hard` (or an abbreviation);
 * - `disk-destroy`: `dd`, `shred`, `wipefs`, `fdisk`, `sfdisk`, `sgdisk`, `parted`, `blkdiscard`, or any `mkfs*` or `mke2fs`;
 * - `privileged`: `sudo`, `doas`, `pkexec`, `su`, `run0`, run directly or wrapped around the command.
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
    if (sub.args.some((word) => word?.startsWith('+'))) return 'yes';
    return hasOption(sub.args, 'f', ['force', 'force-with-lease', 'mirror']);
  },
  'git-reset-hard': ({ program, argv }) => {
    if (programName(program) !== 'git') return 'no';
    const sub = gitSubcommand(argv);
    if (!sub) return 'unknown';
    return sub.name === 'reset' ? hasOption(sub.args, '', ['hard']) : 'no';
  },
  'disk-destroy': ({ program }) => {
    const name = programName(program);
    return ['dd', 'shred', 'wipefs', 'fdisk', 'sfdisk', 'sgdisk', 'parted', 'blkdiscard', 'mke2fs'].includes(name) || name.startsWith('mkfs') ? 'yes' : 'no';
  },
  privileged: ({ program, wrappers }) => ([program, ...wrappers].map(programName).some((name) => PRIVILEGED.has(name)) ? 'yes' : 'no'),
};

const PRIVILEGED = new Set(['sudo', 'sudoedit', 'doas', 'pkexec', 'su', 'run0']);
