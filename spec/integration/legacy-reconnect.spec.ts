import { firstValueFrom } from 'rxjs';
import { McpClient, McpClientError, McpNetworkError, McpTimeoutError } from '../../src/index.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { eventually } from '../support/servers.js';

// How often the legacy binding goes back to a server whose streams keep
// hanging up with `retry: 0`: a hand-written server (legacy-faults.mjs)
// counts the attempts over a bounded window.

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('re-opening streams a 2025-11-25 server keeps dropping', () => {
  let server: RunningServer;
  afterEach(async () => {
    await server.stop();
  });
  const gets = (prefix: string) => server.stderr.filter((line) => line.startsWith(`GET ${prefix}`));

  it.each([
    ['one log message', 'event'],
    ['an event id and no data', 'prime'],
  ])('re-opens a GET stream that says retry: 0 and hangs up after %s at most four times in 2 s', async (_what, storm) => {
    server = await startHttpServer('legacy-faults.mjs', '--storm', storm);
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      await firstValueFrom(mcp.describe());
      await eventually(() => gets('').length >= 1);
      const first = Date.now();
      await settle(2000);
      const opened = gets('').length;
      // At 0, ~0.5, ~1.3-1.5 and ~2.8-3.5 s: the server's 0 is raised to 500 ms and doubles.
      expect(opened).toBeGreaterThanOrEqual(2);
      expect(opened).toBeLessThanOrEqual(Math.max(4, 1 + Math.floor((Date.now() - first) / 500)));
    } finally {
      await mcp.close();
    }
  });

  it('stops re-opening a GET stream that keeps hanging up after one event, even though each brought one', async () => {
    server = await startHttpServer('legacy-faults.mjs', '--storm', 'event');
    const warnings: string[] = [];
    const logged: unknown[] = [];
    const mcp = McpClient.connectHttp({ url: server.url, reconnect: { maxAttempts: 3, maxDelayMs: 500 }, onWarn: (w) => warnings.push(w), onLog: (m) => logged.push(m.data) });
    try {
      await firstValueFrom(mcp.describe());
      await eventually(() => warnings.some((w) => w.startsWith('gave up re-opening the GET stream')), 10000);
      // The server's log comes through a pipe, which may lag behind its answers.
      await eventually(() => gets('').length >= 3);
      expect(gets('')).toEqual(['GET -', 'GET s1', 'GET s2']);
      expect(logged).toEqual(['storm 1', 'storm 2', 'storm 3']);
      await settle(1500);
      expect(gets('')).toHaveLength(3);
      // The session itself still works.
      expect((await firstValueFrom(mcp.callTool('whoami'))).content[0]?.text).toBe('s1');
    } finally {
      await mcp.close();
    }
  });

  it('resumes a call\'s stream that says retry: 0 and hangs up at most four times in 2 s', async () => {
    server = await startHttpServer('legacy-faults.mjs', '--no-get');
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      await firstValueFrom(mcp.describe());
      const started = Date.now();
      await expect(firstValueFrom(mcp.callTool('hang-up-forever', {}, { timeoutMs: 2000 }))).rejects.toBeInstanceOf(McpTimeoutError);
      const resumed = gets('h').length;
      expect(resumed).toBeGreaterThanOrEqual(1);
      expect(resumed).toBeLessThanOrEqual(Math.max(4, Math.floor((Date.now() - started) / 500)));
    } finally {
      await mcp.close();
    }
  });

  it('gives up resuming a call\'s stream that keeps hanging up, with McpNetworkError', async () => {
    server = await startHttpServer('legacy-faults.mjs', '--no-get');
    const mcp = McpClient.connectHttp({ url: server.url, reconnect: { maxAttempts: 3, maxDelayMs: 500 } });
    try {
      const failure = firstValueFrom(mcp.callTool('hang-up-forever', {}, { timeoutMs: 10000 }));
      await expect(failure).rejects.toBeInstanceOf(McpNetworkError);
      await expect(failure).rejects.toThrow('gave up resuming the response to tools/call: 3 streams in a row ended within 10 s');
      await eventually(() => gets('h').length >= 2);
      expect(gets('h')).toEqual(['GET h1', 'GET h2']);
      expect((await firstValueFrom(mcp.callTool('whoami'))).content[0]?.text).toBe('s1');
    } finally {
      await mcp.close();
    }
  });

  it('refuses reconnect options it cannot read, before sending anything', () => {
    const url = 'http://127.0.0.1:1/mcp';
    expect(() => McpClient.connectHttp({ url, reconnect: { maxAttempts: -1 } })).toThrow(McpClientError);
    expect(() => McpClient.connectHttp({ url, reconnect: { maxDelayMs: Number.NaN } })).toThrow('option reconnect.maxDelayMs must be a number of milliseconds');
    expect(() => McpClient.connectHttp({ url, reconnect: { tries: 3 } as never })).toThrow('unknown option: tries');
  });
});
