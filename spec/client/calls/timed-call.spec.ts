import { firstValueFrom } from 'rxjs';
import { McpClient } from '../../../src/client/mcp-client.js';
import { McpClientError } from '../../../src/errors/mcp-client-error.js';
import { McpTimeoutError } from '../../../src/errors/call-errors.js';
import { FakeTransport } from '../../../src/testing/fake-transport.js';

// A plain tool call (a budget and nothing else, on a known session) is its
// own deadline (TimedExchange): the same timeout, cancellation and cleanup
// as a call that takes the guard, seen from the outside.

describe('a call bounded by its budget alone', () => {
  afterEach(() => jest.useRealTimers());

  async function connected(): Promise<{ mcp: McpClient; transport: FakeTransport }> {
    const transport = new FakeTransport().modern().on('tools/call', 'silence');
    const mcp = new McpClient({ transport, maxPendingRequests: 1 });
    await firstValueFrom(mcp.describe());
    return { mcp, transport };
  }

  it('times out with McpTimeoutError and cancels its request on the wire', async () => {
    const { mcp, transport } = await connected();
    jest.useFakeTimers();
    const error = jest.fn();
    mcp.callTool('slow', {}, { timeoutMs: 50 }).subscribe({ error });
    jest.advanceTimersByTime(49);
    expect(error).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(error).toHaveBeenCalledWith(expect.any(McpTimeoutError));
    expect(transport.cancelled).toEqual([transport.requests('tools/call')[0]?.id]);
    await mcp.close();
  });

  it('leaves no deadline behind when refused at once, or when its caller leaves first', async () => {
    const { mcp, transport } = await connected();
    jest.useFakeTimers();
    const first = mcp.callTool('a', {}, { timeoutMs: 50 }).subscribe({ error: () => undefined });
    // maxPendingRequests: 1, so this one is refused before it is sent.
    const refused = jest.fn();
    mcp.callTool('b', {}, { timeoutMs: 10 }).subscribe({ error: refused });
    expect(refused).toHaveBeenCalledTimes(1);
    expect(refused).toHaveBeenCalledWith(expect.any(McpClientError));
    first.unsubscribe();
    expect(transport.cancelled).toEqual([transport.requests('tools/call')[0]?.id]);
    jest.advanceTimersByTime(100);
    // No second error for the refused call, and no cancel for one never sent.
    expect(refused).toHaveBeenCalledTimes(1);
    expect(transport.cancelled).toHaveLength(1);
    expect(transport.requests('tools/call')).toHaveLength(1);
    await mcp.close();
  });
});
