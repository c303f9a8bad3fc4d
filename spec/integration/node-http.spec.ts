import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { firstValueFrom } from 'rxjs';
import { McpClient } from '../../src/index.js';
import { DRAIN_MS } from '../../src/http/node-http-fetch.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';
import { eventually } from '../support/servers.js';

// What rxmcp's own requests on Node (node:http, when no fetch is given) do
// that a user can see, against the hand-written endpoint of http-faults.mjs:
// compressed bodies, connections kept across calls, streams let go.

describe('HTTP requests on Node without a fetch of the caller', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startHttpServer('http-faults.mjs');
  });
  afterAll(async () => {
    await server.stop();
  });
  const connections = () => server.stderr.filter((line) => line === 'connection').length;

  it('reads a gzip-compressed answer and a deflate-compressed SSE stream, its progress first', async () => {
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      expect((await firstValueFrom(mcp.callTool('gzipped'))).content).toEqual([{ type: 'text', text: 'inflated ✓' }]);
      const progress: number[] = [];
      const watching = mcp.progress$.subscribe((p) => progress.push(p.progress));
      expect((await firstValueFrom(mcp.callTool('deflated-stream', {}, { progressToken: 7 }))).content).toEqual([{ type: 'text', text: 'deflated ✓' }]);
      watching.unsubscribe();
      expect(progress).toEqual([1]);
    } finally {
      await mcp.close();
    }
  });

  it('refuses a compressed answer that inflates past maxMessageBytes, and stays usable', async () => {
    const mcp = McpClient.connectHttp({ url: server.url, maxMessageBytes: 1_000_000 });
    try {
      await expect(firstValueFrom(mcp.callTool('gzip-bomb'))).rejects.toThrow(/sent a message longer than maxMessageBytes \(1000000\)/);
      expect((await firstValueFrom(mcp.callTool('gzipped'))).content).toEqual([{ type: 'text', text: 'inflated ✓' }]);
    } finally {
      await mcp.close();
    }
  });

  it('measures a plain answer in bytes against maxMessageBytes, not in characters', async () => {
    const mcp = McpClient.connectHttp({ url: server.url, maxMessageBytes: 100_000 });
    try {
      // 30,000 characters in 90,000 bytes: within the limit.
      const [wide] = (await firstValueFrom(mcp.callTool('wide-text', { chars: 30_000 }))).content as Array<{ text: string }>;
      expect(wide?.text).toBe('✓'.repeat(30_000));
      // 40,000 characters, within the limit as characters, in 120,000 bytes: over it.
      await expect(firstValueFrom(mcp.callTool('wide-text', { chars: 40_000 }))).rejects.toThrow(/sent a message longer than maxMessageBytes \(100000\)/);
      expect((await firstValueFrom(mcp.callTool('wide-text', { chars: 3 }))).content).toEqual([{ type: 'text', text: '✓✓✓' }]);
    } finally {
      await mcp.close();
    }
  });

  it('holds an answer sent one byte per chunk in about its own size, not a Buffer kept for each byte', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const held = (): number => {
      gc();
      const { heapUsed, external } = process.memoryUsage();
      return heapUsed + external;
    };
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      await firstValueFrom(mcp.describe());
      const baseline = held();
      const before = server.stderr.length;
      // About 300,000 chunks of one byte, the last held back by the server: what the read holds meanwhile is measured.
      const answer = firstValueFrom(mcp.callTool('tiny-chunks'));
      await eventually(() => server.stderr.slice(before).includes('chunks sent'), 30_000);
      // Measured once the read stops growing (all the bytes sent are in).
      let last = held();
      for (let i = 0; i < 50; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const now = held();
        const settled = Math.abs(now - last) < 256 * 1024;
        last = now;
        if (settled && i >= 3) break;
      }
      // 300 KB of answer: a Buffer and its ArrayBuffer kept for each byte would be some 50 MB.
      expect(last - baseline).toBeLessThan(8 * 1024 * 1024);
      await firstValueFrom(mcp.callTool('release-chunks'));
      expect((await answer).content).toEqual([{ type: 'text', text: 'x'.repeat(300_000) }]);
    } finally {
      await mcp.close();
    }
  }, 60_000);

  it("sends rxmcp's User-Agent, or the caller's own in its place whatever its case", async () => {
    const agents = async (headers?: Record<string, string>) => {
      const mcp = McpClient.connectHttp({ url: server.url, headers });
      try {
        const [answer] = (await firstValueFrom(mcp.callTool('user-agents'))).content as Array<{ text: string }>;
        return JSON.parse(answer?.text ?? 'null');
      } finally {
        await mcp.close();
      }
    };
    expect(await agents()).toEqual([expect.stringMatching(/^rxmcp\//)]);
    expect(await agents({ 'user-agent': 'mine/1' })).toEqual(['mine/1']);
  });

  it('keeps one connection across calls whose streams end just after their answers', async () => {
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      await firstValueFrom(mcp.describe());
      const before = connections();
      for (let i = 0; i < 4; i++) {
        expect((await firstValueFrom(mcp.callTool('end-after-answer'))).content).toEqual([{ type: 'text', text: 'answered' }]);
        // Past the end of the stream (30 ms after its answer): its connection is free again, unless it was closed.
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      expect(connections() - before).toBe(0);
    } finally {
      await mcp.close();
    }
  });

  it('answers at once from a stream left open after the answer, and hangs it up soon after', async () => {
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      await firstValueFrom(mcp.describe());
      const before = server.stderr.length;
      const started = Date.now();
      expect((await firstValueFrom(mcp.callTool('open-after-answer'))).content).toEqual([{ type: 'text', text: 'answered' }]);
      expect(Date.now() - started).toBeLessThan(DRAIN_MS);
      await eventually(() => server.stderr.slice(before).some((line) => line.startsWith('disconnected')), 10 * DRAIN_MS);
    } finally {
      await mcp.close();
    }
  });

  it('opens a connection per request with persistent: false', async () => {
    const mcp = McpClient.connectHttp({ url: server.url, persistent: false });
    try {
      await firstValueFrom(mcp.describe());
      const before = connections();
      for (let i = 0; i < 3; i++) await firstValueFrom(mcp.callTool('gzipped'));
      // At least one each (kept alive, the three would share one). Not exactly three: the server
      // logs a connection on stderr, and under load the line for describe's may come after `before`.
      await eventually(() => connections() - before >= 3);
    } finally {
      await mcp.close();
    }
  });
});
