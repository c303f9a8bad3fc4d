import { firstValueFrom } from 'rxjs';
import type { ExecuteOptions, ToolProvider } from '../tools/bridge.js';
import type { McpClient } from '../client/mcp-client.js';
import { toolVisibility } from '../tools/tool-visibility.js';
import type { CallToolResult } from '../protocol/types.js';

/** What a view's `tools/call` came to: a result, or a refusal before anything ran. */
export type ViewCallOutcome = { result: CallToolResult } | { refused: string };

/** Where a view's tool calls go. */
export interface ViewCallRoute {
  /** The view's own server: whose catalogue decides what the view may call. */
  client: McpClient;
  /** The stack the calls run through; default the client itself. */
  provider?: ToolProvider;
  /** The server's tool name as the provider knows it. */
  toolName?: (serverName: string) => string;
}

/**
 * Runs one `tools/call` a view made. Only a tool of the view's own server
 * whose `_meta.ui.visibility` includes "app" (or is absent; an unreadable
 * one admits nobody, as `toolVisibility` reads it) runs; any other
 * name is refused without reaching a provider. Through a provider, the call
 * goes as `caller: 'app'` under the provider's name for it, so a Policy
 * applies to it as to the model's; its answer comes back as a CallToolResult
 * (text content, `isError`, `structuredContent`). Rejects only when the
 * client's own call fails (a JSON-RPC error, a timeout).
 */
export async function runViewToolCall(route: ViewCallRoute, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ViewCallOutcome> {
  const tools = await firstValueFrom(route.client.listTools({ signal }));
  const tool = tools.find((entry) => entry.name === name);
  if (tool === undefined) return { refused: `tool ${JSON.stringify(name)} is not offered by this view's server` };
  if (!toolVisibility(tool).app) return { refused: `tool ${JSON.stringify(name)} is not visible to apps` };
  if (route.provider === undefined) return { result: await firstValueFrom(route.client.callTool(name, args, { signal })) };
  const options: ExecuteOptions = { names: 'real', caller: 'app', appServer: route.client, maxResultChars: Infinity, signal };
  const providerName = route.toolName === undefined ? name : route.toolName(name);
  const [message] = await route.provider.executeToolCalls([{ id: 'app-call', type: 'function', function: { name: providerName, arguments: args } }], options);
  if (message === undefined) return { refused: `the provider gave no answer for ${JSON.stringify(providerName)}` };
  const result: CallToolResult = { content: [{ type: 'text', text: message.content }], isError: message.is_error };
  if (message.structured_content !== undefined) result.structuredContent = message.structured_content;
  return { result };
}
