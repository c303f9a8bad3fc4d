// The attribute names of the OpenTelemetry semantic conventions for MCP
// (gen-ai/mcp.md, Development status) that a client span carries, and the
// reading of a request into them.
import type { Attributes } from '@opentelemetry/api';
import type { JsonRpcRequest } from '../../protocol/jsonrpc.js';

/** Attribute names, as the conventions spell them. */
export const MCP = {
  method: 'mcp.method.name',
  protocolVersion: 'mcp.protocol.version',
  sessionId: 'mcp.session.id',
  resourceUri: 'mcp.resource.uri',
  requestId: 'jsonrpc.request.id',
  statusCode: 'rpc.response.status_code',
  errorType: 'error.type',
  operation: 'gen_ai.operation.name',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  transport: 'network.transport',
  serverAddress: 'server.address',
  serverPort: 'server.port',
} as const;

/** The internal span of one `executeToolCalls` batch: no convention names it. */
export const BATCH_SPAN = 'execute_tool_calls';

/** Its attributes: how many calls the model made, and how many were answered `is_error`. */
export const BATCH = {
  count: 'rxmcp.tool_calls.count',
  failed: 'rxmcp.tool_calls.failed',
} as const;

/** The metric of request durations, in seconds. */
export const OPERATION_DURATION = 'mcp.client.operation.duration';

/** The bucket boundaries the conventions advise for it. */
export const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

const RESOURCE_METHODS = ['resources/read', 'resources/subscribe', 'resources/unsubscribe'];

// Content is the user's to opt into, and the server's result is bounded before it reaches their telemetry.
const MAX_CONTENT_CHARS = 16_384;

/** Where the server is: the attributes every span of one client shares. */
export interface PeerAttributes {
  transport: 'pipe' | 'tcp' | undefined;
  address: string | undefined;
  port: number | undefined;
}

/**
 * The span name (`{mcp.method.name} {target}`, the target being the tool or
 * prompt name) and the attributes of the low-cardinality kind, which the
 * duration is recorded under too. A name that is not a string (a caller's
 * mistake the server will refuse) is no target.
 */
export function describeRequest(request: JsonRpcRequest, protocolVersion: string | undefined, peer: PeerAttributes): { name: string; attributes: Attributes } {
  const { method, params } = request;
  const attributes: Attributes = { [MCP.method]: method };
  let name = method;
  const target = params?.name;
  if (method === 'tools/call' && typeof target === 'string') {
    name = `${method} ${target}`;
    attributes[MCP.toolName] = target;
    attributes[MCP.operation] = 'execute_tool';
  } else if (method === 'prompts/get' && typeof target === 'string') {
    name = `${method} ${target}`;
    attributes[MCP.promptName] = target;
  } else if (RESOURCE_METHODS.includes(method) && typeof params?.uri === 'string') {
    attributes[MCP.resourceUri] = params.uri;
  }
  if (protocolVersion !== undefined) attributes[MCP.protocolVersion] = protocolVersion;
  if (peer.transport !== undefined) attributes[MCP.transport] = peer.transport;
  if (peer.address !== undefined) attributes[MCP.serverAddress] = peer.address;
  if (peer.port !== undefined) attributes[MCP.serverPort] = peer.port;
  return { name, attributes };
}

/** A tool call's arguments or result as a span attribute: JSON, cut to a bound. */
export function contentOf(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? '';
  } catch {
    return '[not JSON]';
  }
  return text.length > MAX_CONTENT_CHARS ? `${text.slice(0, MAX_CONTENT_CHARS)}…` : text;
}
