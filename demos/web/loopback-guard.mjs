// What the web demo's server refuses before it reads a request's body.
//
// A server on 127.0.0.1 is still reachable from any page the user opens: a
// foreign page can POST to it (the browser sends a "simple" request without
// asking first), and a page whose name an attacker re-points at 127.0.0.1
// (DNS rebinding) is, to the browser, same-origin with it. The Streamable
// HTTP spec asks servers to check Origin for this; the Host check is what
// catches rebinding, where a same-origin GET carries no Origin at all.

// The one media type this server's endpoints take. A page cannot send it to
// another origin without a preflight, which this server never grants (it sends
// no CORS headers); the types a page can send so (text/plain, the two form
// encodings) are refused.
const JSON_TYPE = 'application/json';

/**
 * A check for the requests of a server listening on 127.0.0.1 at `port`.
 * Host must name that server by a loopback name (`127.0.0.1`, `localhost`,
 * `[::1]`) and its port; Origin, when present, must be one of those same
 * addresses over http; a POST (every POST this server takes is JSON-RPC)
 * must be JSON.
 *
 * @param {number} port the port the server listens on
 * @returns {(req: import('node:http').IncomingMessage) => { status: 403 | 415, reason: string } | undefined}
 *   the refusal for a request, or undefined when it may be served
 */
export function loopbackGuard(port) {
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  // Port 80 is the default, which browsers leave out of Host and Origin.
  const hosts = new Set(names.flatMap((name) => (port === 80 ? [name, `${name}:80`] : [`${name}:${port}`])));
  const origins = new Set([...hosts].map((host) => `http://${host}`));
  return (req) => {
    const host = req.headers.host?.toLowerCase();
    if (host === undefined || !hosts.has(host)) return { status: 403, reason: 'the Host header does not name this server' };
    // Duplicate Origin headers reach here joined by a comma, which matches nothing.
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin.toLowerCase())) return { status: 403, reason: 'the request comes from another origin' };
    if (req.method === 'POST' && req.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase() !== JSON_TYPE) {
      return { status: 415, reason: `a POST must be ${JSON_TYPE}` };
    }
    return undefined;
  };
}
