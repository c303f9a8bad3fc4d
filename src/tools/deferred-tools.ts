import type { LlmTool, ToolProvider } from './bridge.js';

// Vendor-native tool search (Anthropic's and OpenAI Responses'
// `defer_loading`) declares the whole catalogue at once, each tool marked
// deferred or not, and lets the vendor search it. A `ToolSearch` answers
// that list by this key (its always-loaded tools not deferred); the vendor
// formats, one floor away from the providers, read it through
// `deferrableTools`.

/** Key of the method by which a provider answers its whole catalogue, each tool marked deferred or always loaded. Private to the package. */
export const DEFERRABLE_TOOLS: unique symbol = Symbol('rxmcp.deferrableTools');

/** One tool of a catalogue declared for vendor-native tool search. */
export interface DeferrableTool {
  /** The declaration, under the name the default rule shows. */
  tool: LlmTool;
  /** Whether the vendor should load it only once its search finds it. */
  deferred: boolean;
}

/**
 * The catalogue to declare with vendor-native tool search: a `ToolSearch`'s
 * whole catalogue (its always-loaded tools not deferred, its own
 * `tool_search` left out, the vendor's search tool standing in), or any other
 * provider's tools, every one deferred.
 */
export async function deferrableTools(provider: ToolProvider): Promise<DeferrableTool[]> {
  const own = (provider as { [DEFERRABLE_TOOLS]?: () => Promise<DeferrableTool[]> })[DEFERRABLE_TOOLS];
  if (typeof own === 'function') return own.call(provider);
  return (await provider.toolsForLlm()).map((tool) => ({ tool, deferred: true }));
}
