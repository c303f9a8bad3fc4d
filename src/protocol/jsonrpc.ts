import { isObject } from '../util/values.js';

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

/** What one inbound message turned out to be. */
export type Classified =
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'invalid'; reason: string; answers?: RequestId };

/**
 * Sorts one decoded JSON value into the four kinds of JSON-RPC message, or
 * says why it is none of them. Every message passes through here, so the
 * checks are plain structural ones: the envelope only, never the payload.
 */
export function classify(value: unknown): Classified {
  if (!isObject(value)) return invalid('not a JSON object');
  if (value.jsonrpc !== '2.0') return invalid('jsonrpc is not "2.0"');
  const { id } = value;
  if ('result' in value) {
    if (!isId(id)) return invalid('malformed response: its id is not a string or a number');
    if (!isObject(value.result)) return invalid('malformed response: its result is not an object', id);
    return { kind: 'response', message: value as unknown as JsonRpcResultResponse };
  }
  if ('error' in value) {
    if (id !== undefined && id !== null && !isId(id)) return invalid('malformed response: its id is not a string or a number');
    const { error } = value;
    if (!isObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {
      return invalid('malformed response: its error needs an integer code and a message', isId(id) ? id : undefined);
    }
    return { kind: 'response', message: value as unknown as JsonRpcErrorResponse };
  }
  if (typeof value.method === 'string') {
    if (value.params !== undefined && !isObject(value.params)) return invalid(`malformed ${value.method}: its params are not an object`);
    if (id === undefined) return { kind: 'notification', message: value as unknown as JsonRpcNotification };
    if (!isId(id)) return invalid(`malformed ${value.method}: its id is not a string or a number`);
    if (!isEchoableId(id)) return invalid(`malformed ${value.method}: its id cannot be echoed exactly (${ECHOABLE_IDS})`);
    return { kind: 'request', message: value as unknown as JsonRpcRequest };
  }
  return invalid('neither a request, a notification nor a response');
}

// `answers` names the request a malformed answer was meant for, so that its
// call can fail at once rather than wait for an answer that will not come.
function invalid(reason: string, answers?: RequestId): Classified {
  return answers === undefined ? { kind: 'invalid', reason } : { kind: 'invalid', reason, answers };
}

function isId(value: unknown): value is RequestId {
  return typeof value === 'string' || typeof value === 'number';
}

/** The longest string id a request may carry: its answer carries it back. */
const MAX_REQUEST_ID_LENGTH = 1024;

const ECHOABLE_IDS = `a string of at most ${MAX_REQUEST_ID_LENGTH} characters, or an integer within ±(2^53 - 1) other than -0`;

/**
 * True for a request id that the answer can carry back unchanged. The answer
 * is written with `JSON.stringify` from the parsed value, and the text the
 * id came in is gone by then, so only ids whose value decides their text
 * pass: strings (JSON escapes aside, a string is its value) within
 * MAX_REQUEST_ID_LENGTH, and safe integers (MCP's "Requests": an id MUST be
 * a string or an integer). Everything else would go
 * back changed: `1e400` parses to Infinity, written `null`; `9007199254740993`
 * to its neighbour ...992; `-0` to `0`; and a fraction may not round-trip (JSON-RPC
 * says ids SHOULD NOT have one). Such a request is refused unanswered: an
 * answer under another id (or `null`, which MCP forbids) could answer a
 * request the server never meant.
 */
function isEchoableId(id: RequestId): boolean {
  if (typeof id === 'string') return id.length <= MAX_REQUEST_ID_LENGTH;
  return Number.isSafeInteger(id) && !Object.is(id, -0);
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

/** Which of the three kinds a well-formed message is, read as `classify` reads it. */
export function kindOf(message: JsonRpcMessage): 'request' | 'notification' | 'response' {
  if ('result' in message || 'error' in message) return 'response';
  return 'id' in message && message.id !== undefined ? 'request' : 'notification';
}

/** True for the answer (a result or an error) to the request with this id. */
export function isAnswerTo(message: JsonRpcMessage, id: RequestId): message is JsonRpcResponse {
  return kindOf(message) === 'response' && (message as JsonRpcResponse).id === id;
}
