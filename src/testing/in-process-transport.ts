import { type Observable, type Observer, Subject } from 'rxjs';
import { McpClientError } from '../errors/mcp-client-error.js';
import { cancelledNotification } from '../protocol/request.js';
import type { JsonRpcMessage, RequestId } from '../protocol/jsonrpc.js';
import type { Transport } from '../transport/transport.js';

/** The part of the official server SDK's transport interface this double plays. */
interface ServerSide {
  start(): Promise<void>;
  send(message: unknown): Promise<void>;
  close(): Promise<void>;
  onmessage?: (message: unknown) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
}

/**
 * Puts an `McpClient` in front of a live server in this process, with no
 * wire: a factory of the official SDK's `McpServer` (v2,
 * `@modelcontextprotocol/server`, an optional peer dependency) served through
 * the SDK's `serveStdio` entry, which selects the era from the client's
 * opening: `server/discover` (modern) or `initialize` (legacy). Messages are
 * handed over asynchronously, as a wire would.
 *
 * @example
 * ```ts
 * const transport = new InProcessTransport({ server: () => buildMyServer() });
 * const mcp = new McpClient({ transport });
 * ```
 */
export class InProcessTransport implements Transport {
  private readonly subject = new Subject<JsonRpcMessage>();
  private readonly factory: () => unknown;
  private server: Promise<ServerSide | undefined> | undefined;
  private handle: { close(): Promise<void> } | undefined;
  private closed = false;

  readonly inbound: Observable<JsonRpcMessage> = this.subject.asObservable();
  readonly outbound: Observer<JsonRpcMessage> = {
    next: (message) => void this.deliver(message),
    error: () => undefined,
    complete: () => undefined,
  };

  constructor(options: { server: () => unknown }) {
    if (typeof options?.server !== 'function') throw new McpClientError('option server must be a function that returns an McpServer');
    this.factory = options.server;
  }

  cancel(id: RequestId, reason?: string): void {
    this.outbound.next(cancelledNotification(id, reason));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle?.close();
    this.subject.complete();
  }

  private async deliver(message: JsonRpcMessage): Promise<void> {
    if (this.closed) return;
    this.server ??= this.start();
    const server = await this.server;
    // A tick apart, as over a wire: nothing the client sends is answered synchronously.
    setTimeout(() => server?.onmessage?.(structuredClone(message)), 0);
  }

  private async start(): Promise<ServerSide | undefined> {
    let serveStdio: (factory: () => unknown, options: { transport: ServerSide }) => { close(): Promise<void> };
    try {
      ({ serveStdio } = (await import('@modelcontextprotocol/server/stdio')) as unknown as { serveStdio: typeof serveStdio });
    } catch (error) {
      this.subject.error(new McpClientError('InProcessTransport needs the @modelcontextprotocol/server package (v2): npm install --save-dev @modelcontextprotocol/server', { cause: error }));
      return undefined;
    }
    const side: ServerSide = {
      start: async () => undefined,
      send: async (message) => {
        if (!this.closed) setTimeout(() => this.subject.next(structuredClone(message) as JsonRpcMessage), 0);
      },
      close: async () => undefined,
    };
    this.handle = serveStdio(this.factory, { transport: side });
    return side;
  }
}
