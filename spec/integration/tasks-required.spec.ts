// A tool that requires a task (execution.taskSupport "required") runs as one
// whatever the client option `tasks` says, in both eras; on a server that
// cannot run tasks it is kept from the model and refused before a round trip.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { McpCapabilityError, McpClient, StdioTransport } from '../../src/index.js';
import { RecordingTransport } from '../support/recording-transport.js';
import { everythingServer, fixture } from '../support/servers.js';

const text = (result: { content: Array<{ text?: string }> }) => result.content.map((block) => block.text ?? '').join('\n');
const declaresTasks = (params: Record<string, unknown> | undefined) =>
  (params?._meta as Record<string, { extensions?: Record<string, unknown> }> | undefined)?.['io.modelcontextprotocol/clientCapabilities']?.extensions?.[
    'io.modelcontextprotocol/tasks'
  ] !== undefined;

describe('a tool that requires a task, with the client option tasks off', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rxmcp-required-'));
  const clients: McpClient[] = [];
  const record = (server: { command: string; args: string[] }, options: { onWarn?: (message: string) => void } = {}) => {
    const transport = new RecordingTransport(new StdioTransport(server));
    const mcp = new McpClient({ transport, ...options });
    clients.push(mcp);
    return { mcp, transport };
  };
  afterAll(async () => {
    await Promise.all(clients.map((mcp) => mcp.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  describe('2025-11-25 (server-everything, simulate-research-query)', () => {
    it('2025-11-25 tasks, Tool-Level Negotiation: a client MUST invoke a required tool as a task; callTool gets the report', async () => {
      const { mcp, transport } = record(everythingServer);
      await firstValueFrom(mcp.listTools());
      const result = await firstValueFrom(mcp.callTool('simulate-research-query', { topic: 'rust' }));
      expect(text(result)).toContain('# Research Report: rust');
      const calls = transport.requests('tools/call');
      expect(calls).toHaveLength(1);
      expect(calls[0]?.params?.task).toEqual({});
      // tasks is off: nothing about tasks is declared to the server.
      expect(transport.requests('initialize')[0]?.params?.capabilities).not.toHaveProperty('tasks');
    }, 20000);

    it('a first call, before any list, lists the tools once (the server offers tasks.requests.tools.call) and is sent as a task, never plainly', async () => {
      const { mcp, transport } = record(everythingServer);
      const result = await firstValueFrom(mcp.callTool('simulate-research-query', { topic: 'go' }));
      expect(text(result)).toContain('# Research Report: go');
      expect(transport.requests('tools/call').map((call) => call.params?.task)).toEqual([{}]);
      expect(transport.requests('tools/list')).toHaveLength(1);
      // A tool that does not need a task is still called plainly.
      await firstValueFrom(mcp.callTool('echo', { message: 'hi' }));
      expect(transport.requests('tools/call').map((call) => call.params?.task)).toEqual([{}, undefined]);
    }, 20000);

    it('executeToolCalls runs the model\'s call of it as a task', async () => {
      const { mcp } = record(everythingServer);
      expect((await mcp.toolsForLlm()).map((tool) => tool.function.name)).toContain('simulate-research-query');
      const [message] = await mcp.executeToolCalls([{ id: 'c1', function: { name: 'simulate-research-query', arguments: { topic: 'ocaml' } } }]);
      expect(message?.is_error).toBe(false);
      expect(message?.content).toContain('# Research Report: ocaml');
    }, 20000);
  });

  describe('2026-07-28 (the tasks-extension fixture, tool `required`)', () => {
    it('2026-07-28 tasks extension, Capability Negotiation: the call and its polls declare the extension, and callTool gets the result', async () => {
      const { mcp, transport } = record(fixture('tasks-server.mjs', dir));
      await firstValueFrom(mcp.listTools());
      expect(text(await firstValueFrom(mcp.callTool('required', { ms: 150 })))).toBe('slept 150 ms');
      const calls = transport.requests('tools/call');
      expect(calls).toHaveLength(1);
      expect(declaresTasks(calls[0]?.params)).toBe(true);
      expect(transport.requests('tasks/get').every((poll) => declaresTasks(poll.params))).toBe(true);
      // Other requests go on declaring only what the options say.
      expect(declaresTasks(transport.requests('tools/list')[0]?.params)).toBe(false);
    });

    it('a first call refused with -32021 naming the extension is called again as a task', async () => {
      const { mcp, transport } = record(fixture('tasks-server.mjs', dir));
      expect(text(await firstValueFrom(mcp.callTool('required', { ms: 100 })))).toBe('slept 100 ms');
      expect(transport.requests('tools/call').map((call) => declaresTasks(call.params))).toEqual([false, true]);
    });

    it('executeToolCalls runs the model\'s call of it as a task', async () => {
      const { mcp } = record(fixture('tasks-server.mjs', dir));
      expect((await mcp.toolsForLlm()).map((tool) => tool.function.name)).toContain('required');
      const [message] = await mcp.executeToolCalls([{ id: 'c1', function: { name: 'required', arguments: '{"ms":100}' } }]);
      expect(message).toMatchObject({ is_error: false, content: 'slept 100 ms' });
    });

    it('on a server without the extension: kept from the model with one warning naming it, and callTool fails with McpCapabilityError before sending', async () => {
      const warnings: string[] = [];
      const { mcp, transport } = record(fixture('tasks-server.mjs', dir, '--no-tasks'), { onWarn: (message) => warnings.push(message) });
      const names = (await mcp.toolsForLlm()).map((tool) => tool.function.name);
      expect(names).toContain('quick');
      expect(names).not.toContain('required');
      await mcp.toolsForLlm();
      expect(warnings.filter((warning) => warning.includes('"required"'))).toHaveLength(1);
      const error = await firstValueFrom(mcp.callTool('required', { ms: 100 })).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(McpCapabilityError);
      expect(error).toMatchObject({ capability: 'extensions.io.modelcontextprotocol/tasks', method: 'tools/call' });
      expect((error as Error).message).toContain('"required"');
      expect(transport.requests('tools/call')).toEqual([]);
      const [message] = await mcp.executeToolCalls([{ id: 'c1', function: { name: 'required', arguments: {} } }]);
      expect(message?.is_error).toBe(true);
      expect(transport.requests('tools/call')).toEqual([]);
    });
  });
});
