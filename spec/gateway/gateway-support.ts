import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Gateway } from '../../src/gateway/index.js';
import { type InputHooks, type McpClient, Policy, type PolicyRule, Registry } from '../../src/index.js';

const root = join(__dirname, '..', '..');

/** The rules the gateway specs serve under. */
export const RULES: PolicyRule[] = [
  { tool: 'fx_environment', decision: 'deny', note: 'the environment holds secrets' },
  { tool: 'fx_add', decision: 'ask', note: 'sums are looked at first' },
  { tool: '*', decision: 'allow' },
];

/** A config of real upstream servers: the SDK fixture and server-everything over stdio, server-filesystem on a fresh folder, one that never starts, and `extra`. */
export function upstreamConfig(extra: Record<string, unknown> = {}): { config: { mcpServers: Record<string, unknown> }; folder: string } {
  const folder = mkdtempSync(join(tmpdir(), 'rxmcp-gateway-'));
  writeFileSync(join(folder, 'notes.txt'), 'gateway notes\n');
  return {
    folder,
    config: {
      mcpServers: {
        fx: { command: process.execPath, args: [join(root, 'spec/fixtures/modern-server.mjs')] },
        everything: { command: process.execPath, args: [join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] },
        fs: { command: process.execPath, args: [join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), folder] },
        dead: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
        ...extra,
      },
    },
  };
}

/** The stdio command that runs spec/fixtures/gateway-server.mjs (from dist) in front of `config`. */
export function gatewayCommand(config: unknown, rules: PolicyRule[] = RULES, client: Record<string, unknown> = {}): { command: string; args: string[] } {
  return { command: process.execPath, args: [join(root, 'spec/fixtures/gateway-server.mjs'), JSON.stringify({ config, rules, client })] };
}

/** An official v2 client, of the era given, with a form elicitation handler when `onElicit` is given, named `name`. */
export async function officialClient(
  era: 'modern' | 'legacy',
  transport: ConstructorParameters<typeof StdioClientTransport>[0] | { connect: () => import('@modelcontextprotocol/client').Transport },
  onElicit?: (params: Record<string, unknown>) => Record<string, unknown>,
  name = 'rxmcp-gateway-spec',
): Promise<Client> {
  const client = new Client(
    { name, version: '1.0.0' },
    {
      capabilities: onElicit ? { elicitation: { form: {} } } : {},
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    } as never,
  );
  if (onElicit) client.setRequestHandler('elicitation/create', async (request) => onElicit(request.params as Record<string, unknown>) as never);
  await client.connect('connect' in transport ? transport.connect() : new StdioClientTransport({ ...transport, stderr: 'pipe' }));
  return client;
}

/** The text of a tool result's first block. */
export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ text?: string }> }).content;
  return content?.[0]?.text ?? '';
}

/**
 * A real gateway on loopback HTTP (no token) in front of the hand-written
 * legacy stdio server `late-question-server.mjs`, whose questions the wire
 * ties to no call, every call allowed; `close()` ends the gateway and the server.
 */
export async function lateQuestionGateway(): Promise<{ url: string; close(): Promise<void> }> {
  let gateway: Gateway | undefined;
  const hooks: InputHooks = {
    onElicit: (request) => (gateway as Gateway).upstreamHooks.onElicit(request),
    onSample: (request) => (gateway as Gateway).upstreamHooks.onSample(request),
    onListRoots: (request) => (gateway as Gateway).upstreamHooks.onListRoots(request),
  };
  const config = { mcpServers: { late: { command: process.execPath, args: [join(root, 'spec/fixtures/late-question-server.mjs')] } } };
  const registry = Registry.fromConfig(config, { client: hooks });
  const policy = new Policy({ provider: registry, rules: [{ tool: '*', decision: 'allow' }], onAsk: (question) => (gateway as Gateway).ask(question) });
  const servers = Object.fromEntries(registry.providers.map(({ prefix, provider }) => [prefix, () => (provider as unknown as { client(): McpClient }).client()]));
  gateway = new Gateway({ provider: policy, servers });
  const served = await gateway.listen({ port: 0, bearerToken: false });
  return {
    url: served.url,
    close: async () => {
      await gateway?.close();
      await served.close();
      await registry.close();
    },
  };
}
