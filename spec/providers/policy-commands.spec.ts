import { z } from 'zod';
import { type LlmToolCall, Policy, type PolicyRule, Toolkit } from '../../src/index.js';
import { commandsOf } from '../../src/providers/policy/commands/commands.js';
import { parseShellLine } from '../../src/providers/policy/commands/shell-line.js';
import { type CallFacts, narrowersHold } from '../../src/providers/policy/rules.js';

const call = (id: string, args: object): LlmToolCall => ({ id, function: { name: 'sh_run', arguments: args } });

/** A shell tool that takes any arguments, echoing them; every call the policy lets through reaches it. */
const shell = () =>
  new Toolkit({ name: 't' }).tool('sh_run', { input: z.looseObject({}) }, (args) => ({ content: [{ type: 'text' as const, text: `ran ${JSON.stringify(args)}` }] }));

/** The danger floor over a tool the user otherwise allows: what the floor lets by, runs. */
const floor = () => new Policy({ provider: shell(), rules: [...Policy.defaultRules(), { tool: 'sh_run', decision: 'allow' }] });

async function decided(args: object): Promise<'ran' | 'stopped'> {
  const [answer] = await floor().executeToolCalls([call('1', args)]);
  return answer?.is_error === false && answer.content.startsWith('ran ') ? 'ran' : 'stopped';
}

const facts = (args: Record<string, unknown>): CallFacts => ({ tool: 'sh_run', args, root: '/srv', locationKeys: [], readOnly: undefined });

describe('the danger floor: commands that hid from it', () => {
  it.each([
    // grouped and abbreviated flags
    ['git push -vf', 'git-force-push'],
    ['git push -fu origin main', 'git-force-push'],
    ['git push --forc origin main', 'git-force-push'],
    ['git push --mirror backup', 'git-force-push'],
    ['git reset --har HEAD~3', 'git-reset-hard'],
    ['rm --recur /tmp/x', 'rm-recursive'],
    ['rm -{r,f} x', 'rm-recursive'],
    ['RM -rf x', 'rm-recursive'],
    // git running what its configuration says
    ["git -c alias.p='push --force' p", 'git-force-push'],
    ["git -c core.pager='rm -rf x' log", 'git config that runs a program'],
    ["git submodule foreach 'rm -rf x'", 'rm-recursive'],
    ['git bisect run rm -rf x', 'rm-recursive'],
    ["git rebase -x 'git push -f' main", 'git-force-push'],
    ["git rebase --exec='rm -rf x' main", 'rm-recursive'],
    ["git filter-branch --tree-filter 'rm -rf x' HEAD", 'a filter nobody read'],
    // shells with -c, eval
    ["sh -c 'rm -rf x'", 'rm-recursive'],
    ["bash -lc 'rm -rf x'", 'rm-recursive'],
    ["sh -ec 'git push --force'", 'git-force-push'],
    ["zsh -o errexit -c 'rm -rf x'", 'rm-recursive'],
    ["fish -c 'rm -rf x'", 'rm-recursive'],
    ["pwsh -Command 'Remove-Item -Recurse x'", 'a PowerShell line'],
    ['cmd /c "rd /s /q x"', 'a cmd line'],
    ["eval 'rm -rf x'", 'rm-recursive'],
    ['source ./cleanup.sh', 'a script nobody read'],
    // separators and expansions
    ['ls\nrm -rf x', 'rm-recursive'],
    ['ls\r\nrm -rf x', 'rm-recursive'],
    ['rm${IFS}-rf${IFS}x', 'rm-recursive'],
    ['$RM -rf x', 'a program in a variable'],
    // wrappers whose options take values
    ['env --chdir /tmp rm -rf x', 'rm-recursive'],
    ['env --unset HOME rm -rf x', 'rm-recursive'],
    ["env -S'rm -rf' x", 'rm-recursive'],
    ['timeout --signal KILL 5 rm -rf x', 'rm-recursive'],
    ['nice --adjustment 5 rm -rf x', 'rm-recursive'],
    ['stdbuf --output L rm -rf x', 'rm-recursive'],
    ['timeout -v --kill-after 5 10 git push -f', 'git-force-push'],
    ['ionice --class 3 rm -rf x', 'rm-recursive'],
    // programs that run other programs
    ['find . -delete', 'rm-recursive'],
    ['find . -name build -exec rm -rf {} +', 'rm-recursive'],
    ['xargs -0 rm -r', 'rm-recursive'],
    ['xargs rm', 'rm with arguments nobody can know'],
    ['busybox rm -rf x', 'rm-recursive'],
    ['toybox rm -r x', 'rm-recursive'],
    ['setsid -f rm -rf x', 'rm-recursive'],
    ['chroot / rm -rf x', 'rm-recursive'],
    // functions, traps, aliases and variables that run code
    ['function f {\n  rm -rf x\n}\nf', 'rm-recursive'],
    ["trap 'rm -rf x' EXIT", 'rm-recursive'],
    ["watch -n 5 'rm -rf x'", 'rm-recursive'],
    ["bash -O expand_aliases -c \"alias ls='rm -rf x'\nls\"", 'an alias'],
    ["env 'BASH_FUNC_ls%%=() { rm -rf x; }' bash -c ls", 'an exported function'],
    ["PS4='$(rm -rf x)' bash -xc ls", 'a prompt expanded under -x'],
    ['PATH=/tmp/evil git status', 'a program looked up elsewhere'],
    // privilege
    ["su -c 'ls' root", 'privileged'],
    ['pkexec --user root ls', 'privileged'],
    ['run0 ls', 'privileged'],
    ["sh -c 'sudo ls'", 'privileged'],
    // found attacking the floor: what the shell reads differently
    ['rm x\r -rf x', 'a carriage return is part of a word, not a separator'],
    ["'r\rm' -rf x", 'bash with igncr drops a carriage return'],
    ['ls &>/dev/null rm -rf x', '/bin/sh reads `&>` as `&` then `>`'],
    // pushes that delete remote branches, or force through git's configuration
    ['git push origin :main', 'git-force-push'],
    ['git push --delete origin main', 'git-force-push'],
    ['git push -d origin main', 'git-force-push'],
    ['git push --prune origin', 'git-force-push'],
    ['git -c remote.origin.mirror=true push origin', 'git config that forces a push'],
    ["git -c 'remote.origin.push=+main:main' push origin", 'git config that forces a push'],
    ['git -c include.path=evil.cfg status', 'git config from a file nobody read'],
    ["git -c 'submodule.x.update=!rm -rf x' submodule update", 'git config that runs a program'],
    ["GIT_CONFIG_PARAMETERS=\"'core.fsmonitor=rm -rf x'\" git status", 'git config from the environment'],
    ["GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='rm -rf x' git status", 'git config from the environment'],
    ["env GIT_SSH_COMMAND='rm -rf x' git fetch", 'a program git runs, from the environment'],
    ['GIT_DIR=evil git status', 'a repository whose configuration nobody read'],
    // bash arithmetic and subscripts run what a variable holds
    ["x='a[$(rm -rf x)]'; ((x))", 'arithmetic on a name'],
    ["x='a[$(rm -rf x)]'; echo $((x))", 'arithmetic on a name'],
    ["x='a[$(rm -rf x)]'; echo $[x]", 'arithmetic on a name'],
    ["x='a[$(rm -rf x)]'; for ((;x;)); do break; done", 'arithmetic on a name'],
    ["x='a[$(rm -rf x)]'; echo ${a[x]}", 'a subscript'],
    ["x='a[$(rm -rf x)]'; echo ${!x}", 'an indirection'],
    ["x='a[$(rm -rf x)]'; let x", 'let'],
    ["x='a[$(rm -rf x)]'; declare -i y=x", 'an integer variable'],
    ["test -v 'a[$(rm -rf x)]'", 'a name with a subscript'],
    ["printf -v 'a[$(rm -rf x)]' y", 'a name with a subscript'],
    ["echo y | read 'a[$(rm -rf x)]'", 'a name with a subscript'],
    ["declare 'a[$(rm -rf x)]=1'", 'a name with a subscript'],
    ["read x < f; echo ${x@P}", 'a prompt expansion'],
    ['echo `echo \\`rm -rf x\\``', 'a substitution inside backquotes'],
    ['x=rm; echo `\\$x -rf x`', 'a variable inside backquotes'],
    ["zsh -c 'ls *(e:\"rm -rf x\":)'", 'a zsh glob qualifier that runs code'],
    ["zsh -c '=rm -rf x'", 'zsh expands =rm to its path'],
    ['read PATH < f; git status', 'a program looked up elsewhere'],
    ["printf -vPATH '/tmp'; git status", 'a program looked up elsewhere'],
    ['for PATH in /tmp; do git status; done', 'a program looked up elsewhere'],
    // programs that run a command given to them, their options unread
    ['flock /tmp/lock rm -rf x', 'a launcher'],
    ['unshare rm -rf x', 'a launcher'],
    ['setpriv rm -rf x', 'a launcher'],
    ['prlimit rm -rf x', 'a launcher'],
    ['strace -o /dev/null rm -rf x', 'a launcher'],
    ["script -qc 'rm -rf x' /dev/null", 'a launcher'],
    ['systemd-run --user rm -rf x', 'a launcher'],
    // git configuration written for the next git to run
    ["git config core.fsmonitor 'rm -rf x'; git status", 'git config that runs a program'],
    ['git config remote.origin.mirror true; git push origin', 'git config that forces a push'],
    // disks written through a redirection or as a file argument
    ['cat /dev/zero > /dev/sda', 'disk-destroy'],
    ['echo x | tee /dev/nvme0n1', 'disk-destroy'],
    ['cp disk.img /dev/mmcblk0', 'disk-destroy'],
    ['cat /dev/zero > /dev//sda', 'disk-destroy'],
    ['cat /dev/zero > /dev/fd/../sda', 'disk-destroy'],
    ['tee /proc/self/root/dev/sda', 'disk-destroy'],
    ['cp disk.img ../../../../../../../dev/vg0/root', 'disk-destroy'],
    ['sudo-rs ls', 'privileged'],
    ['gsudo ls', 'privileged'],
    ['pfexec ls', 'privileged'],
  ])('asks about %j (%s)', async (command) => {
    expect(await decided({ command })).toBe('stopped');
  });

  it.each([
    [{ cmd: 'rm -rf x' }],
    [{ script: 'git push --force' }],
    [{ commandLine: 'rm -rf x' }],
    [{ shell_command: 'rm -rf x' }],
    [{ argv: ['sh', '-c', 'rm -rf x'] }],
    [{ program: 'rm', args: ['-rf', 'x'] }],
    [{ argv: ['C:\\Windows\\rm.exe', '-rf', 'x'] }],
    [{ commands: ['ls', 'rm -rf x'] }],
    [{ steps: [{ run: 'build' }, { cmd: 'rm -rf x' }] }],
    [{ command: 'git', args: ['push', '-vf'] }],
    [{ command: 'ls', args: ['x; rm -rf x'] }],
    [{ shellCmd: 'rm -rf x' }],
    [{ commandString: 'rm -rf x' }],
    [{ script_body: 'rm -rf x' }],
    [{ run: 'rm -rf x' }],
    [{ exec: ['rm', '-rf', 'x'] }],
    [{ cmd: 'rm', cmdArgs: ['-rf', 'x'] }],
    [{ cmd: 'rm', args: [], cmdArgs: ['-rf', 'x'] }],
    [{ command: 'git status', env: { GIT_CONFIG_PARAMETERS: "'core.fsmonitor=rm -rf x'" } }],
    [{ argv: ['git', 'status'], environment: ['PATH=/tmp/evil'] }],
    [{ command: 'ri -r x', shell: 'powershell.exe' }],
    [{ command: 'rd /s /q x', shell: 'C:\\Windows\\System32\\cmd.exe' }],
  ])('reads commands under any argument that names one: %j', async (args) => {
    expect(await decided(args)).toBe('stopped');
  });

  it.each([
    ['ls -la'],
    ['git status'],
    ['git push origin main'],
    ['git push -v --tags'],
    ['git -C /srv/repo log --oneline'],
    ['rm build.o'],
    ['rm -f notes.txt'],
    ['env FOO=1 git fetch'],
    ['env --chdir /tmp ls'],
    ['timeout --signal KILL 5 git status'],
    ['nice -n 5 make'],
    ["sh -c 'git status && ls'"],
    ['echo hi; ls | wc -l'],
    ["find . -name '*.ts'"],
    ['grep -r TODO src'],
    ['xargs echo'],
    ['git push origin main 2>&1 > /tmp/log'],
    ['make &> build.log'],
    ['echo $((1 + 2)) ${#list[@]} ${name:-none}'],
    ['git push origin main:main'],
    ['EDITOR_THEME=dark git status'],
    ['git config user.name bot'],
    ['for f in *.txt; do wc -l $f; done'],
    ['read -r line < notes.txt; echo "$line"'],
    ['ls > /dev/null 2>/dev/stderr'],
    ['head -c 16 /dev/urandom > dev/key.bin'],
    ['files=(a.txt b.txt); wc -l "${files[@]}"'],
    ['greet() { echo hi; }; greet'],
  ])('lets %j by (nothing in it is dangerous)', async (command) => {
    expect(await decided({ command })).toBe('ran');
  });

  it('reads a line given with a POSIX shell named beside it', async () => {
    expect(await decided({ command: 'git status', shell: '/bin/bash' })).toBe('ran');
  });
});

describe('reading a shell line', () => {
  it.each([
    ['git push --force', [['git', 'push', '--force']]],
    [`git commit -m 'two words' "and \\"more\\""`, [['git', 'commit', '-m', 'two words', 'and "more"']]],
    ['a; b && c || d | e |& f & g\nh\r\ni', [['a'], ['b'], ['c'], ['d'], ['e'], ['f'], ['g'], ['h'], ['i']]],
    ['echo $(rm -rf x) done', [['rm', '-rf', 'x'], ['echo', undefined, 'done']]],
    ['echo `rm -rf x`', [['rm', '-rf', 'x'], ['echo', undefined]]],
    ['diff <(ls a) >(tee b)', [['ls', 'a'], ['tee', 'b'], ['diff', undefined, undefined]]],
    ['(cd x && rm -r y)', [['cd', 'x'], ['rm', '-r', 'y']]],
    ['$(echo r)m -rf x', [['echo', 'r'], [undefined, '-rf', 'x']]],
    ['ls > out.txt 2>&1', [['ls']]],
    ['ls # ; rm -rf x', [['ls']]],
    ['rm -rf *.o', [['rm', '-rf', undefined]]],
    ['echo "$HOME" ~ {}', [['echo', undefined, '~', '{}']]],
    ['echo \\` $(echo \\$x)', [['echo', '$x'], ['echo', '`', undefined]]],
  ])('reads %j', (line, commands) => {
    expect(parseShellLine(line)).toEqual(commands);
  });

  it.each([["echo 'open"], ['echo "open'], ['cat <<EOF\nrm -rf x\nEOF'], ['echo )'], ['echo ${x:-$(rm -rf y)}'], ['ls >'], ['x'.repeat(100_001)], ['('.repeat(100)], ['ls # x\r rm -rf y'], ["'r\rm' -rf x"], ['r\\\r\nm -rf x'], ['echo $((x))'], ['echo `echo \\`rm -rf x\\``'], ['echo `echo "\\`rm -rf x\\`"`'], ['x=rm; echo `\\$x -rf y`'], ["ls *(e:'rm -rf x':)"], ['ls !(keep)']])(
    'cannot read %j',
    (line) => {
      expect(parseShellLine(line)).toBeUndefined();
    },
  );
});

describe('the programs a call runs', () => {
  const programs = (args: Record<string, unknown>) => commandsOf(args)?.map((command) => command && [command.program, ...command.argv]);

  it.each([
    ['sudo -u root env -i A=1 nice -n 5 /usr/bin/git push', [['git', 'push']]],
    ['timeout -k 5 --preserve-status 10s rm x', [['rm', 'x']]],
    ["bash -o pipefail -lc 'a | b'", [['b'], ['a']]],
    ["env -S'-i A=1 git status'", [['git', 'status']]],
    ['xargs -I % mv % dest', [['mv', undefined, 'dest', undefined]]],
    ['command -v rm', [['command', '-v', 'rm']]],
    ["su - root -c 'id'", [['su', '-', 'root', '-c', 'id'], ['id']]],
  ])('reads %j as %j', (command, expected) => {
    expect(programs({ command })).toEqual(expected);
  });

  it.each([['env --frobnicate rm -rf x'], ['timeout --signal'], ['bash script.sh'], ['bash'], ['busybox --install'], ['sudo -Q ls']])(
    'cannot read %j',
    (command) => {
      expect(programs({ command })).toEqual([undefined]);
    },
  );

  it('reads nothing from a call that names no command', () => {
    expect(commandsOf({ path: '/srv/a', content: { nested: ['x'] } })).toBeUndefined();
  });

  it('walks deeply nested arguments without recursion, and gives up on them as unknown', () => {
    let deep: Record<string, unknown> = { cmd: 'ls' };
    for (let i = 0; i < 100_000; i++) deep = { inner: deep };
    expect(commandsOf(deep)).toEqual([undefined]);
  });

  it('gives up on a huge list of lines as unknown, without overflowing the stack', () => {
    expect(commandsOf({ commands: Array.from({ length: 300_000 }, () => 'ls') })).toEqual([undefined]);
  });

  it('gives up on a program under too many wrappers, as unknown', () => {
    expect(commandsOf({ command: `${'nice '.repeat(100)}rm -rf x` })).toEqual([undefined]);
  });

  it('gives up on a shell nested in shells past a bound, as unknown', () => {
    let line = 'ls';
    for (let i = 0; i < 12; i++) line = `sh -c ${JSON.stringify(line).replace(/\$/g, '\\$')}`;
    expect(commandsOf({ command: line })).toEqual([undefined]);
  });
});

describe('command rules over every program in the line', () => {
  const allowGit: PolicyRule = { tool: 'sh_run', decision: 'allow', command: 'git', args: ['status'] };
  const denyForce: PolicyRule = { tool: 'sh_run', decision: 'deny', command: 'git', argsAny: ['-f', '--force'] };
  it.each([
    [allowGit, 'git status', 'yes'],
    [allowGit, 'git status\nrm -rf /', 'unknown'],
    [allowGit, 'git status && git status', 'yes'],
    [allowGit, '$GIT status', 'unknown'],
    [denyForce, 'git push -vf', 'unknown'],
    [denyForce, 'git push --forc', 'unknown'],
    [denyForce, 'git push --force=yes', 'yes'],
    [denyForce, 'git push origin main', 'no'],
    [denyForce, 'ls\ngit push -f', 'unknown'],
    [allowGit, "GIT_CONFIG_PARAMETERS=\"'core.fsmonitor=rm -rf x'\" git status", 'unknown'],
    [allowGit, 'git status &> /dev/null rm -rf x', 'unknown'],
    [allowGit, './git status', 'unknown'],
    [allowGit, '/tmp/x/env git status', 'unknown'],
    [allowGit, "./sh -c 'git status'", 'unknown'],
    [allowGit, 'env git status', 'yes'],
    [allowGit, 'env -P /tmp/evil git status', 'unknown'],
    [{ tool: 'sh_run', decision: 'deny', command: 'rm' } as PolicyRule, 'RM x', 'unknown'],
  ])('%j on %j holds: %s', (rule, command, expected) => {
    expect(narrowersHold(rule, facts({ command }))).toBe(expected);
  });
});

/** A rule that allows one plain program in the shell tool, and nothing else: the floor must still stop what hides in it. */
async function underPlainAllow(program: string, args: object): Promise<'ran' | 'asked'> {
  const policy = new Policy({ provider: shell(), rules: [...Policy.defaultRules(), { tool: 'sh_run', decision: 'allow', command: program }] });
  const [answer] = await policy.executeToolCalls([call('1', args)]);
  return answer?.is_error === false && answer.content.startsWith('ran ') ? 'ran' : 'asked';
}

describe('the danger floor under a rule that allows a plain command (issue 43)', () => {
  it.each([
    ['python3', "python3 -c 'import os; os.system(\"rm -rf x\")'"],
    ['python3', "python3 -Ic 'import shutil; shutil.rmtree(\"x\")'"],
    ['python3', "python3 -W ignore -c 'print(1)'"],
    ['python3', "python3 -m timeit -s 'import os' 'os.system(\"rm -rf x\")'"],
    ['python3', "echo 'import os' | python3"],
    ['python3', "python3 - <<'EOF'\nimport os\nEOF"],
    ['python3', 'python3 < notes.txt'],
    ['node', 'node --title x < notes.txt'],
    ['python', 'env PYTHONSAFEPATH=1 nice -n 5 timeout 5 python -c "x"'],
    ['python3.12', "sudo -u me python3.12 -c 'x'"],
    ['perl', "perl -e 'system(q(rm -rf x))'"],
    ['perl', "perl -E 'say 1'"],
    ['perl', "perl -ne 'print' notes.txt"],
    ['perl', "perl -lane 'print' notes.txt"],
    ['perl', "perl -MPOSIX -e 'x'"],
    ['ruby', "ruby -e 'system(%q(rm -rf x))'"],
    ['node', "node -e 'require(\"child_process\").execSync(\"rm -rf x\")'"],
    ['node', "node --eval='1'"],
    ['node', "node -p 'process.exit()'"],
    ['node', "node --print '1'"],
    ['node', "node --import 'data:text/javascript,process.exit()' app.js"],
    ['node', "node -r ./x.js -e '1'"],
    ['deno', "deno eval 'Deno.exit()'"],
    ['bun', "bun -e 'x'"],
    ['php', "php -r 'system(\"rm -rf x\");'"],
    ['lua', "lua -e 'os.execute(\"rm -rf x\")'"],
    ['awk', "awk 'BEGIN { system(\"rm -rf x\") }'"],
    ['awk', "awk 'BEGIN { print \"rm -rf x\" | \"sh\" }'"],
    ['gawk', "gawk 'BEGIN { while ((\"ls\" | getline line) > 0) print line }'"],
    ['gawk', "gawk 'BEGIN { f = \"sys\" \"tem\"; @f(\"rm -rf x\") }'"],
    ['gawk', "gawk -e 'BEGIN { system(\"x\") }' -f prog.awk"],
    ['mawk', "mawk -F: -v x=1 'BEGIN { system(\"x\") }'"],
    ['gawk', "gawk -l filefuncs 'BEGIN { }'"],
    ['osascript', "osascript -e 'do shell script \"rm -rf x\"'"],
    ['Rscript', "Rscript -e 'system(\"rm -rf x\")'"],
    ['pwsh', "pwsh -Command 'Remove-Item -Recurse x'"],
    ['pwsh', "pwsh -c 'x'"],
    ['tclsh', "echo 'exec rm -rf x' | tclsh"],
    ['ssh', 'ssh build.example.org rm -rf x'],
    ['ssh', "ssh -p 2222 -l me build.example.org 'rm -rf x'"],
    ['ssh', "ssh -o ProxyCommand='rm -rf x' build.example.org"],
    ['ssh', "ssh -oLocalCommand='rm -rf x' -oPermitLocalCommand=yes build.example.org"],
    ['ssh', 'ssh -F ./hostile.conf build.example.org'],
    ['scp', "scp -S ./evil notes.txt host:notes.txt"],
    ['docker', 'docker exec -it web rm -rf /srv'],
    ['docker', 'docker run --rm -v /:/host alpine rm -rf /host/x'],
    ['docker', 'docker -H tcp://x:2375 exec web sh'],
    ['docker', 'docker compose run web sh'],
    ['podman', 'podman exec web sh'],
    ['kubectl', 'kubectl exec -n prod pod/web -- rm -rf /data'],
    ['kubectl', 'kubectl --context prod run shell --image=alpine -- sh'],
    ['rsync', 'rsync -a --delete empty/ victim/'],
    ['rsync', 'rsync -a --delete-after empty/ victim/'],
    ['rsync', 'rsync -a --del empty/ victim/'],
    ['rsync', 'rsync -a --remove-source-files victim/ elsewhere/'],
    ['rsync', "rsync -ae 'rm -rf x' a host:b"],
    ['rsync', "rsync --rsync-path='rm -rf x' a host:b"],
    ['rclone', 'rclone sync empty remote:victim'],
    ['perl5.36', "perl5.36 -e 'x'"],
    ['lua5.4', "lua5.4 -e 'x'"],
    ['node', "NODE_OPTIONS='--import=data:text/javascript,process.exit()' node app.js"],
    ['python3', 'PYTHONPATH=./evil python3 script.py'],
    ['perl', "env PERL5OPT='-Mstrict;system(q(rm -rf x))' perl script.pl"],
    ['lua', "LUA_INIT='os.execute(\"rm -rf x\")' lua script.lua"],
  ])('a rule allowing %s does not let by %j', async (program, command) => {
    expect(await underPlainAllow(program, { command })).toBe('asked');
  });

  it.each([
    ['python3', 'python3 script.py --force'],
    ['python3', 'python3 -m pytest -q'],
    ['python3', 'python3 --version'],
    ['perl', 'perl script.pl -e'],
    ['node', 'node --trace-warnings app.js -e production'],
    ['node', 'node -r ./setup.js app.js'],
    ['deno', 'deno run main.ts'],
    ['awk', "awk -F: '{ print $1 }' /etc/passwd"],
    ['awk', 'awk -f prog.awk data.txt'],
    ['ssh', 'ssh -p 2222 build.example.org'],
    ['docker', 'docker ps -a'],
    ['kubectl', 'kubectl get pods -n prod'],
    ['rsync', 'rsync -av src/ backup/'],
    ['rclone', 'rclone copy src remote:backup'],
  ])('a rule allowing %s still lets by the plain %j', async (program, command) => {
    expect(await underPlainAllow(program, { command })).toBe('ran');
  });

  it('reads interpreters in argv lists and through wrappers as it reads shell lines', async () => {
    expect(await underPlainAllow('python3', { argv: ['python3', '-c', 'x'] })).toBe('asked');
    expect(await underPlainAllow('python3', { argv: ['env', '-i', 'python3', '-c', 'x'] })).toBe('asked');
    expect(await underPlainAllow('perl', { argv: ['xargs', 'perl', '-e', 'x'] })).toBe('asked');
    expect(await underPlainAllow('python3', { argv: ['python3', 'script.py'] })).toBe('ran');
  });
});

describe('the danger floor against what an attack review slipped past it (issue 43)', () => {
  it.each([
    // a script that is standard input, or another descriptor, by another name
    ['python3', 'python3 /dev/stdin < notes.txt'],
    ['python3', "python3 /dev/fd/3 3<<<'import os'"],
    ['python3', 'python3 /proc/self/fd/0 < notes.txt'],
    ['python3', 'python3 -i script.py < notes.txt'],
    ['python3', 'python3 -m asyncio < notes.txt'],
    ['php', 'php -f /dev/stdin < notes.txt'],
    ['node', 'node /dev/stdin < notes.txt'],
    ['awk', 'awk -f /dev/stdin < notes.txt'],
    ['awk', 'awk -f - data.txt < notes.txt'],
    // awk's options as getopt reads them
    ['gawk', "gawk -nv x=1 'BEGIN { system(\"rm -rf x\") }'"],
    ['gawk', "gawk -i inplace 'BEGIN { system(\"rm -rf x\") }' notes.txt"],
    ['gawk', "gawk -W source='BEGIN { system(\"rm -rf x\") }'"],
    // ssh running a command without one after the host, or loading a library
    ['ssh', "ssh -o RemoteCommand='rm -rf x' build.example.org"],
    ['ssh', 'ssh -I ./evil.so build.example.org'],
    ['sftp', 'sftp -b - build.example.org < notes.txt'],
    // git running a program an option names
    ['git', "git ls-remote --upload-pack='rm -rf x' ."],
    ['git', "git fetch --upload-pac='rm -rf x' ."],
    ['git', "git clone -u 'rm -rf x' . copy"],
    ['git', "git push --receive-pack='rm -rf x' . HEAD:x"],
    ['git', "git archive --remote=. --exec='rm -rf x' HEAD"],
    ['git', "git grep -O'rm -rf' x"],
    ['git', 'git clone --template=./evil https://example.org/x.git'],
    ['git', "git clone -c core.fsmonitor='rm -rf x' https://example.org/x.git"],
    ['git', "git -c protocol.ext.allow=always fetch 'ext::sh -c rm% -rf% x'"],
    ['git', "GIT_ALLOW_PROTOCOL=ext git fetch 'ext::sh -c rm% -rf% x'"],
    // interpreters under another build's name, and code given by another door
    ['pythonw', "pythonw -c 'x'"],
    ['python3-dbg', "python3-dbg -c 'x'"],
    ['ipython', "ipython -c 'x'"],
    ['tsx', "tsx -e 'x'"],
    ['ts-node', "ts-node --eval 'x'"],
    ['deno', "deno run 'data:text/javascript,Deno.exit()'"],
    ['php', 'php -d auto_prepend_file=/dev/stdin script.php < notes.txt'],
    // programs whose own words run a command
    ['npx', "npx -c 'rm -rf x'"],
    ['sqlite3', "sqlite3 notes.db '.shell rm -rf x'"],
    ['sqlite3', "sqlite3 notes.db '.output |sh' 'select 1'"],
    ['psql', "psql -c '\\! rm -rf x' db"],
    ['psql', "psql -c \"COPY t FROM PROGRAM 'rm -rf x'\" db"],
    ['mysql', "mysql --pager='rm -rf x'"],
    ['gdb', "gdb -batch -ex 'shell rm -rf x'"],
  ])('a rule allowing %s does not let by %j', async (program, command) => {
    expect(await underPlainAllow(program, { command })).toBe('asked');
  });

  it.each([
    ['python3', 'python3 -u script.py'],
    ['gawk', "gawk -i inplace '{ print }' notes.txt"],
    ['gawk', "gawk -v n=1 '{ print n }' notes.txt"],
    ['sftp', 'sftp -b batch.txt build.example.org'],
    ['git', 'git fetch --all --prune'],
    ['git', 'git clone -c core.autocrlf=false --depth 1 -b main https://example.org/x.git'],
    ['git', 'git push -u origin main'],
    ['git', 'git grep -n foo -- src'],
    ['pythonw', 'pythonw app.pyw'],
    ['tsx', 'tsx script.ts'],
    ['npx', 'npx prettier --check .'],
    ['sqlite3', "sqlite3 -json notes.db 'select * from t'"],
    ['psql', "psql -c '\\dt' db"],
    ['mysql', "mysql -e 'select 1'"],
    ['gdb', 'gdb -batch ./prog'],
  ])('a rule allowing %s still lets by the plain %j', async (program, command) => {
    expect(await underPlainAllow(program, { command })).toBe('ran');
  });
});
