import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult } from 'rxmcp';
import { eventually } from '../support/servers.js';

// `rxmcp serve --timeout 500` in front of a server whose build reports
// progress, driven by the official client v2 as a host. The case (a
// 90 s build, a 10 s timeout) at the same 9:1 ratio, scaled down so the
// suite stays fast: 4.5 s, progress every 300 ms, a 500 ms timeout.

const root = join(__dirname, '..', '..');
const BUILD = { ms: 4500, everyMs: 300 };
const textOf = (result: unknown): string => ((result as CallToolResult).content ?? []).map((block) => (block as { text?: string }).text ?? '').join('\n');

describe.each(['legacy', 'modern'] as const)('rxmcp serve and a long call of a %s-era host', (era) => {
  const sandbox = mkdtempSync(join(tmpdir(), 'rxmcp-long-serve-'));
  const config = join(sandbox, 'servers.json');
  const policy = join(sandbox, 'policy.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { lc: { command: process.execPath, args: [join(root, 'spec/fixtures/long-calls-server.mjs')] } } }));
  writeFileSync(policy, JSON.stringify({ rules: [{ tool: '*', decision: 'allow' }] }));
  const stderr: string[] = [];
  const client = new Client({ name: 'long-host', version: '1.0.0' }, (era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}) as never);
  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(root, 'bin', 'rxmcp.mjs'), 'serve', '--config', config, '--policy', policy, '--timeout', '500', '--verbose'],
      env: { ...(process.env as Record<string, string>), HOME: sandbox, XDG_CONFIG_HOME: join(sandbox, 'config') },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(...chunk.toString('utf8').split('\n')));
    await client.connect(transport);
  }, 30_000);
  afterAll(async () => {
    await client.close();
    rmSync(sandbox, { recursive: true, force: true });
  });

  it("finishes the build when the host asked for progress: the upstream's progress restarts the timeout and reaches the host", async () => {
    const heard: number[] = [];
    const result = await client.callTool({ name: 'lc_build', arguments: BUILD }, { onprogress: (progress) => void heard.push(progress.progress), timeout: 30_000 });
    expect(textOf(result)).toBe('build done after 4500 ms');
    expect(result.isError).toBeFalsy();
    expect(heard.length).toBeGreaterThan(5);
  }, 30_000);

  it("cancels the upstream call when the host cancels its own", async () => {
    // Before the timeout spec below, whose timeout cancels upstream too.
    expect(stderr.some((line) => line.includes('cancelled build'))).toBe(false);
    const cancel = new AbortController();
    const call = client.callTool({ name: 'lc_build', arguments: BUILD }, { onprogress: () => undefined, signal: cancel.signal }).catch((error: unknown) => error);
    setTimeout(() => cancel.abort(), 800);
    expect(await call).toBeInstanceOf(Error);
    await eventually(() => stderr.some((line) => line.includes('cancelled build')), 5000);
  }, 30_000);

  it('cuts the build at the timeout when the host asked for no progress, and says so', async () => {
    const result = await client.callTool({ name: 'lc_build', arguments: BUILD });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('tools/call got no answer within 500 ms');
  }, 30_000);
});
