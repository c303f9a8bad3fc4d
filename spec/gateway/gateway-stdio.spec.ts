import { rmSync } from 'node:fs';
import { firstValueFrom } from 'rxjs';
import type { Client } from '@modelcontextprotocol/client';
import { McpClient } from '../../src/index.js';
import { gatewayCommand, officialClient, RULES, textOf, upstreamConfig } from './gateway-support.js';

// A host talks to spec/fixtures/gateway-server.mjs (built from dist) over
// stdio; behind it, real servers: the SDK fixture, server-everything,
// server-filesystem, and one that never starts.

/** The same few things, asked of the gateway by any host. */
interface Host {
  tools(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  read(uri: string): Promise<string>;
  prompt(name: string, args: Record<string, string>): Promise<string>;
  close(): Promise<void>;
}

const answers = (asked: string[]) => (params: Record<string, unknown>) => {
  const message = String(params.message);
  asked.push(message);
  return message.startsWith('Allow the tool') ? { action: 'accept', content: { decision: 'always-allow' } } : { action: 'accept', content: { confirm: true } };
};

function rxmcpHost(command: { command: string; args: string[] }, asked?: string[]): Host {
  const mcp = McpClient.connectStdio({ ...command, ...(asked ? { onElicit: (request) => answers(asked)(request.params) } : {}) });
  return {
    tools: async () => (await firstValueFrom(mcp.listTools())).map((tool) => tool.name),
    call: async (name, args) => {
      const result = await firstValueFrom(mcp.callTool(name, args));
      return { text: textOf(result), isError: result.isError === true };
    },
    read: async (uri) => JSON.stringify(await firstValueFrom(mcp.readResource(uri))),
    prompt: async (name, args) => JSON.stringify(await firstValueFrom(mcp.getPrompt(name, args))),
    close: () => mcp.close(),
  };
}

async function officialHost(era: 'modern' | 'legacy', command: { command: string; args: string[] }, asked?: string[]): Promise<Host> {
  const client: Client = await officialClient(era, command, asked ? answers(asked) : undefined);
  return {
    tools: async () => (await client.listTools()).tools.map((tool) => tool.name),
    call: async (name, args) => {
      const result = await client.callTool({ name, arguments: args });
      return { text: textOf(result), isError: result.isError === true };
    },
    read: async (uri) => JSON.stringify(await client.readResource({ uri })),
    prompt: async (name, args) => JSON.stringify(await client.getPrompt({ name, arguments: args })),
    close: () => client.close(),
  };
}

describe.each([
  ['rxmcp McpClient', (command: { command: string; args: string[] }, asked?: string[]) => Promise.resolve(rxmcpHost(command, asked))],
  ['the official client v2, 2026-07-28', (command: { command: string; args: string[] }, asked?: string[]) => officialHost('modern', command, asked)],
  ['the official client v2, 2025-11-25', (command: { command: string; args: string[] }, asked?: string[]) => officialHost('legacy', command, asked)],
])('the gateway over stdio, to %s', (_name, connect) => {
  const { config, folder } = upstreamConfig();
  const asked: string[] = [];
  let host: Host;
  beforeAll(async () => {
    host = await connect(gatewayCommand(config), asked);
  }, 30_000);
  afterAll(async () => {
    await host?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("lists every live server's tools under its prefix, and the dead server's absence stops nothing", async () => {
    const tools = await host.tools();
    expect(tools).toEqual(expect.arrayContaining(['fx_echo', 'fx_add', 'everything_echo', 'fs_read_text_file']));
    expect(tools.some((name) => name.startsWith('dead_'))).toBe(false);
  });

  it('runs an allowed call on each kind of server', async () => {
    expect(await host.call('fx_echo', { text: 'through the gateway' })).toEqual({ text: 'through the gateway', isError: false });
    expect((await host.call('everything_echo', { message: 'hi' })).text).toContain('hi');
    expect((await host.call('fs_read_text_file', { path: `${folder}/notes.txt` })).text).toContain('gateway notes');
  });

  it("denies a call the rules deny, with the rule's note", async () => {
    const denied = await host.call('fx_environment', { names: ['HOME'] });
    expect(denied.isError).toBe(true);
    expect(denied.text).toContain('the environment holds secrets');
  });

  it('asks the host through its elicitation, and an "always" answer is not asked again', async () => {
    expect(await host.call('fx_add', { a: 2, b: 3 })).toEqual({ text: '5', isError: false });
    const questions = asked.filter((message) => message.startsWith('Allow the tool'));
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain('sums are looked at first');
    expect(questions[0]).toContain('{"a":2,"b":3}');
    expect(await host.call('fx_add', { a: 4, b: 4 })).toEqual({ text: '8', isError: false });
    expect(asked.filter((message) => message.startsWith('Allow the tool'))).toHaveLength(1);
  });

  it("puts an upstream server's question to the host under that server's name, never the gateway's, and gives the server its answer", async () => {
    expect(await host.call('fx_deploy', { env: 'staging' })).toEqual({ text: 'deployed to staging', isError: false });
    expect(asked).toContain('Asked by the server "fx" (not by the gateway): Deploy to staging?');
  });

  it('reads a resource and renders a prompt of an upstream server', async () => {
    expect(await host.read('rxmcp://fx/fixture://readme')).toContain('# Fixture');
    expect(await host.prompt('fx_greet', { name: 'Ada', language: 'Esperanto' })).toContain('Greet Ada in Esperanto.');
  });
});

describe('the gateway over stdio, to a host without elicitation', () => {
  const { config, folder } = upstreamConfig();
  let host: Host;
  beforeAll(() => {
    host = rxmcpHost(gatewayCommand({ mcpServers: { fx: config.mcpServers.fx } }, RULES));
  });
  afterAll(async () => {
    await host.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('denies a call the Policy asks about, saying the host could not be asked', async () => {
    const denied = await host.call('fx_add', { a: 1, b: 1 });
    expect(denied.isError).toBe(true);
    expect(denied.text).toContain('declared no elicitation');
  });
});
