import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { hasEnded, processTree, type ProcessSeen } from '../support/process-tree.js';
import { eventually } from '../support/servers.js';

// `rxmcp serve` (from dist) over stdio, in front of two real servers that do
// not go quietly: server-everything started through a wrapper, as npx starts
// it (so the gateway's upstream has a child of its own), and a server that
// ignores both the end of its stdin and SIGTERM. Each gateway is ended in the
// middle of a call to each, in one of the ways a gateway ends, and every
// process of its tree must be gone afterwards, as /proc shows.

jest.setTimeout(60_000);

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'rxmcp.mjs');
const fixtures = join(root, 'spec', 'fixtures');
const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const PROTOCOL = '2025-11-25';

type Message = { id?: number | string; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: unknown };

/** A host's side of one gateway: the messages and stderr lines it got, and the process's exit. */
class HostSide {
  readonly messages: Message[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private nextId = 1;

  constructor(readonly process: ChildProcessWithoutNullStreams) {
    this.exited = new Promise((resolve) => process.once('exit', (code, signal) => resolve({ code, signal })));
    createInterface({ input: process.stdout }).on('line', (line) => this.messages.push(JSON.parse(line) as Message));
    createInterface({ input: process.stderr }).on('line', (line) => this.stderr.push(line));
  }

  send(message: Message): void {
    this.process.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  }

  /** Sends a request and resolves with its answer. */
  async request(method: string, params: Record<string, unknown> = {}): Promise<Message> {
    const id = this.nextId++;
    this.send({ id, method, params });
    return this.answerTo(id);
  }

  async answerTo(id: number): Promise<Message> {
    await eventually(() => this.messages.some((message) => message.id === id && message.method === undefined), 30_000);
    return this.messages.find((message) => message.id === id && message.method === undefined) as Message;
  }

  /** The legacy-era opening, then the tool list (which the servers have started for). */
  async open(): Promise<string[]> {
    await this.request('initialize', { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'lifecycle-spec', version: '1' } });
    this.send({ method: 'notifications/initialized' });
    const listed = await this.request('tools/list');
    return ((listed.result?.tools ?? []) as Array<{ name: string }>).map((tool) => tool.name);
  }

  progressed(token: string): boolean {
    return this.messages.some((message) => message.method === 'notifications/progress' && message.params?.progressToken === token);
  }
}

const textOf = (answer: Message): string => ((answer.result?.content ?? []) as Array<{ text?: string }>).map((block) => block.text ?? '').join('\n');

(process.platform === 'linux' ? describe : describe.skip)('the gateway over stdio, as it ends', () => {
  let folder: string;
  let config: string;
  let policy: string;
  const started = new Set<ChildProcessWithoutNullStreams>();
  const trees: ProcessSeen[][] = [];

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'rxmcp-lifecycle-'));
    config = join(folder, 'servers.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [join(fixtures, 'child-wrapper.mjs'), process.execPath, everything, 'stdio'] },
          stubborn: { command: process.execPath, args: [join(fixtures, 'stubborn-server.mjs')] },
        },
      }),
    );
    policy = join(folder, 'policy.json');
    writeFileSync(policy, JSON.stringify({ rules: [{ tool: '*', decision: 'allow' }] }));
  });
  afterAll(() => {
    // Whatever a failed case left behind is not left to the next spec file.
    for (const child of started) child.kill('SIGKILL');
    for (const seen of trees.flat()) if (!hasEnded(seen)) process.kill(seen.pid, 'SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  });

  /** Starts `node [node options] bin/rxmcp.mjs serve …`, through `relay-host.mjs` when asked. */
  function serve(options: { extra?: string[]; nodeOptions?: string[]; relayed?: boolean } = {}): HostSide {
    const gateway = [...(options.nodeOptions ?? []), bin, 'serve', '--config', config, '--policy', policy, ...(options.extra ?? [])];
    const args = options.relayed ? [join(fixtures, 'relay-host.mjs'), process.execPath, ...gateway] : gateway;
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    started.add(child);
    void new Promise((resolve) => child.once('exit', resolve)).then(() => started.delete(child));
    return new HostSide(child);
  }

  // A host that gives up waiting sends SIGTERM while the gateway still
  // closes its servers (the stubborn one says, under --verbose, that it
  // ignores the end of its stdin): the gateway stops waiting and kills them.
  const impatiently = async (host: HostSide): Promise<void> => {
    host.process.stdin.end();
    await eventually(() => host.stderr.some((line) => line.includes('stubborn: ignoring end of stdin')));
    host.process.kill('SIGTERM');
  };

  describe.each([
    ['its host closes stdin', (host: HostSide) => host.process.stdin.end(), 0, []],
    ['it gets SIGTERM', (host: HostSide) => host.process.kill('SIGTERM'), 0, []],
    ['it gets SIGINT', (host: HostSide) => host.process.kill('SIGINT'), 130, []],
    ['it gets SIGHUP', (host: HostSide) => host.process.kill('SIGHUP'), 129, []],
    ['its host closes stdin, then sends SIGTERM while it closes the servers', impatiently, 0, ['--verbose']],
    ['an error nobody caught is thrown in it', (host: HostSide) => host.process.kill('SIGUSR2'), 3, []],
  ] as const)('when %s', (_how, end, code, extra) => {
    it(`exits with ${code}, and every upstream server and what it started are gone, in the middle of a call to each`, async () => {
      const host = serve({ extra: [...extra], nodeOptions: ['--require', join(fixtures, 'throw-on-sigusr2.cjs')] });
      const tree = await busyTree(host, host.process.pid as number);
      await end(host);
      expect((await host.exited).code).toBe(code);
      await eventually(() => tree.every(hasEnded), 10_000);
    });
  });

  it('run by rxmcp’s own client (rxmcp tools -- rxmcp serve), which closes it when done, leaves no process behind', async () => {
    const client = spawn(process.execPath, [bin, 'tools', '--', process.execPath, bin, 'serve', '--config', config, '--policy', policy], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => client.once('exit', resolve));
    const output: string[] = [];
    client.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    client.stderr.resume();
    // Every process seen under the client while it runs, with each command
    // line it was seen with (a child shows its parent's until it runs its
    // own, and none once it exits).
    const seen = new Map<number, ProcessSeen>();
    const commands: string[] = [];
    const look = (): void => {
      for (const one of processTree(client.pid as number)) {
        if (!seen.has(one.pid)) seen.set(one.pid, one);
        commands.push(one.command);
      }
    };
    const watching = setInterval(look, 10);
    try {
      expect(await exited).toBe(0);
    } finally {
      clearInterval(watching);
    }
    const tree = [...seen.values()];
    trees.push(tree);
    expect(output.join('')).toContain('stubborn_hold');
    expect(commands.some((command) => command.includes('stubborn-server.mjs'))).toBe(true);
    expect(commands.some((command) => command.includes('server-everything') && !command.includes('child-wrapper.mjs'))).toBe(true);
    await eventually(() => tree.every(hasEnded), 10_000);
  });

  it('its host killed with SIGKILL closes its stdin: it exits, and every upstream server and what it started are gone', async () => {
    const host = serve({ relayed: true });
    const tree = await busyTree(host, host.process.pid as number);
    const gateway = tree.find((seen) => seen.ppid === host.process.pid);
    expect(gateway?.command).toContain('serve');
    host.process.kill('SIGKILL');
    await eventually(() => tree.every(hasEnded), 10_000);
  });

  /** Opens the session, starts a call on each server that is still running (each has reported progress), and returns the process tree then. */
  async function busyTree(host: HostSide, top: number): Promise<ProcessSeen[]> {
    expect(await host.open()).toEqual(expect.arrayContaining(['everything_trigger-long-running-operation', 'stubborn_hold']));
    host.send({ id: 'long', method: 'tools/call', params: { name: 'everything_trigger-long-running-operation', arguments: { duration: 60, steps: 600 }, _meta: { progressToken: 'long' } } });
    host.send({ id: 'hold', method: 'tools/call', params: { name: 'stubborn_hold', arguments: {}, _meta: { progressToken: 'hold' } } });
    await eventually(() => host.progressed('long') && host.progressed('hold'), 20_000);
    const tree = processTree(top);
    trees.push(tree);
    // The wrapper's own child is there: the gateway's grandchild.
    const wrapper = tree.find((seen) => seen.command.includes('child-wrapper.mjs'));
    const server = tree.find((seen) => seen.command.includes('server-everything') && seen !== wrapper);
    expect(server?.ppid).toBe(wrapper?.pid);
    expect(tree.some((seen) => seen.command.includes('stubborn-server.mjs'))).toBe(true);
    return tree;
  }

  describe('on stderr', () => {
    // The stubborn server asks for roots before any call (a question no call
    // claims) and answers its `twice` call twice (an answer nobody waits for).
    async function session(extra: string[]): Promise<{ stderr: string[]; told: string }> {
      const host = serve({ extra });
      await host.open();
      expect(textOf(await host.request('tools/call', { name: 'stubborn_twice', arguments: {} }))).toBe('once');
      const told = textOf(await host.request('tools/call', { name: 'stubborn_roots_answer', arguments: {} }));
      host.process.stdin.end();
      expect((await host.exited).code).toBe(0);
      return { stderr: host.stderr, told };
    }

    it('says nothing in a session that went well, though the upstream clients papered over a question and an answer', async () => {
      const { stderr, told } = await session([]);
      // Declined, as an empty list.
      expect(told).toBe('{"roots":[]}');
      expect(stderr).toEqual([]);
    });

    it('with --verbose, adds what the upstream clients papered over and the servers’ own stderr', async () => {
      const { stderr } = await session(['--verbose']);
      const text = stderr.join('\n');
      expect(text).toContain('no call made through the gateway claims this question');
      expect(text).toContain('dropped an answer to request');
      expect(text).toContain('everything: Starting default (STDIO) server...');
    });
  });
});
