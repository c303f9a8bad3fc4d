import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { type LlmToolCall, McpClient, Policy, Registry } from '../../src/index.js';
import { fixture } from '../support/servers.js';

// Path spellings a model could write, as templates over the home directory and a file name unique to the spelling.
const SPELLINGS: Array<(home: string, name: string) => string> = [
  (_, n) => `.ssh/${n}`,
  (_, n) => `~/.ssh/${n}`,
  (_, n) => `./.ssh/${n}`,
  (_, n) => `a/../.ssh/${n}`,
  (_, n) => `.ssh/sub/../${n}`,
  (h, n) => `${h}/.ssh/${n}`,
  (h, n) => `${h}//.ssh//${n}`,
  (h, n) => `${h}/./.ssh/./${n}`,
  (h, n) => `//${h}/.ssh/${n}`,
  (h, n) => `${h}/notes/../.ssh/${n}`,
  (_, n) => `.ssh//${n}`,
  (_, n) => `.ssh/${n}/`,
  (_, n) => `a/%2e%2e/.ssh/${n}`,
  (_, n) => `.ssh%2F${n}`,
  (_, n) => `.ssh\\${n}`,
  (h, n) => `file://${h}/.ssh/${n}`,
  (_, n) => `$HOME/.ssh/${n}`,
  (_, n) => `\${HOME}/.ssh/${n}`,
  (_, n) => `.SSH/${n}`,
  (_, n) => ` .ssh/${n}`,
  (_, n) => `.ssh./${n}`,
  (_, n) => `.\u0455sh/${n}`,
  (_, n) => `\uff0essh/${n}`,
  (_, n) => `.s\u200bsh/${n}`,
  (_, n) => `cafe\u0301/${n}`,
  (_, n) => `caf\u00e9/${n}`,
  (_, n) => `~/notes/${n}`,
  (_, n) => `notes/${n}`,
  (_, n) => `./notes/${n}`,
  (_, n) => `notes//${n}`,
  (h, n) => `${h}/notes/${n}`,
  (h, n) => `${h}/notes/./${n}`,
  (_, n) => `notes/.ssh/${n}`,
  (_, n) => `.sshx/${n}`,
  (_, n) => `.ssh.d/${n}`,
];

const DENIED = ['.ssh', 'caf\u00e9'];
const write = (id: string, path: string): LlmToolCall => ({ id, function: { name: 'fs_write_file', arguments: JSON.stringify({ path, content: id }) } });

// A home directory as the server sees it: the denied directories, and the ones the spellings walk through.
function makeHome(): string {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'rxmcp-home-')));
  for (const dir of ['.ssh', '.ssh/sub', 'caf\u00e9', 'a', 'notes', 'notes/.ssh', '.sshx', '.ssh.d']) mkdirSync(join(home, dir));
  return home;
}

function startFilesystem(home: string): McpClient {
  return McpClient.connectStdio({
    command: process.execPath,
    args: [join(__dirname, '..', '..', 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), home],
    // The server expands `~` with the home directory of its process.
    env: { HOME: home, USERPROFILE: home },
  });
}

// Every file under a directory, relative to it, with what it holds.
function filesUnder(dir: string): Array<[path: string, content: string]> {
  const found: Array<[string, string]> = [];
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop() as string;
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = join(current, entry.name);
      if (entry.isDirectory()) stack.push(full);
      else found.push([relative(dir, full), readFileSync(full, 'utf8')]);
    }
  }
  return found;
}

const inDenied = (path: string): boolean => DENIED.some((dir) => path.normalize('NFC').startsWith(`${dir}/`));

describe('a differential test of path spellings against the real server-filesystem', () => {
  const guarded = makeHome();
  const probed = makeHome();
  const guardedServer = startFilesystem(guarded);
  const probedServer = startFilesystem(probed);
  // On a filesystem that ignores case, the policy must be told so.
  const caseInsensitivePaths = existsSync(join(guarded, '.SSH'));
  afterAll(async () => {
    await Promise.all([guardedServer.close(), probedServer.close()]);
    rmSync(guarded, { recursive: true, force: true });
    rmSync(probed, { recursive: true, force: true });
  });

  it('allows no spelling that the server lands in a denied directory, and allows plain ones', async () => {
    const policy = new Policy({
      provider: new Registry().add(guardedServer, { prefix: 'fs' }),
      rules: [
        { tool: 'fs_write_file', decision: 'allow', under: guarded },
        ...DENIED.map((dir) => ({ tool: 'fs_write_file', decision: 'deny' as const, under: dir })),
      ],
      roots: { fs: guarded },
      caseInsensitivePaths,
    });
    const answers = await policy.executeToolCalls(SPELLINGS.map((spell, i) => write(`k${i}`, spell(guarded, `k${i}`))));
    const allowed = answers.map((answer) => !/^(Denied by policy|fs_write_file needs permission)/.test(String(answer.content)));

    // Where each spelling lands, asked of an unguarded server over an identical home.
    const probe = await new Registry().add(probedServer, { prefix: 'fs' }).executeToolCalls(SPELLINGS.map((spell, i) => write(`k${i}`, spell(probed, `k${i}`))));
    expect(probe).toHaveLength(SPELLINGS.length);
    const landed = new Map(filesUnder(probed).map(([path, id]) => [id, path]));

    const breaches = SPELLINGS.map((spell, i) => ({ spelling: spell('HOME', `k${i}`), landed: landed.get(`k${i}`), allowed: allowed[i] })).filter(
      ({ landed: path, allowed: yes }) => yes && path !== undefined && inDenied(path),
    );
    expect(breaches).toEqual([]);
    for (const dir of DENIED) expect(filesUnder(join(guarded, dir))).toEqual([]);

    // The probe is not vacuous: the server does land several spellings in the denied directories...
    const intoDenied = [...landed.values()].filter(inDenied);
    expect(intoDenied.length).toBeGreaterThanOrEqual(8);
    // ...and the policy is not denying everything: the plain spellings were allowed, and landed outside.
    const allowedOutside = filesUnder(guarded).filter(([path]) => !inDenied(path));
    expect(allowedOutside.map(([, id]) => id).sort()).toEqual(
      SPELLINGS.map((_, i) => `k${i}`)
        .filter((id, i) => allowed[i] && landed.has(id))
        .sort(),
    );
    expect(allowedOutside.length).toBeGreaterThanOrEqual(7);
  }, 60_000);

  it('denies a move whose destination is in a denied directory, though its source is allowed', async () => {
    writeFileSync(join(guarded, 'notes', 'key.pub'), 'ssh-ed25519 AAAA attacker');
    const policy = new Policy({
      provider: new Registry().add(guardedServer, { prefix: 'fs' }),
      rules: [
        { tool: 'fs_move_file', decision: 'allow', under: guarded },
        { tool: 'fs_move_file', decision: 'deny', under: '.ssh' },
      ],
      roots: { fs: guarded },
    });
    const move = (id: string, destination: string): LlmToolCall => ({ id, function: { name: 'fs_move_file', arguments: { source: 'notes/key.pub', destination } } });
    const [into, aside] = await policy.executeToolCalls([move('1', '.ssh/authorized_keys'), move('2', 'notes/key.old')]);
    expect(into?.content).toMatch(/^Denied by policy/);
    expect(existsSync(join(guarded, '.ssh', 'authorized_keys'))).toBe(false);
    expect(aside?.is_error).toBe(false);
    expect(existsSync(join(guarded, 'notes', 'key.old'))).toBe(true);
  });
});

describe('locations read by principle, against a real shell server (issue 43)', () => {
  const home = makeHome();
  const shell = McpClient.connectStdio(fixture('shell-server.mjs', join(home, 'notes'), home));
  afterAll(async () => {
    await shell.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('denies a call whose decoy path is allowed when its argv writes into a denied directory', async () => {
    writeFileSync(join(home, 'notes', 'key.pub'), 'ssh-ed25519 AAAA attacker');
    const policy = new Policy({
      provider: new Registry().add(shell, { prefix: 'sh' }),
      rules: [
        { tool: 'sh_run', decision: 'allow', under: home },
        { tool: 'sh_run', decision: 'deny', under: join(home, '.ssh') },
      ],
      roots: { sh: home },
    });
    const run = (id: string, args: object): LlmToolCall => ({ id, function: { name: 'sh_run', arguments: JSON.stringify(args) } });
    const attacks = [
      { path: 'notes/key.pub', argv: ['cp', 'notes/key.pub', join(home, '.ssh', 'authorized_keys')] },
      { path: 'notes/key.pub', exec: ['cp', 'notes/key.pub', `--target-directory=${join(home, '.ssh')}`] },
      { path: 'notes/key.pub', argv: ['cp', 'notes/key.pub', '../' + home.split('/').pop() + '/.ssh/authorized_keys2'] },
    ];
    const answers = await policy.executeToolCalls(attacks.map((args, i) => run(String(i), args)));
    expect(answers.map((answer) => String(answer.content).slice(0, 16))).toEqual(attacks.map(() => 'Denied by policy'));
    expect(readdirSync(join(home, '.ssh'))).toEqual(['sub']);
    // The plain copy inside the allowed folder still runs, and really copies.
    const [plain] = await policy.executeToolCalls([run('plain', { path: 'notes/key.pub', argv: ['cp', 'notes/key.pub', join(home, 'notes', 'key.copy')] })]);
    expect(plain?.content).toMatch(/^exit 0/);
    expect(existsSync(join(home, 'notes', 'key.copy'))).toBe(true);
  }, 60_000);
});
