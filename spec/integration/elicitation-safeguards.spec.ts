import { firstValueFrom } from 'rxjs';
import { type InputRequest, McpClient, McpClientError, Policy, Registry } from '../../src/index.js';
import { everythingServer, modernServer } from '../support/servers.js';

// The safeguards around a form question, against real servers: the SDK v2
// fixture (2026-07-28 input_required) and server-everything (a 2025-11-25
// server's own elicitation/create request).

const text = (result: { content: Array<{ text?: string }> }) => result.content.map((block) => block.text ?? '').join('\n');

describe('elicitation safeguards against real servers', () => {
  const closing: Array<{ close(): Promise<void> }> = [];
  afterAll(() => Promise.all(closing.map((closable) => closable.close())));

  it('2025-11-25 client/elicitation, Security Considerations: "Clients MUST provide clear indication of which server is requesting information": one hook shared by two servers of a Registry tells them apart', async () => {
    const asked: InputRequest['server'][] = [];
    const onElicit = (request: InputRequest) => {
      asked.push(request.server);
      return request.params.message === 'Deploy to prod?'
        ? { action: 'accept', content: { confirm: true } }
        : { action: 'accept', content: { name: 'Ada Lovelace' } };
    };
    const registry = new Registry()
      .add(McpClient.connectStdio({ ...modernServer, onElicit }), { prefix: 'fix' })
      .add(McpClient.connectStdio({ ...everythingServer, onElicit }), { prefix: 'every' });
    closing.push(registry);
    await registry.toolsForLlm();
    const answers = await registry.executeToolCalls([
      { id: '1', type: 'function', function: { name: 'fix_deploy', arguments: JSON.stringify({ env: 'prod' }) } },
      { id: '2', type: 'function', function: { name: 'every_trigger-elicitation-request', arguments: '{}' } },
    ]);
    expect(answers[0]?.content).toContain('deployed to prod');
    expect(answers[1]?.content).toContain('Ada Lovelace');
    expect(asked).toHaveLength(2);
    expect(asked).toEqual(
      expect.arrayContaining([
        { name: 'rxmcp-fixture', version: '1.2.3', prefix: 'fix' },
        expect.objectContaining({ name: expect.any(String), prefix: 'every' }),
      ]),
    );
  });

  it('a nested registry names the whole prefix its tools carry at the top', async () => {
    const asked: InputRequest['server'][] = [];
    const inner = new Registry().add(
      McpClient.connectStdio({ ...modernServer, onElicit: (request) => (asked.push(request.server), { action: 'accept', content: { confirm: true } }) }),
      { prefix: 'fix' },
    );
    const outer = new Registry({ separator: '__' }).add(inner, { prefix: 'team' });
    closing.push(outer);
    await outer.toolsForLlm();
    const [answer] = await outer.executeToolCalls([{ id: '1', type: 'function', function: { name: 'team__fix_deploy', arguments: JSON.stringify({ env: 'qa' }) } }]);
    expect(answer?.content).toContain('deployed to qa');
    expect(asked).toEqual([{ name: 'rxmcp-fixture', version: '1.2.3', prefix: 'team__fix' }]);
  });

  it('the prefix reaches a config\'s server and a client behind a Policy; remove clears it', async () => {
    const asked: InputRequest['server'][] = [];
    const onElicit = (request: InputRequest) => (asked.push(request.server), { action: 'accept', content: { confirm: true } });
    const config = Registry.fromConfig({ mcpServers: { fix: { command: modernServer.command, args: modernServer.args } } }, { client: { onElicit } });
    const guarded = McpClient.connectStdio({ ...modernServer, onElicit });
    const registry = new Registry().add(config, { prefix: 'cfg' }).add(new Policy({ provider: guarded, rules: [{ tool: '*', decision: 'allow' }] }), { prefix: 'pol' });
    closing.push(registry, guarded);
    await registry.toolsForLlm();
    const call = (name: string) => registry.executeToolCalls([{ id: name, type: 'function', function: { name, arguments: JSON.stringify({ env: 'x' }) } }]);
    await call('cfg_fix_deploy');
    await call('pol_deploy');
    expect(asked.map((server) => server?.prefix)).toEqual(['cfg_fix', 'pol']);
    registry.remove('pol');
    await firstValueFrom(guarded.callTool('deploy', { env: 'x' }));
    expect(asked[2]).toEqual({ name: 'rxmcp-fixture', version: '1.2.3' });
  });

  it('2026-07-28: an accepted answer that breaks the requestedSchema never reaches the server; the call fails naming the field and rule', async () => {
    const warnings: string[] = [];
    const mcp = McpClient.connectStdio({ ...modernServer, onWarn: (warning) => warnings.push(warning), onElicit: () => ({ action: 'accept', content: { confirm: 'yes' } }) });
    closing.push(mcp);
    const call = firstValueFrom(mcp.callTool('deploy', { env: 'prod' }));
    await expect(call).rejects.toBeInstanceOf(McpClientError);
    await expect(call).rejects.toThrow('field "confirm" must be a boolean');
    expect(warnings.some((warning) => warning.includes('field "confirm" must be a boolean'))).toBe(true);
  });

  it('2025-11-25: a legacy server gets a JSON-RPC error, not the answer, when the accepted answer breaks its schema', async () => {
    const warnings: string[] = [];
    const mcp = McpClient.connectStdio({
      ...everythingServer,
      onWarn: (warning) => warnings.push(warning),
      onElicit: () => ({ action: 'accept', content: { name: 'Ada Lovelace', email: 'not an address' } }),
    });
    closing.push(mcp);
    const outcome = await firstValueFrom(mcp.callTool('trigger-elicitation-request')).then(text, (error: Error) => error.message);
    // Whatever the server makes of the error, it never saw the answer.
    expect(outcome).not.toContain('Ada Lovelace');
    expect(outcome).not.toContain('not an address');
    expect(warnings.some((warning) => warning.includes('field "email" must be in format "email"'))).toBe(true);
  });

  it('2025-11-25: an answer with no content gets the defaults, and is still checked: a required field with no default is refused', async () => {
    const warnings: string[] = [];
    const mcp = McpClient.connectStdio({ ...everythingServer, onWarn: (warning) => warnings.push(warning), onElicit: () => ({ action: 'accept' }) });
    closing.push(mcp);
    const outcome = await firstValueFrom(mcp.callTool('trigger-elicitation-request')).then(text, (error: Error) => error.message);
    // The defaults were filled in, but "name" (required, no default) was not: nothing reached the server.
    expect(outcome).not.toContain('It was a dark and stormy night.');
    expect(warnings.some((warning) => warning.includes('field "name" is required'))).toBe(true);
  });
});
