import { firstValueFrom } from 'rxjs';
import { McpClient, McpNetworkError } from '../../src/index.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';

// A 2026-07-28 server on 127.0.0.1 (spec/fixtures/http-faults.mjs) whose
// response streams break: 'break-once' resets the connection before its
// answer the first time for a key and answers the next request, with the
// id it came under; 'cut' and 'ended' break every time.
describe('a 2026-07-28 response stream that breaks', () => {
  let server: RunningServer;
  let mcp: McpClient;
  beforeAll(async () => {
    server = await startHttpServer('http-faults.mjs');
    mcp = McpClient.connectHttp({ url: server.url, requestTimeoutMs: 10000 });
    expect((await firstValueFrom(mcp.describe())).era).toBe('modern');
  });
  afterAll(async () => {
    await mcp.close();
    await server.stop();
  });

  const calledUnder = (tool: string, since: number): string[] =>
    server.stderr
      .slice(since)
      .filter((line) => line.startsWith(`called ${tool} `))
      .map((line) => line.slice(`called ${tool} `.length));

  it('2026-07-28 basic/transports (changelog 9, SEP-2575): re-issues the lost request once as a new request with a new id, and the call succeeds', async () => {
    const since = server.stderr.length;
    const result = await firstValueFrom(mcp.callTool('break-once', { key: 'a' }));
    const ids = calledUnder('break-once', since);
    expect(ids).toHaveLength(2);
    expect(ids[1]).not.toBe(ids[0]);
    // The answer came to the second request, under its own id, and reached the caller of the first.
    expect(result.content[0]).toMatchObject({ text: `answered under ${ids[1]}` });
  });

  it('fails with a clear McpNetworkError when the re-issued request breaks too, and stays usable', async () => {
    const since = server.stderr.length;
    const failure = firstValueFrom(mcp.callTool('cut'));
    await expect(failure).rejects.toBeInstanceOf(McpNetworkError);
    await expect(failure).rejects.toThrow(/broke before its answer.*again once re-issued as a new request/);
    expect(calledUnder('cut', since)).toHaveLength(2);
    await expect(firstValueFrom(mcp.callTool('ended'))).rejects.toThrow(/ended before its answer, and again once re-issued/);
    expect((await firstValueFrom(mcp.callTool('break-once', { key: 'b' }))).content[0]).toMatchObject({ text: expect.stringMatching(/^answered under/) });
  });

  it('re-issues only within the call’s own budget: a call whose budget ran out is not sent again', async () => {
    const since = server.stderr.length;
    // 'never' holds its stream open: the budget ends the call, not a break, and nothing is re-issued.
    await expect(firstValueFrom(mcp.callTool('never', {}, { timeoutMs: 200 }))).rejects.toMatchObject({ name: 'McpTimeoutError' });
    expect(calledUnder('never', since)).toHaveLength(1);
  });
});
