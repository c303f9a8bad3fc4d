import { firstValueFrom } from 'rxjs';
import { McpClient, McpClientError, McpUnsupportedVersionError, VERSION } from '../../src/index.js';
import { FakeTransport } from 'rxmcp/testing';
import packageJson from '../../package.json';

describe('client options', () => {
  it('refuses an unknown option by name', () => {
    expect(() => McpClient.connectStdio({ command: 'srv', onElicits: () => undefined } as never)).toThrow(
      new McpClientError('unknown option: onElicits'),
    );
    expect(() => new McpClient({ transport: new FakeTransport(), requestTimeout: 5 } as never)).toThrow(
      'unknown option: requestTimeout',
    );
  });

  it('refuses transport options next to a ready transport', () => {
    expect(() => new McpClient({ transport: new FakeTransport(), command: 'srv' } as never)).toThrow(
      /option command configures a transport/,
    );
  });

  it('refuses a legacy version in protocolVersions', () => {
    const build = () => new McpClient({ transport: new FakeTransport(), protocolVersions: ['2025-11-25'] });
    expect(build).toThrow(McpUnsupportedVersionError);
    expect(build).toThrow(/handshake-era/);
  });

  it.each([[[]], [['latest']], [[20260728]]])('refuses protocolVersions %j', (versions) => {
    expect(() => new McpClient({ transport: new FakeTransport(), protocolVersions: versions as never })).toThrow(McpClientError);
  });

  it.each([['probeTimeoutMs', -1], ['requestTimeoutMs', Number.NaN], ['requestTimeoutMs', '5']])(
    'refuses %s = %p',
    (name, value) => {
      expect(() => new McpClient({ transport: new FakeTransport(), [name]: value })).toThrow(/milliseconds/);
    },
  );

  it('refuses an unknown or misplaced per-call option', () => {
    const mcp = new McpClient({ transport: new FakeTransport() });
    expect(() => mcp.callTool('x', {}, { timeout: 5 } as never)).toThrow('unknown option: timeout');
    expect(() => mcp.readResource('x', { progressToken: 1 } as never)).toThrow('option progressToken does not apply to this call');
  });

  it.each([[{}], [{ refresh: true }]])('refuses a negative timeoutMs when a list is made, as every other call does (%j)', (options) => {
    const mcp = new McpClient({ transport: new FakeTransport() });
    expect(() => mcp.callTool('x', {}, { timeoutMs: -1 })).toThrow(/timeoutMs/);
    expect(() => mcp.listTools({ ...options, timeoutMs: -1 })).toThrow(/timeoutMs/);
    expect(() => mcp.listPrompts({ ...options, timeoutMs: -1 })).toThrow(/timeoutMs/);
  });

  it('sends nothing until a call is subscribed', () => {
    const transport = new FakeTransport();
    const mcp = new McpClient({ transport });
    mcp.listTools();
    mcp.callTool('echo');
    expect(transport.sent).toEqual([]);
  });

  it('declares the capabilities it is given, and none by default', () => {
    expect(new McpClient({ transport: new FakeTransport() }).declaredCapabilities).toEqual({});
    const roots = new McpClient({ transport: new FakeTransport(), clientCapabilities: { roots: {} } });
    expect(roots.declaredCapabilities).toEqual({ roots: {} });
  });

  it('reports the package version as its clientVersion', async () => {
    expect(VERSION).toBe(packageJson.version);
    const transport = new FakeTransport().on('initialize', {
      result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } },
    });
    await firstValueFrom(new McpClient({ transport }).describe());
    expect(transport.requests('initialize')[0]?.params?.clientInfo).toEqual({ name: 'rxmcp', version: VERSION });
  });

  describe('extensions', () => {
    const APPS = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };

    it('declares them, next to what tasks adds and over clientCapabilities.extensions', () => {
      expect(new McpClient({ transport: new FakeTransport(), extensions: APPS }).declaredCapabilities).toEqual({ extensions: APPS });
      expect(new McpClient({ transport: new FakeTransport(), extensions: APPS, tasks: true, onListRoots: () => ({ roots: [] }) }).declaredCapabilities).toEqual({
        roots: { listChanged: true },
        tasks: {},
        extensions: { ...APPS, 'io.modelcontextprotocol/tasks': {} },
      });
      const clientCapabilities = { sampling: {}, extensions: { 'com.example/kept': { a: 1 }, 'io.modelcontextprotocol/ui': { mimeTypes: [] } } };
      expect(new McpClient({ transport: new FakeTransport(), extensions: APPS, clientCapabilities }).declaredCapabilities).toEqual({
        sampling: {},
        extensions: { 'com.example/kept': { a: 1 }, ...APPS },
      });
      expect(McpClient.connectStdio({ command: 'srv', extensions: APPS }).declaredCapabilities).toEqual({ extensions: APPS });
    });

    it('keeps its own copy, so changing the object later changes nothing declared', () => {
      const extensions = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
      const mcp = new McpClient({ transport: new FakeTransport(), extensions });
      extensions['io.modelcontextprotocol/ui'].mimeTypes.push('text/plain');
      expect(mcp.declaredCapabilities).toEqual({ extensions: APPS });
    });

    it.each([
      ['an array', [APPS]],
      ['null', null],
      ['a string', 'io.modelcontextprotocol/ui'],
      ['settings that are not an object', { 'io.modelcontextprotocol/ui': ['text/html;profile=mcp-app'] }],
      ['null settings', { 'io.modelcontextprotocol/ui': null }],
      ['an identifier without a vendor prefix', { ui: {} }],
      ['an identifier with a space', { 'io.modelcontextprotocol/u i': {} }],
      ['an empty identifier', { '': {} }],
    ])('refuses %s', (_what, extensions) => {
      expect(() => new McpClient({ transport: new FakeTransport(), extensions: extensions as never })).toThrow(McpClientError);
      expect(() => new McpClient({ transport: new FakeTransport(), extensions: extensions as never })).toThrow(/^option extensions/);
    });

    it('refuses settings that are not JSON data, naming the extension', () => {
      const settings: Record<string, unknown> = {};
      settings.self = settings;
      expect(() => new McpClient({ transport: new FakeTransport(), extensions: { 'com.example/loop': settings } })).toThrow(
        /^option extensions: the settings of "com.example\/loop" are not JSON data/,
      );
      expect(() => new McpClient({ transport: new FakeTransport(), extensions: { 'com.example/big': { n: 1n } } })).toThrow(McpClientError);
    });
  });

  describe('maxMessageBytes', () => {
    const bad: unknown[] = [0, -1, 1.5, NaN, Infinity, '10', null];
    it.each(bad)('refuses %p for a stdio server, naming the option', (value) => {
      const build = () => McpClient.connectStdio({ command: 'srv', maxMessageBytes: value as number });
      expect(build).toThrow(McpClientError);
      expect(build).toThrow(/^option maxMessageBytes must be a whole number of bytes, 1 or more; got /);
    });

    it.each(bad)('refuses %p for a stdio server that restarts, naming the option', (value) => {
      expect(() => McpClient.connectStdio({ command: 'srv', restart: { maxAttempts: 1 }, maxMessageBytes: value as number })).toThrow(/option maxMessageBytes must be/);
    });

    it.each(bad)('refuses %p for an HTTP server, naming the option', (value) => {
      const build = () => McpClient.connectHttp({ url: 'http://127.0.0.1:9/mcp', maxMessageBytes: value as number });
      expect(build).toThrow(McpClientError);
      expect(build).toThrow(/^option maxMessageBytes must be a whole number of bytes, 1 or more; got /);
    });

    it('takes a whole number of bytes, 1 or more', async () => {
      for (const maxMessageBytes of [1, 4096, 64 * 1024 * 1024]) {
        await McpClient.connectStdio({ command: 'srv', maxMessageBytes }).close();
        await McpClient.connectHttp({ url: 'http://127.0.0.1:9/mcp', maxMessageBytes }).close();
      }
    });
  });
});
