/** What the inspector's server found when it tried a URL the page could not connect to. */
export type ProbeVerdict =
  /** Nothing accepts connections there (ECONNREFUSED). */
  | { kind: 'refused' }
  /** The name does not resolve, or the connection failed or timed out otherwise (`code` as Node names it). */
  | { kind: 'unreachable'; code: string }
  /** It answers 401 with a `WWW-Authenticate` challenge. */
  | { kind: 'sign-in'; status: number }
  /** It answers, but not as an MCP endpoint does: a status and media type that are neither JSON nor an event stream. */
  | { kind: 'not-mcp'; status: number; contentType: string }
  /** It answers as an MCP endpoint, but not to a page of `origin` (no CORS headers that let it). */
  | { kind: 'cors'; status: number }
  /** It answers as an MCP endpoint, and lets the page's origin call it: what failed was something else. */
  | { kind: 'ok'; status: number };

/** What the page asks to be probed. */
export interface ProbeRequest {
  url: string;
  transport: 'auto' | 'streamable-http' | 'sse';
  headers: Record<string, string>;
}

/** How long a probe waits for an answer's head. */
const PROBE_TIMEOUT_MS = 3000;
/** The longest media type reported back (a server writes what it likes there). */
const MAX_TYPE_LENGTH = 100;

// A JSON-RPC ping: every MCP endpoint that takes POSTs answers it with JSON
// (a result or an error), and it changes nothing on the server.
const PING = JSON.stringify({ jsonrpc: '2.0', id: 'rxmcp-inspect-probe', method: 'ping' });

/**
 * Tries `url` from Node, as the page's browser would have, to tell apart
 * the failures a browser reports alike ("Failed to fetch"): nothing
 * listening, not an MCP endpoint, a sign-in wanted, or CORS refusing the
 * page's `origin`. Only the answer's status and headers are looked at; its
 * body is never read, and nothing of it but the verdict goes back to the
 * page, so the probe cannot be used to read what another server says.
 * Redirects are not followed.
 */
export async function probeConnection(request: ProbeRequest, origin: string): Promise<ProbeVerdict> {
  const first = await attempt(request, origin, request.transport === 'sse' ? 'GET' : 'POST');
  if ('kind' in first) return first;
  let response = first;
  // HTTP+SSE's endpoint is an event stream to GET; a POST there is turned away.
  if (request.transport === 'auto' && response.status >= 400 && response.status !== 401 && !mcpLike(response)) {
    const again = await attempt(request, origin, 'GET');
    if ('kind' in again) return again;
    response = again;
  }
  const { status } = response;
  if (status === 401 && response.headers.has('www-authenticate')) return { kind: 'sign-in', status };
  if (!mcpLike(response)) return { kind: 'not-mcp', status, contentType: (response.headers.get('content-type') ?? 'none').slice(0, MAX_TYPE_LENGTH) };
  if (!allows(response, origin) || !(await preflightAllows(request, origin))) return { kind: 'cors', status };
  return { kind: 'ok', status };
}

async function attempt(request: ProbeRequest, origin: string, method: 'GET' | 'POST'): Promise<Response | ProbeVerdict> {
  const headers = new Headers(request.headers);
  headers.set('origin', origin);
  headers.set('accept', method === 'POST' ? 'application/json, text/event-stream' : 'text/event-stream');
  if (method === 'POST') headers.set('content-type', 'application/json');
  try {
    const response = await fetch(request.url, { method, headers, redirect: 'manual', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS), ...(method === 'POST' ? { body: PING } : {}) });
    // The head is all a verdict needs; an event stream would otherwise stay open.
    await response.body?.cancel().catch(() => undefined);
    return response;
  } catch (error) {
    return failure(error);
  }
}

// A verdict for a fetch that got no answer at all.
function failure(error: unknown): ProbeVerdict {
  const cause = (error as { cause?: { code?: unknown; errors?: Array<{ code?: unknown }> } }).cause;
  // Node tries every address a name has (127.0.0.1, ::1) and reports them together.
  const codes = [cause?.code, ...(cause?.errors ?? []).map((one) => one.code)].filter((code): code is string => typeof code === 'string');
  if (codes.length > 0 && codes.every((code) => code === 'ECONNREFUSED')) return { kind: 'refused' };
  if ((error as { name?: unknown }).name === 'TimeoutError') return { kind: 'unreachable', code: 'timeout' };
  return { kind: 'unreachable', code: (codes[0] ?? 'unknown').slice(0, 40) };
}

// What an MCP endpoint answers with: JSON (a result, or a JSON-RPC error), an event stream, or 202 with nothing.
function mcpLike(response: Response): boolean {
  if (response.status === 202) return true;
  const type = (response.headers.get('content-type') ?? '').split(';', 1)[0]?.trim().toLowerCase();
  return type === 'application/json' || type === 'text/event-stream';
}

function allows(response: Response, origin: string): boolean {
  const allowed = response.headers.get('access-control-allow-origin');
  return allowed === '*' || allowed === origin;
}

// The browser asks first before a POST with JSON and MCP's headers.
async function preflightAllows(request: ProbeRequest, origin: string): Promise<boolean> {
  if (request.transport === 'sse') return true;
  const asked = ['content-type', 'mcp-protocol-version', ...Object.keys(request.headers).map((name) => name.toLowerCase())].join(', ');
  try {
    const response = await fetch(request.url, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': asked },
      redirect: 'manual',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    await response.body?.cancel().catch(() => undefined);
    return response.ok && allows(response, origin);
  } catch {
    return false;
  }
}
