import { rxmcp } from '../support/cli.js';
import { modernServer } from '../support/servers.js';
import { serverEverythingSse, type SsePeer } from '../support/sse-peers.js';

// The built CLI against a server that serves only HTTP+SSE (server-everything
// in its sse mode), given nothing but the URL.

jest.setTimeout(30000);

describe('rxmcp against an HTTP+SSE server', () => {
  let server: SsePeer;
  let url: string;
  beforeAll(async () => {
    server = await serverEverythingSse();
    url = `${server.origin}/sse`;
  }, 30000);
  afterAll(() => server?.stop());

  it('describes it, naming the wire, in text and in JSON', async () => {
    const text = await rxmcp(['--url', url, 'describe']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^era: legacy \(.+\)\nwire: sse$/m);
    const json = await rxmcp(['--url', url, '--json', 'describe']);
    expect(JSON.parse(json.stdout)).toMatchObject({ era: 'legacy', wire: 'sse', serverInfo: { name: 'mcp-servers/everything' } });
  });

  it('calls a tool', async () => {
    const run = await rxmcp(['--url', url, 'call', 'get-sum', '--arg', 'a=2', '--arg', 'b=40']);
    expect(run).toMatchObject({ code: 0, stdout: expect.stringContaining('42') });
  });

  it('reaches it with --http-transport sse, and not with --http-transport streamable-http', async () => {
    const pinned = await rxmcp(['--url', url, '--http-transport', 'sse', 'call', 'echo', '--arg', 'message=pinned']);
    expect(pinned).toMatchObject({ code: 0, stdout: expect.stringContaining('pinned') });
    const modernOnly = await rxmcp(['--url', url, '--http-transport', 'streamable-http', 'describe']);
    expect(modernOnly.code).toBe(3);
    expect(modernOnly.stderr).toContain('404');
  });
});

describe('rxmcp describe over stdio', () => {
  it('names the wire', async () => {
    const run = await rxmcp(['describe', '--', modernServer.command, ...modernServer.args]);
    expect(run.stdout).toMatch(/^wire: stdio$/m);
  });
});

describe('rxmcp --http-transport', () => {
  it('is in the help', async () => {
    expect((await rxmcp(['--help'])).stdout).toContain('--http-transport');
  });

  it.each([
    [['--url', 'http://127.0.0.1:1/sse', '--http-transport', 'carrier-pigeon', 'describe'], '--http-transport wants one of auto, streamable-http, sse, got "carrier-pigeon"'],
    [['--http-transport', 'sse', 'describe', '--', modernServer.command, ...modernServer.args], '--http-transport goes with --url'],
  ])('exits 2 on a usage mistake: %j', async (args, message) => {
    const run = await rxmcp(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });
});
