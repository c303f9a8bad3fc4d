import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { eventually } from '../support/servers.js';

// `rxmcp serve --tool-search` as hosts meet it: in front of the SDK fixture
// (alwaysLoad: true) and server-everything, every call allowed, driven by
// the official client v2 over stdio and over HTTP, two hosts at once.

jest.setTimeout(90_000);

const root = join(__dirname, '..', '..');
const bin = join(root, 'bin', 'rxmcp.mjs');
const children = new Set<ChildProcess>();

const textOf = (result: unknown): string => ((result as { content?: Array<{ text?: string }> }).content ?? []).map((block) => block.text ?? '').join('\n');
const namesOf = async (client: Client): Promise<string[]> => (await client.listTools()).tools.map((tool) => tool.name);

describe('rxmcp serve --tool-search', () => {
  let sandbox: string;
  let configPath: string;
  let policyPath: string;
  let env: Record<string, string>;

  beforeAll(() => {
    sandbox = mkdtempSync(join(tmpdir(), 'rxmcp-serve-search-'));
    env = { HOME: sandbox, XDG_CONFIG_HOME: join(sandbox, 'config') };
    configPath = join(sandbox, 'servers.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        mcpServers: {
          fx: { command: process.execPath, args: [join(root, 'spec/fixtures/modern-server.mjs')], alwaysLoad: true },
          everything: { command: process.execPath, args: [join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] },
        },
      }),
    );
    policyPath = join(sandbox, 'policy.json');
    writeFileSync(policyPath, JSON.stringify({ rules: [{ tool: '*', decision: 'allow' }] }));
  });
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(sandbox, { recursive: true, force: true });
  });

  it('shows a host the alwaysLoad server’s tools and tool_search, finds the other server’s tool, says the list changed, and runs it', async () => {
    const client = new Client({ name: 'search-host', version: '1.0.0' });
    const changed: string[] = [];
    client.setNotificationHandler('notifications/tools/list_changed', async () => void changed.push('tools'));
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [bin, 'serve', '--tool-search', '--config', configPath, '--policy', policyPath], env: { ...(process.env as Record<string, string>), ...env }, stderr: 'pipe' }),
    );
    try {
      const first = await namesOf(client);
      expect(first).toContain('tool_search');
      expect(first).toEqual(expect.arrayContaining(['fx_echo', 'fx_add']));
      expect(first.filter((name) => name !== 'tool_search').every((name) => name.startsWith('fx_'))).toBe(true);

      const found = await client.callTool({ name: 'tool_search', arguments: { query: 'get the sum of two numbers', limit: 3 } });
      expect(found.isError).toBeFalsy();
      // Each tool found comes with its parameters and their types: enough to call it without listing again.
      expect(textOf(found)).toMatch(/^- everything_get-sum\(a: number, b: number\b.*\): Returns the sum of two numbers$/m);
      await eventually(() => changed.length > 0, 10_000);
      expect(await namesOf(client)).toContain('everything_get-sum');

      const sum = await client.callTool({ name: 'everything_get-sum', arguments: { a: 2, b: 40 } });
      expect(sum.isError).toBeFalsy();
      expect(textOf(sum)).toContain('42');
    } finally {
      await client.close();
    }
  });

  it('keeps each HTTP host’s loaded tools its own, and runs a tool a host never listed', async () => {
    const served = await serveHttp(['--tool-search', '--config', configPath, '--policy', policyPath], env);
    const connect = async (name: string, era: 'legacy' | 'modern' = 'legacy'): Promise<Client> => {
      const client = new Client({ name, version: '1.0.0' }, (era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}) as never);
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { Authorization: `Bearer ${served.token}` } } }));
      return client;
    };
    const one = await connect('host-one');
    const two = await connect('host-two');
    const told = { one: 0, two: 0 };
    one.setNotificationHandler('notifications/tools/list_changed', async () => void told.one++);
    two.setNotificationHandler('notifications/tools/list_changed', async () => void told.two++);
    try {
      const before = await namesOf(two);
      expect(before).toContain('tool_search');
      expect(before).not.toContain('everything_echo');

      const found = await one.callTool({ name: 'tool_search', arguments: { query: 'echo a message back', limit: 1 } });
      expect(textOf(found)).toContain('- everything_echo(');
      // The search's list change reaches the host that made it alone. server-everything's own
      // (it adds tools once started) reach every host connected by then: the gateway starts its
      // servers before any host connects, so one host may have heard them and the other not.
      await eventually(() => told.one - told.two >= 1, 10_000);
      expect(await namesOf(one)).toContain('everything_echo');
      // The other host's list is as it was.
      expect(await namesOf(two)).toEqual(before);

      // A host that never lists again may still call a tool it was told of by name; a name nobody serves is refused.
      const echoed = await two.callTool({ name: 'everything_get-sum', arguments: { a: 1, b: 2 } });
      expect(textOf(echoed)).toContain('3');
      const unknown = await two.callTool({ name: 'everything_no-such-tool', arguments: {} });
      expect(unknown.isError).toBe(true);
      expect(textOf(unknown)).toContain('Unknown tool');

      // A 2026-07-28 host has no session: its loaded tools are kept under its token and name.
      const modern = await connect('host-modern', 'modern');
      try {
        expect(await namesOf(modern)).not.toContain('everything_get-tiny-image');
        await modern.callTool({ name: 'tool_search', arguments: { query: 'tiny image', limit: 1 } });
        expect(await namesOf(modern)).toContain('everything_get-tiny-image');
        expect(await namesOf(one)).not.toContain('everything_get-tiny-image');
      } finally {
        await modern.close();
      }
    } finally {
      await Promise.all([one.close(), two.close()]);
      await served.stop();
    }
  });

  it('keeps a host that searches 2,000 times, over every tool there is, to maxLoaded found tools', async () => {
    const client = new Client({ name: 'searching-host', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [bin, 'serve', '--tool-search', '--config', configPath, '--policy', policyPath], env: { ...(process.env as Record<string, string>), ...env }, stderr: 'pipe' }),
    );
    try {
      const always = (await namesOf(client)).length;
      const queries = ['sum', 'echo', 'image', 'environment', 'elicitation', 'sampling', 'roots', 'resource', 'long running', 'logging', 'structured', 'annotated', 'gzip', 'research', 'url'];
      // 2,000 searches find far more than 20 tools: enough to show the bound; the unit spec of host-searches takes 10,000 hosts.
      for (let from = 0; from < 2_000; from += 250) {
        await Promise.all(Array.from({ length: 250 }, (_, n) => client.callTool({ name: 'tool_search', arguments: { query: queries[(from + n) % queries.length] as string, limit: 20 } })));
      }
      const after = await namesOf(client);
      expect(after.length).toBeGreaterThan(always);
      expect(after.length).toBeLessThanOrEqual(always + 20);
      expect(new Set(after).size).toBe(after.length);
    } finally {
      await client.close();
    }
  });
});

interface Served {
  url: string;
  token: string;
  stop(): Promise<number | null>;
}

// `rxmcp serve --http 0 …`, resolved once it printed its URL and the token it made.
function serveHttp(args: string[], env: Record<string, string>): Promise<Served> {
  const child = spawn(process.execPath, [bin, 'serve', '--http', '0', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => (children.delete(child), resolve(code))));
  const stderr: string[] = [];
  child.stdout.resume();
  return new Promise((resolve, reject) => {
    exited.then((code) => reject(new Error(`rxmcp serve exited with ${code}: ${stderr.join('\n')}`)));
    let url: string | undefined;
    createInterface({ input: child.stderr }).on('line', (line) => {
      stderr.push(line);
      url ??= /serving (http:\/\/\S+)/.exec(line)?.[1];
      const token = /^rxmcp serve: +Authorization: Bearer (\S+)$/.exec(line)?.[1];
      if (url && token !== undefined) {
        resolve({
          url,
          token,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
  });
}
