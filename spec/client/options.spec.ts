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
});
