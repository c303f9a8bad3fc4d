// The second origin of the web demo: the MCP Apps sandbox proxy page, served
// on its own port so that a view runs on an origin other than the page's
// (127.0.0.1:A and 127.0.0.1:B are different origins to the browser) and can
// reach neither the page's DOM nor its storage nor, through it, its servers.
import { createServer } from 'node:http';
import { loopbackGuard } from './loopback-guard.mjs';

/** The path the sandbox proxy page is served at. */
export const SANDBOX_PATH = '/sandbox.html';

/**
 * Serves `html` at {@link SANDBOX_PATH} on 127.0.0.1, behind the same
 * loopback guard as the page, and framable only by the page's own origins.
 *
 * @param {{ port?: number, pagePort: number, html: string, log: (line: string) => void }} options
 * @returns {Promise<import('node:http').Server>} listening
 */
export async function serveSandbox({ port = 0, pagePort, html, log }) {
  // Only the demo's page may frame the proxy (under either of its names,
  // which is why the proxy itself is not pinned to one host origin): a
  // foreign page framing it could otherwise hand it a view and speak the
  // host's half of the protocol. ([::1] is left out: the servers listen on
  // 127.0.0.1 alone, and CSP has no syntax for an IPv6 host.) The view's
  // own frame, an about:srcdoc document, is not checked against it.
  const ancestors = ['127.0.0.1', 'localhost'].map((name) => `http://${name}:${pagePort}`).join(' ');
  let refusal;
  const server = createServer((req, res) => {
    const refused = refusal(req);
    if (refused) {
      log(`sandbox refused ${refused.status}: ${refused.reason}`);
      res.writeHead(refused.status, { Connection: 'close' }).end();
      return;
    }
    if (req.method === 'GET' && req.url === SANDBOX_PATH) {
      res
        .writeHead(200, {
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Security-Policy': `frame-ancestors ${ancestors}`,
          'Cache-Control': 'no-store',
        })
        .end(html);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  refusal = loopbackGuard(server.address().port);
  return server;
}
