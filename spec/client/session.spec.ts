import { firstValueFrom } from 'rxjs';
import {
  McpCancelledError,
  McpClient,
  McpServerGoneError,
  McpTransportClosedError,
  McpUnsupportedVersionError,
} from '../../src/index.js';
import { FakeTransport } from 'rxmcp/testing';

const discovered = (supportedVersions: string[]) => ({
  result: {
    resultType: 'complete',
    supportedVersions,
    capabilities: { tools: {} },
    instructions: 'be nice',
    ttlMs: 0,
    cacheScope: 'private',
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'scripted', version: '9' } },
  },
});

const initialized = (protocolVersion = '2025-11-25') => ({
  result: { protocolVersion, capabilities: { prompts: {} }, serverInfo: { name: 'old-timer', version: '1' } },
});

const unsupported = (supported: string[]) => ({
  error: { code: -32022, message: 'Unsupported protocol version', data: { supported, requested: 'x' } },
});

function connect(transport: FakeTransport, options: Record<string, unknown> = {}): McpClient {
  return new McpClient({ transport, probeTimeoutMs: 200, requestTimeoutMs: 2000, ...options });
}

const versionOf = (request: { params?: Record<string, unknown> }) =>
  (request.params?._meta as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/protocolVersion'];

function notifications(transport: FakeTransport): string[] {
  return transport.sent.filter((m) => 'method' in m && !('id' in m)).map((m) => (m as { method: string }).method);
}

describe('the era probe', () => {
  it('goes modern at the version both sides speak when discover overlaps', async () => {
    const transport = new FakeTransport().on('server/discover', discovered(['2099-01-01', '2026-07-28']));
    const description = await firstValueFrom(connect(transport).describe());
    expect(description).toEqual({
      era: 'modern',
      protocolVersion: '2026-07-28',
      supportedVersions: ['2099-01-01', '2026-07-28'],
      serverInfo: { name: 'scripted', version: '9' },
      capabilities: { tools: {} },
      instructions: 'be nice',
    });
    expect(transport.requests('initialize')).toHaveLength(0);
  });

  it('prefers the client\'s order over the server\'s', async () => {
    const transport = new FakeTransport().on('server/discover', discovered(['2026-07-28', '2027-03-01']));
    const mcp = connect(transport, { protocolVersions: ['2027-03-01', '2026-07-28'] });
    expect((await firstValueFrom(mcp.describe())).protocolVersion).toBe('2027-03-01');
  });

  it('stamps the probe with the modern _meta keys', async () => {
    const transport = new FakeTransport().on('server/discover', discovered(['2026-07-28']));
    await firstValueFrom(connect(transport, { clientName: 'probe-test', clientVersion: '4.5.6' }).describe());
    expect(transport.requests('server/discover')[0]?.params?._meta).toEqual({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'probe-test', version: '4.5.6' },
      'io.modelcontextprotocol/clientCapabilities': {},
    });
  });

  it.each([
    ['supportedVersions has no overlap', discovered(['2099-01-01'])],
    ['supportedVersions is empty', discovered([])],
    ['discover is an unknown method (-32601)', { error: { code: -32601, message: 'Method not found' } }],
    ['the answer is a parse error (-32700)', { error: { code: -32700, message: 'Parse error' } }],
    ['the answer is invalid params (-32602)', { error: { code: -32602, message: 'Invalid params' } }],
    ['the reply is not a DiscoverResult', { result: { hello: 'world' } }],
  ])('falls back to the handshake when %s', async (_case, reply) => {
    const transport = new FakeTransport().on('server/discover', reply).on('initialize', initialized());
    const description = await firstValueFrom(connect(transport).describe());
    expect(description).toEqual({
      era: 'legacy',
      protocolVersion: '2025-11-25',
      supportedVersions: [],
      serverInfo: { name: 'old-timer', version: '1' },
      capabilities: { prompts: {} },
      instructions: undefined,
    });
    expect(transport.requests('initialize')[0]?.params).toEqual({
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'rxmcp', version: expect.any(String) },
    });
    expect(notifications(transport)).toEqual(['notifications/initialized']);
  });

  it('falls back to the handshake when discover gets no answer within probeTimeoutMs', async () => {
    const transport = new FakeTransport().on('server/discover', 'silence').on('initialize', initialized());
    const started = Date.now();
    expect((await firstValueFrom(connect(transport, { probeTimeoutMs: 50 }).describe())).era).toBe('legacy');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('retries discover at another version of ours that a -32022 names', async () => {
    const transport = new FakeTransport().on('server/discover', (request) =>
      request.params?._meta && (request.params._meta as Record<string, unknown>)['io.modelcontextprotocol/protocolVersion'] === '2027-03-01'
        ? unsupported(['2026-07-28', '2025-11-25'])
        : discovered(['2026-07-28']),
    );
    const description = await firstValueFrom(connect(transport, { protocolVersions: ['2027-03-01', '2026-07-28'] }).describe());
    expect(description.era).toBe('modern');
    expect(description.protocolVersion).toBe('2026-07-28');
    expect(transport.requests('server/discover')).toHaveLength(2);
    expect(transport.requests('initialize')).toHaveLength(0);
  });

  it('goes to the handshake when a -32022 names only legacy versions', async () => {
    const transport = new FakeTransport().on('server/discover', unsupported(['2025-11-25'])).on('initialize', initialized());
    expect((await firstValueFrom(connect(transport).describe())).era).toBe('legacy');
  });

  it('raises McpUnsupportedVersionError when a -32022 names nothing usable', async () => {
    const transport = new FakeTransport().on('server/discover', unsupported(['2099-01-01']));
    const failure = firstValueFrom(connect(transport).describe());
    await expect(failure).rejects.toBeInstanceOf(McpUnsupportedVersionError);
    await expect(failure).rejects.toMatchObject({ supported: ['2099-01-01'], requested: ['2026-07-28'] });
    expect(transport.requests('initialize')).toHaveLength(0);
  });

  it('retries once at the same version when a -32022 lists the version it refused', async () => {
    const transport = new FakeTransport().on('server/discover', (_request, previous) =>
      previous === 0 ? unsupported(['2026-07-28']) : discovered(['2026-07-28']),
    );
    const description = await firstValueFrom(connect(transport).describe());
    expect(description).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
    expect(transport.requests('server/discover').map(versionOf)).toEqual(['2026-07-28', '2026-07-28']);
    expect(transport.requests('initialize')).toHaveLength(0);
  });

  it('gives up after that one retry when the server keeps refusing the version it lists', async () => {
    const transport = new FakeTransport().on('server/discover', unsupported(['2026-07-28']));
    const failure = firstValueFrom(connect(transport).describe());
    await expect(failure).rejects.toBeInstanceOf(McpUnsupportedVersionError);
    await expect(failure).rejects.toMatchObject({ supported: ['2026-07-28'], requested: ['2026-07-28'] });
    expect(transport.requests('server/discover')).toHaveLength(2);
  });

  it('tries every common version before repeating one, and repeats at most once', async () => {
    const transport = new FakeTransport().on('server/discover', unsupported(['2027-03-01', '2026-07-28']));
    const mcp = connect(transport, { protocolVersions: ['2027-03-01', '2026-07-28'] });
    await expect(firstValueFrom(mcp.describe())).rejects.toBeInstanceOf(McpUnsupportedVersionError);
    expect(transport.requests('server/discover').map(versionOf)).toEqual(['2027-03-01', '2026-07-28', '2027-03-01']);
  });

  it.each([
    ['-32020 HeaderMismatch', -32020],
    ['-32021 MissingRequiredClientCapability', -32021],
  ])('goes modern without details on %s', async (_case, code) => {
    const transport = new FakeTransport().on('server/discover', { error: { code, message: 'modern says no' } });
    expect(await firstValueFrom(connect(transport).describe())).toEqual({
      era: 'modern',
      protocolVersion: '2026-07-28',
      supportedVersions: [],
      serverInfo: undefined,
      capabilities: {},
      instructions: undefined,
    });
    expect(transport.requests('initialize')).toHaveLength(0);
  });

  it('raises a dead wire instead of reading it as legacy', async () => {
    const transport = new FakeTransport().on('server/discover', 'silence');
    const mcp = connect(transport);
    const failure = firstValueFrom(mcp.describe());
    setTimeout(() => transport.die(new McpServerGoneError(127, null, 'node: not found')), 5);
    await expect(failure).rejects.toBeInstanceOf(McpServerGoneError);
    expect(transport.requests('initialize')).toHaveLength(0);
  });

  it('raises a connection closed during the probe', async () => {
    const transport = new FakeTransport().on('server/discover', 'silence');
    const mcp = connect(transport);
    const failure = firstValueFrom(mcp.describe());
    setTimeout(() => void mcp.close(), 5);
    await expect(failure).rejects.toBeInstanceOf(McpTransportClosedError);
    expect(transport.requests('initialize')).toHaveLength(0);
  });

  it('raises a cancelled caller, and probes afresh for the next one', async () => {
    const transport = new FakeTransport().on('server/discover', 'silence');
    const mcp = connect(transport, { probeTimeoutMs: 5000 });
    const controller = new AbortController();
    const failure = firstValueFrom(mcp.describe({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 5);
    await expect(failure).rejects.toBeInstanceOf(McpCancelledError);
    expect(transport.requests('initialize')).toHaveLength(0);
    expect(transport.cancelled).toEqual([transport.requests('server/discover')[0]?.id]);

    transport.on('server/discover', discovered(['2026-07-28']));
    expect((await firstValueFrom(mcp.describe())).era).toBe('modern');
    expect(transport.requests('server/discover')).toHaveLength(2);
  });

  it('runs one probe for a burst of first calls (and one list for identical list calls)', async () => {
    const transport = new FakeTransport()
      .on('server/discover', discovered(['2026-07-28']))
      .on('tools/list', { result: { tools: [] } });
    const mcp = connect(transport);
    await Promise.all([
      firstValueFrom(mcp.describe()),
      firstValueFrom(mcp.listTools()),
      firstValueFrom(mcp.listTools()),
      firstValueFrom(mcp.describe()),
    ]);
    expect(transport.requests('server/discover')).toHaveLength(1);
    expect(transport.requests('tools/list')).toHaveLength(1);
  });

  it('keeps the verdict: later calls, one after another, do not probe again', async () => {
    const transport = new FakeTransport()
      .on('server/discover', discovered(['2026-07-28']))
      .on('tools/call', { result: { content: [] } });
    const mcp = connect(transport);
    for (let i = 0; i < 3; i++) await firstValueFrom(mcp.callTool('t'));
    await firstValueFrom(mcp.describe());
    expect(transport.requests('server/discover')).toHaveLength(1);
    expect(transport.requests('tools/call')).toHaveLength(3);
  });

  it('refuses a handshake answered with a version it does not speak', async () => {
    const transport = new FakeTransport().on('initialize', initialized('2099-01-01'));
    const failure = firstValueFrom(connect(transport).describe());
    await expect(failure).rejects.toBeInstanceOf(McpUnsupportedVersionError);
    await expect(failure).rejects.toMatchObject({ supported: ['2099-01-01'] });
    expect(notifications(transport)).not.toContain('notifications/initialized');
  });

  it('accepts an older legacy version from the handshake', async () => {
    const transport = new FakeTransport().on('initialize', initialized('2025-06-18'));
    expect((await firstValueFrom(connect(transport).describe())).protocolVersion).toBe('2025-06-18');
  });
});
