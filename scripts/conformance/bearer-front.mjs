// The suite cannot send a header, and `rxmcp serve --http` wants a bearer
// token on every request. This front, on 127.0.0.1, passes each request on
// to the gateway as it came (method, path, headers, body, streamed answers),
// with the token added. A Host or Origin that names the front by a loopback
// name is rewritten to name the gateway, on its port; any other is passed on
// as it came, so the gateway's own DNS-rebinding check still sees it.
import { createServer, request } from 'node:http';

/** Starts a front for `target` (the gateway's URL) that adds `Authorization: Bearer token`; resolves with its URL and `close()`. */
export async function bearerFront(target, token) {
  const to = new URL(target);
  let own = new Set();
  const server = createServer((incoming, outgoing) => {
    const headers = { ...incoming.headers, authorization: `Bearer ${token}` };
    if (own.has(headers.host)) headers.host = headers.host.replace(/:\d+$/, `:${to.port}`);
    if (typeof headers.origin === 'string' && own.has(headers.origin.replace(/^http:\/\//, ''))) headers.origin = headers.origin.replace(/:\d+$/, `:${to.port}`);
    const forward = request({ host: to.hostname, port: to.port, path: incoming.url, method: incoming.method, headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forward.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    // A client that hangs up ends the stream it held open at the gateway too.
    outgoing.on('close', () => forward.destroy());
    incoming.pipe(forward);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  own = new Set(['127.0.0.1', 'localhost', '[::1]'].map((name) => `${name}:${port}`));
  return {
    url: `http://127.0.0.1:${server.address().port}${to.pathname}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
