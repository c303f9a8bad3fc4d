import type { JsonRpcMessage } from '../../src/protocol/jsonrpc.js';
import type { Transport } from '../../src/transport/transport.js';

/**
 * A real transport with its outbound messages recorded: the methods of what
 * the client sent, in order, to say what never went on the wire, and the
 * messages themselves.
 */
export function spyOn(transport: Transport): { transport: Transport; sent: string[]; messages: JsonRpcMessage[] } {
  const sent: string[] = [];
  const messages: JsonRpcMessage[] = [];
  const outbound = {
    next: (message: JsonRpcMessage) => {
      messages.push(message);
      if ('method' in message && typeof message.method === 'string') sent.push(message.method);
      transport.outbound.next(message);
    },
    error: (error: unknown) => transport.outbound.error(error),
    complete: () => transport.outbound.complete(),
  };
  const spied = new Proxy(transport, {
    get(target, key) {
      if (key === 'outbound') return outbound;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { transport: spied, sent, messages };
}
