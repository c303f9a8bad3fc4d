import { firstValueFrom } from 'rxjs';
import { McpClient, McpClientError, type LogMessage } from '../../src/index.js';
import type { LoggingLevel } from '../../src/protocol/types.js';
import { StdioTransport } from '../../src/transport/stdio-transport.js';
import { RestartingTransport } from '../../src/transport/restarting-transport.js';
import { eventually, everythingServer, modernServer } from '../support/servers.js';
import { spyOn } from '../support/spy-transport.js';

// The official SDK v2 fixture's `count` tool logs each step at info and at debug.
async function countLogs(mcp: McpClient): Promise<string[]> {
  const heard: LogMessage[] = [];
  const listening = mcp.log$.subscribe((message) => heard.push(message));
  try {
    await firstValueFrom(mcp.callTool('count', { steps: 1 }));
    return heard.map((message) => message.level);
  } finally {
    listening.unsubscribe();
  }
}

describe.each([['modern' as const], ['legacy' as const]])('setLogLevel on the SDK v2 fixture, %s era', (era) => {
  it('changes which log messages the server sends, from none to info to debug', async () => {
    const { transport, sent } = spyOn(new StdioTransport(modernServer));
    const mcp = new McpClient({ transport, era, requestTimeoutMs: 10000 });
    try {
      if (era === 'modern') expect(await countLogs(mcp)).toEqual([]);
      await firstValueFrom(mcp.setLogLevel('info'));
      expect(await countLogs(mcp)).toEqual(['info']);
      await firstValueFrom(mcp.setLogLevel('debug'));
      expect(await countLogs(mcp)).toEqual(['info', 'debug']);
      // Modern: the level rides in each request's _meta, no logging/setLevel ever. Legacy: one request each time.
      expect(sent.filter((method) => method === 'logging/setLevel')).toHaveLength(era === 'modern' ? 0 : 2);
    } finally {
      await mcp.close();
    }
  });
});

describe('setLogLevel', () => {
  it('refuses a level that is not one of the eight, at once', () => {
    const mcp = McpClient.connectStdio(modernServer);
    expect(() => mcp.setLogLevel('verbose' as LoggingLevel)).toThrow(McpClientError);
    expect(() => mcp.setLogLevel('__proto__' as LoggingLevel)).toThrow(/log level must be one of/);
    return mcp.close();
  });

  it('is cold: nothing is sent until it is subscribed', async () => {
    const { transport, sent } = spyOn(new StdioTransport(everythingServer));
    const mcp = new McpClient({ transport });
    try {
      await firstValueFrom(mcp.describe());
      const change = mcp.setLogLevel('warning');
      expect(sent).not.toContain('logging/setLevel');
      await firstValueFrom(change);
      expect(sent).toContain('logging/setLevel');
    } finally {
      await mcp.close();
    }
  });

  it('asks a restarted legacy server (server-everything) for the level in force after its handshake', async () => {
    const inner = new RestartingTransport({ ...everythingServer }, { maxAttempts: 2, delayMs: 50 });
    const { transport, messages } = spyOn(inner);
    const levels = (): unknown[] =>
      messages.filter((message) => 'method' in message && message.method === 'logging/setLevel').map((message) => (message as { params?: { level?: unknown } }).params?.level);
    const mcp = new McpClient({ transport, logLevel: 'info', requestTimeoutMs: 10000 });
    const states: string[] = [];
    mcp.state$.subscribe((state) => states.push(state));
    try {
      await firstValueFrom(mcp.describe());
      expect(levels()).toEqual(['info']);
      await firstValueFrom(mcp.setLogLevel('error'));
      expect(levels()).toEqual(['info', 'error']);
      process.kill(inner.pid as number, 'SIGKILL');
      await eventually(() => states.includes('restarting'));
      // The next call probes the fresh process; its handshake is followed by the level set last, not the option's.
      await firstValueFrom(mcp.describe());
      expect(levels()).toEqual(['info', 'error', 'error']);
    } finally {
      await mcp.close();
    }
  });
});
