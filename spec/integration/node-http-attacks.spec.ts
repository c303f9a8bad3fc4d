import { inspect } from 'node:util';
import { firstValueFrom } from 'rxjs';
import { HttpTransport, McpClient, McpClientError } from '../../src/index.js';
import { eventually } from '../support/servers.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';

// A hostile server against rxmcp's own node:http requests (Node, no fetch of
// the caller): compressed bodies that break after the answer or halfway, and
// headers past what node:http reads. Each must end in an answer or a typed
// error, never in an exception nobody catches (which would end the host).

describe('an attacker against HTTP requests on Node without a fetch of the caller', () => {
  let server: RunningServer;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown): void => {
    uncaught.push(error);
  };
  beforeAll(async () => {
    server = await startHttpServer('http-faults.mjs');
    process.on('uncaughtException', onUncaught);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await server.stop();
  });
  beforeEach(() => {
    uncaught.length = 0;
  });
  const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it.each(['gzip-garbage-after-answer', 'gzip-reset-after-answer'])(
    'takes the answer of %s, and what breaks in the body left after it throws nowhere',
    async (tool) => {
      const mcp = McpClient.connectHttp({ url: server.url });
      try {
        expect((await firstValueFrom(mcp.callTool(tool))).content).toEqual([{ type: 'text', text: 'answered' }]);
        // The rest of the body arrives (and breaks) while it is drained.
        await settle(300);
        expect(uncaught).toEqual([]);
        expect((await firstValueFrom(mcp.callTool('gzipped'))).content).toEqual([{ type: 'text', text: 'inflated ✓' }]);
      } finally {
        await mcp.close();
      }
    },
  );

  it.each(['gzip-corrupt', 'gzip-reset', 'reset-mid-body'])('fails a call whose answer is %s with a typed error, and answers the next', async (tool) => {
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      const failed = await firstValueFrom(mcp.callTool(tool)).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(McpClientError);
      await settle(100);
      expect(uncaught).toEqual([]);
      expect((await firstValueFrom(mcp.callTool('gzipped'))).content).toEqual([{ type: 'text', text: 'inflated ✓' }]);
    } finally {
      await mcp.close();
    }
  });

  it('refuses a redirect to another origin whose gzip body does not inflate, and nothing throws from the body left unread', async () => {
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      await expect(firstValueFrom(mcp.callTool('redirect-away-gzip'))).rejects.toThrow(/redirects to another origin/);
      await settle(300);
      expect(uncaught).toEqual([]);
      expect((await firstValueFrom(mcp.callTool('gzipped'))).content).toEqual([{ type: 'text', text: 'inflated ✓' }]);
    } finally {
      await mcp.close();
    }
  });

  it('refuses an SSE event that inflates from brotli past maxMessageBytes, and stays usable', async () => {
    const mcp = McpClient.connectHttp({ url: server.url, maxMessageBytes: 1_000_000 });
    try {
      await expect(firstValueFrom(mcp.callTool('brotli-bomb-event'))).rejects.toThrow(/sent a message longer than maxMessageBytes \(1000000\)/);
      expect((await firstValueFrom(mcp.callTool('gzipped'))).content).toEqual([{ type: 'text', text: 'inflated ✓' }]);
    } finally {
      await mcp.close();
    }
  });

  it('refuses a header value from the options that holds CR LF, naming the header but never its value', async () => {
    // A key read from a file with its newline, or one with something appended.
    const mcp = McpClient.connectHttp({ url: server.url, headers: { 'X-Api-Key': 'sekrit-key-1234\r\nX-Injected: 1' } });
    try {
      const failed = await firstValueFrom(mcp.describe()).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(McpClientError);
      expect((failed as Error).message).toContain('X-Api-Key');
      expect(inspect(failed, { depth: 5 })).not.toContain('sekrit-key-1234');
    } finally {
      await mcp.close();
    }
  });

  it('fails a call whose answer has 64 KiB of headers with a typed error, and answers the next', async () => {
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      const failed = await firstValueFrom(mcp.callTool('header-flood')).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(McpClientError);
      expect((await firstValueFrom(mcp.callTool('gzipped'))).content).toEqual([{ type: 'text', text: 'inflated ✓' }]);
    } finally {
      await mcp.close();
    }
  });
});

describe('an attacker answering notifications with a body that never ends', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startHttpServer('http-faults.mjs', 'hold-notifications');
  });
  afterAll(() => server.stop());

  it('cuts the body within a second or so and warns, naming the notification', async () => {
    const warnings: string[] = [];
    const transport = new HttpTransport({ url: server.url, onWarn: (message) => warnings.push(message) });
    try {
      // A 2026-07-28 transport (the client sends none of its own there): a notification is its own POST.
      transport.outbound.next({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
      await eventually(() => server.stderr.includes('notification hung up'), 5000);
      expect(warnings).toEqual([expect.stringMatching(/^notification notifications\/roots\/list_changed failed: .*did not end within 1000 ms/)]);
    } finally {
      await transport.close();
    }
  });
});
