import { type Observable, type Observer, Subject } from 'rxjs';
import { McpServerGoneError } from '../errors/transport-errors.js';
import { type JsonRpcMessage, type JsonRpcRequest, kindOf, type RequestId } from '../protocol/jsonrpc.js';
import type { Transport } from '../transport/transport.js';

/** What a scripted server does with one request. */
export type FakeReply =
  | { result: Record<string, unknown>; delayMs?: number }
  | { error: { code: number; message: string; data?: unknown }; delayMs?: number }
  | 'silence';

/** A script for one method: a fixed reply, or a function of the request and how many of them came before. */
export type FakeScript = FakeReply | ((request: JsonRpcRequest, previous: number) => FakeReply);

/**
 * A transport double for testing code built on `McpClient` without a server:
 * answers come from per-method scripts (values, errors, delays, silence, or
 * `input_required` rounds decided from the request), asynchronously as from
 * a real wire; notifications can be pushed at any time; every message the
 * client sends and every cancellation is recorded; and the wire can die as a
 * server exit would. An unscripted method answers `-32601`.
 *
 * @example
 * ```ts
 * const transport = new FakeTransport()
 *   .on('initialize', { result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'fake', version: '1' } } })
 *   .on('tools/call', { result: { content: [{ type: 'text', text: 'done' }] } });
 * const mcp = new McpClient({ transport });
 * ```
 */
export class FakeTransport implements Transport {
  /** Every message the client sent, in order. */
  readonly sent: JsonRpcMessage[] = [];
  /** The ids of the requests the client abandoned. */
  readonly cancelled: RequestId[] = [];
  /** True once `close()` was called. */
  closed = false;
  private readonly subject = new Subject<JsonRpcMessage>();
  private readonly scripts = new Map<string, FakeScript>();
  private readonly counts = new Map<string, number>();

  readonly inbound: Observable<JsonRpcMessage> = this.subject.asObservable();
  readonly outbound: Observer<JsonRpcMessage> = {
    next: (message) => this.receive(message),
    error: () => undefined,
    complete: () => undefined,
  };

  /** Scripts the answers to `method`. */
  on(method: string, script: FakeScript): this {
    this.scripts.set(method, script);
    return this;
  }

  /** A modern server: answers `server/discover` with a DiscoverResult for 2026-07-28. */
  modern(capabilities: Record<string, unknown> = { tools: {}, resources: {}, prompts: {} }): this {
    return this.on('server/discover', {
      result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fake', version: '1.0.0' } } },
    });
  }

  /** A legacy server: answers `initialize` for 2025-11-25 (and discover with -32601, as an unscripted method). */
  legacy(capabilities: Record<string, unknown> = { tools: {}, resources: {}, prompts: {} }): this {
    return this.on('initialize', { result: { protocolVersion: '2025-11-25', capabilities, serverInfo: { name: 'fake', version: '1.0.0' } } });
  }

  /** Sends a message as the server: a notification, or a request of a legacy server. */
  push(message: JsonRpcMessage): void {
    this.subject.next(message);
  }

  /** Ends the wire as a server exit would: pending and later calls fail with `McpServerGoneError`. */
  exit(exitCode: number | null = 1, stderr = '', signal: string | null = null): void {
    this.subject.error(new McpServerGoneError(exitCode, signal, stderr));
  }

  /** Ends the wire with any error. */
  die(error: Error): void {
    this.subject.error(error);
  }

  /** The requests sent so far for `method`. */
  requests(method: string): JsonRpcRequest[] {
    return this.sent.filter((m): m is JsonRpcRequest => 'method' in m && 'id' in m && m.method === method);
  }

  cancel(id: RequestId): void {
    this.cancelled.push(id);
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.subject.complete();
    }
    return Promise.resolve();
  }

  private receive(message: JsonRpcMessage): void {
    this.sent.push(message);
    if (kindOf(message) !== 'request') return;
    const request = message as JsonRpcRequest;
    const script = this.scripts.get(request.method);
    const previous = this.counts.get(request.method) ?? 0;
    this.counts.set(request.method, previous + 1);
    const reply: FakeReply =
      script === undefined
        ? { error: { code: -32601, message: `Method not found: ${request.method}` } }
        : typeof script === 'function'
          ? script(request, previous)
          : script;
    if (reply === 'silence') return;
    const { delayMs = 1, ...answer } = reply;
    setTimeout(() => {
      if (!this.closed) this.subject.next({ jsonrpc: '2.0', id: request.id, ...answer } as JsonRpcMessage);
    }, delayMs);
  }
}
