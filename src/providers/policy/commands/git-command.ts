import type { Word } from './shell-line.js';

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
// Configuration that names a program git runs (`core.alternateRefsCommand`,
// `submodule.*.update=!…`), renames a subcommand, includes a file of more
// configuration, makes a push force or delete (`remote.*.mirror`, `remote.*.push=+…`),
// or allows a transport that runs a command (`protocol.ext.allow`: `ext::sh -c …`).
const GIT_RUNS =
  /^(alias|pager)\.|^include(if)?\.|^protocol\.(.+\.)?allow$|(pager|editor|sshcommand|fsmonitor|hookspath|gitproxy|askpass|external|helper|program|command|cmd|textconv|driver|clean|smudge|process|packobjectshook|receivepack|uploadpack|difffilter|smtpserver|update|path|templatedir|\.push|\.mirror)$/i;
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

/**
 * git's subcommand and its arguments, past git's own options (`-C dir`,
 * `--git-dir=…`, `-c name=value`, … consumed); `undefined` when they cannot
 * be read: an unknown option, `--exec-path=…`, a `-c` that sets an alias or
 * a program git runs, or a subcommand git does not ship (it may be an alias).
 */
export function gitSubcommand(argv: readonly Word[]): { name: string; args: Word[] } | undefined {
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

// Subcommands' options that name a program git runs: the other side's
// upload-pack or receive-pack (run here, through a shell, for a repository
// on this machine: `git ls-remote --upload-pack='…' .`), grep's pager, a
// template whose hooks run, a mail command; and clone's configuration,
// read as `-c` is. Abbreviated as git accepts them (`--upload-p`).
const RUNS_PROGRAM: Record<string, { long: string[]; short?: string }> = {
  fetch: { long: ['upload-pack'] },
  pull: { long: ['upload-pack'] },
  'ls-remote': { long: ['upload-pack', 'exec'] },
  'fetch-pack': { long: ['upload-pack', 'exec'] },
  clone: { long: ['upload-pack', 'template', 'config'], short: 'uc' },
  init: { long: ['template'] },
  'init-db': { long: ['template'] },
  push: { long: ['receive-pack', 'exec'] },
  'send-pack': { long: ['receive-pack', 'exec'] },
  archive: { long: ['exec'] },
  grep: { long: ['open-files-in-pager'], short: 'O' },
  'send-email': { long: ['sendmail-cmd', 'smtp-server', 'to-cmd', 'cc-cmd', 'header-cmd'] },
};

// Whether a subcommand's arguments name a program it runs, or a word that
// cannot be read may (options end at `--`).
function runsProgram(name: string, args: readonly Word[]): boolean {
  const spec = RUNS_PROGRAM[name];
  if (!spec) return false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (word === undefined) return true;
    if (word === '--') break;
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const given = eq === -1 ? word.slice(2) : word.slice(2, eq);
      const option = given === '' ? undefined : spec.long.find((long) => long.startsWith(given));
      if (option === undefined) continue;
      if (option !== 'config') return true;
      const value = eq === -1 ? args[++i] : word.slice(eq + 1);
      if (value === undefined || GIT_RUNS.test(value.split('=')[0] as string)) return true;
    } else if (word.startsWith('-')) {
      const at = [...word.slice(1)].findIndex((letter) => spec.short?.includes(letter));
      if (at === -1) continue;
      if (word[at + 1] !== 'c') return true;
      const value = word.slice(at + 2) || args[++i];
      if (value === undefined || GIT_RUNS.test(value.split('=')[0] as string)) return true;
    }
  }
  return false;
}

// rebase's options that take the next word as their value.
const REBASE_VALUED = new Set(['--onto', '-s', '--strategy', '-X', '--strategy-option', '-S', '--gpg-sign', '-C', '--whitespace']);

/** What git runs besides itself: lines for a shell, argvs, or `undefined` when that cannot be read. */
export interface GitRuns {
  lines: string[];
  argvs: Word[][];
}

/**
 * The commands a git invocation runs through its subcommands:
 * `submodule foreach` (its command, as a line), `bisect run` (an argv),
 * `rebase --exec`/`-x` (lines). `filter-branch`, `instaweb`,
 * `difftool`/`mergetool` with a command of their own, an option that names
 * a program (`--upload-pack`, `--receive-pack`, `--exec`, `grep -O`,
 * `clone --template`), and `config` setting what `-c` may not are unknown,
 * as is git whose subcommand cannot be read.
 */
export function gitRuns(argv: readonly Word[]): GitRuns | undefined {
  const sub = gitSubcommand(argv);
  if (!sub) return undefined;
  const runs: GitRuns = { lines: [], argvs: [] };
  const { name, args } = sub;
  if (name === 'filter-branch' || name === 'instaweb' || runsProgram(name, args)) return undefined;
  // Setting what `-c` may not set makes the next git run it.
  if (name === 'config' && args.some((word) => word === undefined || GIT_RUNS.test(word.split('=')[0] as string))) return undefined;
  if ((name === 'difftool' || name === 'mergetool') && args.some((word) => word === undefined || /^(-[^-]*[xt]|--ext|--tool)/.test(word))) return undefined;
  if (name === 'submodule') {
    const at = args.indexOf('foreach');
    if (at !== -1) {
      const rest = args.slice(at + 1).filter((word) => word !== '--recursive' && word !== '--quiet' && word !== '-q');
      if (rest.includes(undefined)) return undefined;
      runs.lines.push(rest.join(' '));
    } else if (args.includes(undefined)) {
      return undefined;
    }
  }
  if (name === 'bisect' && args[0] === 'run') runs.argvs.push(args.slice(1));
  if (name === 'rebase') {
    for (let i = 0; i < args.length; i++) {
      const word = args[i];
      if (word === undefined) return undefined;
      if (word === '--exec' || word === '-x') {
        const line = args[++i];
        if (line === undefined) return undefined;
        runs.lines.push(line);
      } else if (word.startsWith('--exec=')) {
        runs.lines.push(word.slice('--exec='.length));
      } else if (/^-[^-]*x./.test(word)) {
        runs.lines.push(word.slice(word.indexOf('x') + 1));
      } else if (/^-[^-]*x$/.test(word)) {
        const line = args[++i];
        if (line === undefined) return undefined;
        runs.lines.push(line);
      } else if (REBASE_VALUED.has(word)) {
        i++;
      }
    }
  }
  return runs;
}
