import type { ParsedBody } from './node-http.js';
import type { ServerSdk } from './server-sdk.js';

/** How many 2025-era HTTP sessions may be open at once, and how long one may go without a request. */
export const MAX_LEGACY_SESSIONS = 256;
export const LEGACY_IDLE_MS = 30 * 60_000;

interface Session {
  transport: { handleRequest(request: Request, options?: { parsedBody?: unknown }): Promise<Response> };
  server: { close(): Promise<void> };
  idle: ReturnType<typeof setTimeout>;
}

/**
 * The 2025-era HTTP hosts' sessions: one SDK server and sessionful transport
 * each, so the gateway knows what the host declared at `initialize` and can
 * ask it questions and send it logs. Bounded: a further `initialize` past
 * the cap is refused 503 (a session in use is never cut to make room, which
 * would let any caller end everyone else's), and a session with no request
 * for `idleMs` is closed.
 */
export class LegacySessions {
  private readonly sessions = new Map<string, Session>();
  private opening = 0;

  constructor(
    private readonly sdk: ServerSdk,
    private readonly build: () => Promise<{ connect(transport: unknown): Promise<void>; close(): Promise<void> }>,
    private readonly limits = { max: MAX_LEGACY_SESSIONS, idleMs: LEGACY_IDLE_MS },
  ) {}

  /** How many sessions are open. */
  get size(): number {
    return this.sessions.size;
  }

  /** Serves one 2025-era request: in its session, or opening one for an `initialize`; `body`, when given, is its own, parsed. */
  async handle(request: Request, body?: ParsedBody): Promise<Response> {
    const options = body ? { parsedBody: body.json } : undefined;
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const session = this.sessions.get(id);
      if (!session) return jsonError(404, -32001, 'Session not found: it ended, expired, or was never opened here; initialize again');
      session.idle.refresh();
      return session.transport.handleRequest(request, options);
    }
    if (request.method !== 'POST') return jsonError(400, -32000, 'Bad Request: no Mcp-Session-Id; initialize first');
    if (this.sessions.size + this.opening >= this.limits.max) {
      return jsonError(503, -32000, `The gateway has ${this.limits.max} sessions open, its most; try again later or end a session (DELETE)`, { 'retry-after': '60' });
    }
    this.opening++;
    let opened = false;
    const server = await this.build().catch((error: unknown) => {
      this.opening--;
      throw error;
    });
    const transport = new this.sdk.WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (sessionId) => {
        opened = true;
        const idle = setTimeout(() => void this.end(sessionId), this.limits.idleMs);
        idle.unref?.();
        this.sessions.set(sessionId, { transport, server, idle });
      },
      // A DELETE: the transport closes itself (and so its server) once it has answered.
      onsessionclosed: (sessionId) => void this.forget(sessionId),
    });
    transport.onclose = () => {
      const sessionId = transport.sessionId;
      if (sessionId !== undefined) this.forget(sessionId);
    };
    try {
      await server.connect(transport);
      return await transport.handleRequest(request, options);
    } finally {
      this.opening--;
      // A first request that was no initialize opened nothing: its server goes.
      if (!opened) await server.close().catch(() => undefined);
    }
  }

  /** Closes every session. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.sessions.keys()].map((id) => this.end(id)));
  }

  private async end(id: string): Promise<void> {
    const session = this.forget(id);
    await session?.server.close().catch(() => undefined);
  }

  private forget(id: string): Session | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    clearTimeout(session.idle);
    this.sessions.delete(id);
    return session;
  }
}

function jsonError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
