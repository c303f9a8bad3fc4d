import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import {
  McpClient,
  McpClientError,
  McpServerGoneError,
  McpSpawnFailedError,
  McpTimeoutError,
  McpTransportClosedError,
  StdioTransport,
} from '../../src/index.js';
import { eventually, fixture, isAlive } from '../support/servers.js';

describe('a server that exits mid-request', () => {
  it('fails the pending call, and every later one, with its exit code and stderr tail', async () => {
    const mcp = McpClient.connectStdio(fixture('crash-server.mjs'));
    const failure = firstValueFrom(mcp.listTools());
    await expect(failure).rejects.toBeInstanceOf(McpServerGoneError);
    await expect(failure).rejects.toMatchObject({
      exitCode: 3,
      signal: null,
      stderrTail: 'booting crash-server\nfatal: missing API key CRASH_TOKEN',
    });
    await expect(firstValueFrom(mcp.callTool('anything'))).rejects.toBeInstanceOf(McpServerGoneError);
    await mcp.close();
  });

  it('keeps only the last stderrLines lines, and passes each to onStderr', async () => {
    const lines: string[] = [];
    const mcp = McpClient.connectStdio({ ...fixture('crash-server.mjs'), stderrLines: 1, onStderr: (line) => lines.push(line) });
    await expect(firstValueFrom(mcp.describe())).rejects.toMatchObject({ stderrTail: 'fatal: missing API key CRASH_TOKEN' });
    expect(lines).toEqual(['booting crash-server', 'fatal: missing API key CRASH_TOKEN']);
    await mcp.close();
  });
});

describe('a server that floods stderr', () => {
  it('gives onStderr the first 64 KiB of an endless line, drops the rest unread, and still works', async () => {
    const lines: string[] = [];
    const mcp = McpClient.connectStdio({ ...fixture('stderr-flood-server.mjs'), onStderr: (line) => lines.push(line) });
    try {
      const tools = await firstValueFrom(mcp.listTools());
      expect(tools.length).toBeGreaterThan(0);
      // stderr and stdout are separate pipes: wait for the line after the flood.
      for (const started = Date.now(); !lines.includes('started') && Date.now() - started < 10000; ) await new Promise((r) => setTimeout(r, 20));
      expect(lines.map((line) => line.length)).toEqual([64 * 1024, 'started'.length]);
      expect(lines).toEqual(['x'.repeat(64 * 1024), 'started']);
    } finally {
      await mcp.close();
    }
  });
});

describe('a server that never answers', () => {
  it('yields McpTimeoutError within the probe and request budgets', async () => {
    const mcp = McpClient.connectStdio({ ...fixture('silent-server.mjs'), probeTimeoutMs: 100, requestTimeoutMs: 300 });
    const started = Date.now();
    const failure = firstValueFrom(mcp.listTools());
    await expect(failure).rejects.toBeInstanceOf(McpTimeoutError);
    expect(Date.now() - started).toBeLessThan(3000);
    await mcp.close();
  });

  it('fails pending calls with McpTransportClosedError on close()', async () => {
    const mcp = McpClient.connectStdio({ ...fixture('silent-server.mjs'), probeTimeoutMs: 10000 });
    const failure = firstValueFrom(mcp.describe());
    setTimeout(() => void mcp.close(), 50);
    await expect(failure).rejects.toBeInstanceOf(McpTransportClosedError);
    await expect(firstValueFrom(mcp.listTools())).rejects.toBeInstanceOf(McpTransportClosedError);
  });

  it('is killed by close() when it ignores the end of stdin and SIGTERM', async () => {
    const stderr: string[] = [];
    const transport = new StdioTransport({ ...fixture('silent-server.mjs', '--stubborn'), killGraceMs: 200, onStderr: (l) => stderr.push(l) });
    const mcp = new McpClient({ transport, probeTimeoutMs: 10000 });
    const pending = firstValueFrom(mcp.describe()).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const pid = transport.pid as number;
    expect(isAlive(pid)).toBe(true);
    await mcp.close();
    expect(isAlive(pid)).toBe(false);
    expect(stderr).toEqual(expect.arrayContaining(['ignoring end of stdin', 'ignoring SIGTERM']));
    expect(await pending).toBeInstanceOf(McpTransportClosedError);
  });
});

describe('a server with a dirty stdout', () => {
  it('still answers every call right, reporting what it skipped', async () => {
    const warnings: string[] = [];
    const mcp = McpClient.connectStdio({ ...fixture('garbage-server.mjs'), probeTimeoutMs: 2000, onWarn: (w) => warnings.push(w) });
    const description = await firstValueFrom(mcp.describe());
    expect(description.era).toBe('legacy');
    const results = await Promise.all(
      ['α', 'β', 'γ', 'δ'].map((text) => firstValueFrom(mcp.callTool('echo', { text }))),
    );
    expect(results.map((r) => r.content[0]?.text)).toEqual(['échö α ✓', 'échö β ✓', 'échö γ ✓', 'échö δ ✓']);
    expect(warnings.some((w) => w.includes('not JSON-RPC') && w.includes('this is not json'))).toBe(true);
    expect(warnings.some((w) => w.includes('request 987654'))).toBe(true);
    expect(warnings.some((w) => w.includes('request "nobody"'))).toBe(true);
    await mcp.close();
  });
});

describe('a program that is not an MCP server', () => {
  it('fails at once when it exits without a JSON-RPC message, with what it wrote on stdout', async () => {
    const mcp = McpClient.connectStdio({ command: process.execPath, args: ['-e', 'console.log("hello"); console.error("no config"); process.exit(2)'] });
    const failure = firstValueFrom(mcp.listTools());
    await expect(failure).rejects.toBeInstanceOf(McpServerGoneError);
    await expect(failure).rejects.toMatchObject({ exitCode: 2, stdoutHead: 'hello', stderrTail: 'no config' });
    await expect(failure).rejects.toThrow('the server exited with code 2 without sending an MCP message; it wrote on stdout: "hello"; its last words: "no config"');
    await mcp.close();
  });

  it('fails once a line that is not MCP has had its grace without an MCP message after it, and ends the program', async () => {
    const transport = new StdioTransport({ command: process.execPath, args: ['-e', 'console.log("listening on 3000"); setInterval(() => {}, 1000)'], bannerGraceMs: 200 });
    const mcp = new McpClient({ transport });
    const failure = firstValueFrom(mcp.listTools());
    await expect(failure).rejects.toMatchObject({ exitCode: null, stdoutHead: 'listening on 3000' });
    await expect(failure).rejects.toThrow('the server wrote a line on stdout that is not MCP and no MCP message within 200 ms (is it an MCP server?); it wrote on stdout: "listening on 3000"');
    await eventually(() => !isAlive(transport.pid as number));
    await mcp.close();
  });

  it('keeps at most 200 characters of what it wrote, and stops waiting past 16 KiB of such lines', async () => {
    const mcp = McpClient.connectStdio({ command: process.execPath, args: ['-e', 'for (let i = 0; i < 400; i++) console.log("x".repeat(50)); setInterval(() => {}, 1000)'] });
    const failure = firstValueFrom(mcp.listTools());
    await expect(failure).rejects.toThrow('the server wrote 322 lines on stdout that are not MCP before any MCP message');
    expect(((await failure.catch((error: unknown) => error)) as McpServerGoneError).stdoutHead).toHaveLength(200);
    await mcp.close();
  });

  it('still serves a server that prints a banner before it speaks MCP, one that starts slowly after it, and one whose banner is a large logo', async () => {
    for (const [wait, logo] of [['0', '0'], ['2500', '0'], ['0', '40']] as const) {
      const warnings: string[] = [];
      const mcp = McpClient.connectStdio({ ...fixture('banner-server.mjs', wait, logo), onWarn: (warning) => warnings.push(warning) });
      expect((await firstValueFrom(mcp.listTools())).map((tool) => tool.name)).toContain('echo');
      expect(warnings.filter((warning) => warning.includes('not JSON-RPC'))).toHaveLength(2 + Number(logo));
      await mcp.close();
    }
  });

  it('ends a server that prints a banner at the first such line with bannerGraceMs 0', async () => {
    const mcp = McpClient.connectStdio({ ...fixture('banner-server.mjs'), bannerGraceMs: 0 });
    await expect(firstValueFrom(mcp.listTools())).rejects.toThrow('the server wrote a line on stdout that is not MCP before any MCP message');
    await mcp.close();
  });
});

describe('a command that cannot start', () => {
  it('fails the first call and describe() with McpSpawnFailedError naming the command', async () => {
    const mcp = McpClient.connectStdio({ command: 'rxmcp-no-such-server', args: ['--x'] });
    const failure = firstValueFrom(mcp.describe());
    await expect(failure).rejects.toBeInstanceOf(McpSpawnFailedError);
    await expect(failure).rejects.toThrow(/rxmcp-no-such-server/);
    await expect(firstValueFrom(mcp.listTools())).rejects.toBeInstanceOf(McpSpawnFailedError);
    await mcp.close();
  });

  it.each([
    ['the command', { command: 'node\0evil' }],
    ['an argument', { command: 'node', args: ['ok', 'bad\0arg'] }],
    ['an environment value', { command: 'node', env: { X: 'a\0b' } }],
    ['an environment name', { command: 'node', env: { 'X\0Y': 'a' } }],
    ['the working directory', { command: 'node', cwd: '/tmp\0/x' }],
  ])('refuses a NUL byte in %s before anything starts', (_where, options) => {
    expect(() => McpClient.connectStdio(options)).toThrow(McpSpawnFailedError);
  });

  it('passes shell syntax in arguments through as text: no shell runs it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rxmcp-no-shell-'));
    const server = fixture('modern-server.mjs', `$(touch ${dir}/a)`, `\`touch ${dir}/b\``, `; touch ${dir}/c`, `& touch ${dir}/d`);
    const mcp = McpClient.connectStdio(server);
    try {
      await expect(firstValueFrom(mcp.describe())).resolves.toMatchObject({ era: 'modern' });
      expect(['a', 'b', 'c', 'd'].filter((name) => existsSync(join(dir, name)))).toEqual([]);
    } finally {
      await mcp.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is an McpClientError like every other failure', () => {
    expect(() => McpClient.connectStdio({ command: 'a\0b' })).toThrow(McpClientError);
  });
});
