import { z } from 'zod';

/** A JSON-RPC request id. MCP forbids `null`. */
export type RequestId = string | number;

/** A request: from the client, or (legacy era) from the server. */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

/** A one-way message. */
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}

/** A successful answer. */
export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: Record<string, unknown>;
}

/** A failed answer; `id` is absent when the server could not read the request's. */
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id?: RequestId | null;
  error: { code: number; message: string; data?: unknown };
}

/** Anything that may travel over a transport. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResultResponse | JsonRpcErrorResponse;

/** An answer to a request. */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;

const id = z.union([z.string(), z.number()]);
const params = z.record(z.string(), z.unknown()).optional();

const request = z.object({ jsonrpc: z.literal('2.0'), id, method: z.string(), params });
const notification = z.object({ jsonrpc: z.literal('2.0'), method: z.string(), params });
const result = z.object({ jsonrpc: z.literal('2.0'), id, result: z.record(z.string(), z.unknown()) });
const error = z.object({
  jsonrpc: z.literal('2.0'),
  id: id.nullish(),
  error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
});

/** What one inbound message turned out to be. */
export type Classified =
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'invalid'; reason: string };

/**
 * Sorts one decoded JSON value into the four kinds of JSON-RPC message, or
 * says why it is none of them.
 */
export function classify(value: unknown): Classified {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'invalid', reason: 'not a JSON object' };
  }
  const record = value as Record<string, unknown>;
  if ('result' in record) return parsed('response', result, value);
  if ('error' in record) return parsed('response', error, value);
  if ('method' in record) {
    return 'id' in record && record.id !== undefined
      ? parsed('request', request, value)
      : parsed('notification', notification, value);
  }
  return { kind: 'invalid', reason: 'neither a request, a notification nor a response' };
}

function parsed(kind: 'response' | 'notification' | 'request', schema: z.ZodType, value: unknown): Classified {
  const outcome = schema.safeParse(value);
  if (outcome.success) return { kind, message: outcome.data } as Classified;
  return { kind: 'invalid', reason: `malformed ${kind}: ${outcome.error.issues.map((i) => i.message).join('; ')}` };
}

/** Decodes one line of text into a classified message; bad JSON is `invalid`. */
export function decodeLine(line: string): Classified {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'invalid', reason: 'not JSON' };
  }
  return classify(value);
}

/** True for an answer that carries an error. */
export function isErrorResponse(message: JsonRpcResponse): message is JsonRpcErrorResponse {
  return 'error' in message;
}
