import { firstValueFrom } from 'rxjs';
import { z } from 'zod';
import { normalizeServerConfig } from '../../src/config/normalize-server-config.js';
import { type LlmToolCall, McpClient, McpClientError, Policy, type PolicyQuestion, Registry, Toolkit, type ToolProvider } from '../../src/index.js';
import { parityServer } from '../support/parity.js';
import { eventually, everythingServer } from '../support/servers.js';

// MCP 2025-11-25 and 2026-07-28, server/tools §Tool: "For trust & safety and
// security, clients MUST consider tool annotations to be untrusted unless
// they come from trusted servers." A server's readOnlyHint must not let its
// tool past a Policy unasked, nor its readOnlyHint + idempotentHint overlap
// or merge a batch, unless the user marked that server trusted.

const call = (id: string, name: string, args: object): LlmToolCall => ({ id, function: { name, arguments: JSON.stringify(args) } });
const read = (id: string, name: string, tag: string): LlmToolCall => call(id, name, { tag, ms: 30 });

/** A Policy with the default rules over `provider`, denying (and recording) whatever it asks about. */
function policed(provider: ToolProvider): { policy: Policy; asked: string[] } {
  const asked: string[] = [];
  const policy = new Policy({
    provider,
    rules: Policy.defaultRules(),
    onAsk: (question: PolicyQuestion) => (asked.push(question.kind === 'permission' ? question.tool : question.kind), { action: 'deny-once' }),
  });
  return { policy, asked };
}

describe('server/tools §Tool: clients MUST consider tool annotations untrusted unless they come from trusted servers', () => {
  describe('an McpClient', () => {
    const untrustedLines: string[] = [];
    const trustedLines: string[] = [];
    const untrusted = McpClient.connectStdio({ ...parityServer(), onStderr: (line) => untrustedLines.push(line) });
    const trusted = McpClient.connectStdio({ ...parityServer(), trustAnnotations: true, onStderr: (line) => trustedLines.push(line) });
    const everything = McpClient.connectStdio({ ...everythingServer, onStderr: () => undefined });
    const everythingTrusted = McpClient.connectStdio({ ...everythingServer, trustAnnotations: true, onStderr: () => undefined });
    afterAll(() => Promise.all([untrusted.close(), trusted.close(), everything.close(), everythingTrusted.close()]));

    it('gives the hints of an untrusted server to no one, though listTools shows what it sent', async () => {
      expect(await firstValueFrom(untrusted.toolAnnotations('slow_read'))).toBeUndefined();
      const listed = (await firstValueFrom(untrusted.listTools())).find((tool) => tool.name === 'slow_read');
      expect(listed?.annotations).toEqual({ readOnlyHint: true, idempotentHint: true });
      expect(await firstValueFrom(trusted.toolAnnotations('slow_read'))).toEqual({ readOnlyHint: true, idempotentHint: true });
    });

    it("runs an untrusted server's read-only, idempotent calls one at a time, each of them", async () => {
      await untrusted.executeToolCalls([read('1', 'slow_read', 'a'), read('2', 'slow_read', 'b'), read('3', 'slow_read', 'a')]);
      await eventually(() => untrustedLines.length === 6);
      expect(untrustedLines).toEqual(['begin a', 'end a', 'begin b', 'end b', 'begin a', 'end a']);
    });

    it("overlaps and merges a trusted server's read-only, idempotent calls", async () => {
      await trusted.executeToolCalls([read('1', 'slow_read', 'a'), read('2', 'slow_read', 'b'), read('3', 'slow_read', 'a')]);
      await eventually(() => trustedLines.length === 4);
      expect(trustedLines.slice(0, 2)).toEqual(['begin a', 'begin b']);
    });

    it("asks about an untrusted server's readOnlyHint tool under Policy.defaultRules(), and passes a trusted one's", async () => {
      const loose = policed(everything);
      const [answer] = await loose.policy.executeToolCalls([call('1', 'echo', { message: 'hi' })]);
      expect(loose.asked).toEqual(['echo']);
      expect(answer?.is_error).toBe(true);

      const kept = policed(everythingTrusted);
      const [passed] = await kept.policy.executeToolCalls([call('1', 'echo', { message: 'hi' })]);
      expect(kept.asked).toEqual([]);
      expect(passed).toMatchObject({ is_error: false, content: expect.stringContaining('hi') });
    });

    it('refuses a trustAnnotations that is not a boolean', () => {
      expect(() => McpClient.connectStdio({ ...parityServer(), trustAnnotations: 'yes' as unknown as boolean })).toThrow(McpClientError);
    });
  });

  describe('a Registry mixing a trusted and an untrusted server', () => {
    const trustedLines: string[] = [];
    const untrustedLines: string[] = [];
    const good = McpClient.connectStdio({ ...parityServer(), onStderr: (line) => trustedLines.push(line) });
    const other = McpClient.connectStdio({ ...parityServer(), onStderr: (line) => untrustedLines.push(line) });
    const kit = new Toolkit({ name: 'own' }).tool('look', { input: z.object({}), annotations: { readOnlyHint: true } }, () => ({ content: [{ type: 'text', text: 'seen' }] }));
    // The untrusted server's prefix is the trusted one's plus the separator,
    // so its names read as the trusted server's ("a__slow_read" beside
    // "a_slow_read"): trust must follow the server a name routes to.
    const registry = new Registry().add(good, { prefix: 'a', trustAnnotations: true }).add(other, { prefix: 'a_' }).add(kit, { prefix: 'own' });
    afterAll(() => registry.close());

    it('trusts the hints of the entry marked trusted and of the local Toolkit, per tool', async () => {
      expect(await registry.toolAnnotations('a_slow_read')).toEqual({ readOnlyHint: true, idempotentHint: true });
      expect(await registry.toolAnnotations('a__slow_read')).toBeUndefined();
      expect(await registry.toolAnnotations('own_look')).toEqual({ readOnlyHint: true });
      const { policy, asked } = policed(registry);
      const answers = await policy.executeToolCalls([read('1', 'a_slow_read', 'x'), read('2', 'a__slow_read', 'y'), call('3', 'own_look', {})]);
      expect(asked).toEqual(['a__slow_read']);
      expect(answers.map((answer) => answer.is_error)).toEqual([false, true, false]);
    });

    it("overlaps the trusted server's batch and runs the untrusted one's serially", async () => {
      trustedLines.length = 0;
      untrustedLines.length = 0;
      await registry.executeToolCalls([read('1', 'a_slow_read', 'a'), read('2', 'a_slow_read', 'b'), read('3', 'a__slow_read', 'c'), read('4', 'a__slow_read', 'd')]);
      await eventually(() => trustedLines.length === 4 && untrustedLines.length === 4);
      expect(trustedLines.slice(0, 2)).toEqual(['begin a', 'begin b']);
      expect(untrustedLines).toEqual(['begin c', 'end c', 'begin d', 'end d']);
    });

    it('refuses a trustAnnotations that is not a boolean', () => {
      expect(() => new Registry().add(kit, { prefix: 'k', trustAnnotations: 1 as unknown as boolean })).toThrow(McpClientError);
    });
  });

  describe('Registry.fromConfig, trust given per server', () => {
    const config = normalizeServerConfig({ mcpServers: { mine: everythingServer, theirs: everythingServer } });
    const tools = Registry.fromConfig(config, { client: { onStderr: () => undefined }, servers: { mine: { trustAnnotations: true } }, onWarn: () => undefined });
    afterAll(() => tools.close());

    it("passes the trusted server's readOnlyHint tool and asks about the other's", async () => {
      await tools.toolsForLlm();
      expect((await tools.toolAnnotations('mine_echo'))?.readOnlyHint).toBe(true);
      expect(await tools.toolAnnotations('theirs_echo')).toBeUndefined();
      const { policy, asked } = policed(tools);
      const answers = await policy.executeToolCalls([call('1', 'mine_echo', { message: 'hi' }), call('2', 'theirs_echo', { message: 'hi' })]);
      expect(asked).toEqual(['theirs_echo']);
      expect(answers.map((answer) => answer.is_error)).toEqual([false, true]);
    });
  });
});
