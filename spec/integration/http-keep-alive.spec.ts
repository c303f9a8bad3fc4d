import http from 'node:http';
import https from 'node:https';
import { firstValueFrom } from 'rxjs';
import { McpClient } from '../../src/index.js';
import { type RunningServer, startHttpServer } from '../support/http-servers.js';

// What an idle connection keeps (bench/scale.mjs, "idle"): one kept-alive
// agent, for the scheme of its URL. Redirects never leave the URL's origin,
// so the other scheme's agent would only sit there, with its listeners, for
// as long as the connection lives.
describe('keep-alive over Streamable HTTP', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startHttpServer('http-server.mjs');
  });
  afterAll(() => server.stop());
  afterEach(() => jest.restoreAllMocks());

  it('makes one agent per connection, for http: only, and reuses it for every request', async () => {
    const plain = jest.spyOn(http, 'Agent');
    const secure = jest.spyOn(https, 'Agent');
    const mcp = McpClient.connectHttp({ url: server.url });
    try {
      for (let n = 0; n < 3; n++) expect((await firstValueFrom(mcp.callTool('add', { a: n, b: 1 }))).structuredContent).toEqual({ sum: n + 1 });
      expect(plain).toHaveBeenCalledTimes(1);
      expect(secure).not.toHaveBeenCalled();
    } finally {
      await mcp.close();
    }
  });
});
