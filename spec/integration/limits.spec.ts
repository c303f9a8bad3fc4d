import { firstValueFrom } from 'rxjs';
import { McpClient, McpProtocolError } from '../../src/index.js';
import { FakeTransport } from 'rxmcp/testing';
import { fixture } from '../support/servers.js';

describe('limits', () => {
  it.each(['finite', 'endless'])('ends the connection with McpProtocolError on a %s line over maxMessageBytes', async (kind) => {
    const mcp = McpClient.connectStdio({ ...fixture('huge-line-server.mjs', kind), maxMessageBytes: 1_000_000, probeTimeoutMs: 2000 });
    const failure = firstValueFrom(mcp.callTool('big'));
    await expect(failure).rejects.toBeInstanceOf(McpProtocolError);
    await expect(failure).rejects.toThrow('the server sent a message longer than maxMessageBytes (1000000)');
    await mcp.close();
  });

  it('takes a large message under the limit', async () => {
    const mcp = McpClient.connectStdio({ ...fixture('huge-line-server.mjs'), probeTimeoutMs: 2000 });
    expect((await firstValueFrom(mcp.callTool('big'))).content[0]?.text).toHaveLength(3_000_000);
    await mcp.close();
  });

  it('refuses a request past maxPendingRequests, and takes one again when an answer frees a place', async () => {
    const transport = new FakeTransport().legacy().on('tools/call', (request) => (request.params?.name === 'slow' ? { result: { content: [] }, delayMs: 100 } : { result: { content: [] } }));
    const mcp = new McpClient({ transport, maxPendingRequests: 2, probeTimeoutMs: 50 });
    await firstValueFrom(mcp.describe());
    const slow = [firstValueFrom(mcp.callTool('slow')), firstValueFrom(mcp.callTool('slow'))];
    await expect(firstValueFrom(mcp.callTool('third'))).rejects.toThrow(/2 requests are already waiting for answers \(maxPendingRequests\)/);
    await Promise.all(slow);
    await expect(firstValueFrom(mcp.callTool('fourth'))).resolves.toEqual({ content: [] });
  });
});
