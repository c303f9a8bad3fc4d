import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';

// Off Node, rxmcp sends HTTP with the platform's own fetch: every platform it
// supports (browsers, Deno, Bun, workers) has one, so it carries no polyfill.
// A program that is not Node is played here by Node with its process hidden,
// running the built package as a user's program would.

const root = join(__dirname, '..', '..');
let server: RunningServer;

beforeAll(async () => {
  server = await startHttpServer('http-server.mjs');
});

afterAll(() => server.stop());

function offNode(setup: string): string {
  // No global process, as in a browser: rxmcp tells Node by it.
  const script = `
    const { firstValueFrom } = await import('rxjs');
    const { McpClient } = await import('rxmcp');
    Object.defineProperty(globalThis, 'process', { value: undefined, configurable: true });
    ${setup}
    const mcp = McpClient.connectHttp({ url: ${JSON.stringify(server.url)} });
    try {
      const tools = await firstValueFrom(mcp.listTools());
      console.log(JSON.stringify({ tools: tools.length, fetched: globalThis.fetched }));
    } catch (error) {
      console.log(JSON.stringify({ error: error.name + ': ' + error.message }));
    }
    await mcp.close();`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 20_000 });
}

describe('HTTP off Node', () => {
  it("sends with the platform's global fetch, called as the platform's own", () => {
    const setup = `
      const own = globalThis.fetch;
      globalThis.fetched = 0;
      globalThis.fetch = function (url, init) {
        if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation');
        globalThis.fetched++;
        return own(url, init);
      };`;
    const outcome = JSON.parse(offNode(setup)) as { tools: number; fetched: number };
    expect(outcome.tools).toBeGreaterThan(0);
    expect(outcome.fetched).toBeGreaterThan(0);
  });

  it('fails a call with one sentence saying to pass the fetch option where the platform has no fetch', () => {
    expect(JSON.parse(offNode('delete globalThis.fetch;'))).toEqual({ error: 'McpClientError: this platform has no global fetch: pass the fetch option (connectHttp({ url, fetch }))' });
  });
});
