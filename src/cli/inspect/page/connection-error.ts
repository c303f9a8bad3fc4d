// What the inspector's server found when it tried the URL: the probe's own type (erased from the page's bundle).
import type { ProbeVerdict } from '../connection-probe.js';

export type { ProbeVerdict };

/** A failed connection, told in words a person can act on, with the kind tests and styles key on. */
export interface ConnectionError {
  kind: ProbeVerdict['kind'] | 'unknown';
  text: string;
}

/**
 * Tells why connecting to `url` failed, from the probe's verdict and the
 * client's own error (which, for a browser, is often just "Failed to
 * fetch"). Every value from the server is quoted with `JSON.stringify`.
 */
export function connectionError(url: string, verdict: ProbeVerdict | undefined, error: Error): ConnectionError {
  const at = JSON.stringify(url);
  switch (verdict?.kind) {
    case 'refused':
      return { kind: 'refused', text: `Nothing listening at ${at}: the connection was refused. Is the server running, on that port?` };
    case 'unreachable':
      return { kind: 'unreachable', text: `Could not reach ${at} (${verdict.code}).` };
    case 'sign-in':
      return { kind: 'sign-in', text: `Sign-in needed: ${at} answered ${verdict.status} with a WWW-Authenticate challenge. Add an Authorization header, or sign in with rxmcp login.` };
    case 'not-mcp':
      return {
        kind: 'not-mcp',
        text: `Not an MCP endpoint: ${at} answered ${verdict.status} with ${JSON.stringify(verdict.contentType)}, neither JSON nor an event stream. Check the path (often /mcp, or /sse for HTTP+SSE).`,
      };
    case 'cors':
      return {
        kind: 'cors',
        text: `CORS refused: ${at} answers as an MCP server, but not to this page (${location.origin}): it sends no Access-Control-Allow-Origin for it. Allow this origin on the server, or inspect it over stdio (rxmcp inspect -- command).`,
      };
    default:
      return { kind: 'unknown', text: `Cannot connect to ${at}: ${error.message}` };
  }
}
